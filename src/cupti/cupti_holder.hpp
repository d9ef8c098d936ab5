// SPDX-License-Identifier: Apache-2.0
// What a user reads when another CUPTI client keeps kerntime from tracing: who it is, in the
// words the user knows it by, and what to do. CUPTI names the subscriber that holds it as
// "CUPTI for <name>", or "<not provided>" (compute-sanitizer); the tool a process was started
// under is often named by CUDA_INJECTION64_PATH instead.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kerntime::cupti {

/// What a Tracer does while another client holds CUPTI: the consequence its reasons name.
inline constexpr const char* kTracerFallback =
    ": kernel tracing is off and GPU times come from cudaEvents (they include launch latency; "
    "the benchmark engine corrects its cold events for it)";

/// The holder's name: `holder` as cuptiSubscribe_v2 gives it, without CUPTI's "CUPTI for "
/// prefix; when it names nobody, the tool `injection` (CUDA_INJECTION64_PATH) loads, when its
/// library is one kerntime recognises (Nsight Systems, Nsight Compute, compute-sanitizer); else "".
std::string holder_in_words(const std::string& holder, std::string_view injection);

/// The Tracer's reason when CUPTI's one subscription is held: the holder, that kerntime traces
/// nothing while it does, where GPU times come from, and what to do about it. `consequence`
/// (": ..."): what the client of kerntime's session loses, the Tracer's by default.
std::string held_reason(const std::string& holder, std::string_view injection,
                        std::string_view consequence = kTracerFallback);

/// The Tracer's reason when another client in the process receives the activity records
/// (`client` says which, as far as the process can tell), and what to do about it.
std::string starved_reason(std::uint64_t launches, const std::string& client,
                           std::string_view consequence = kTracerFallback);

}  // namespace kerntime::cupti
