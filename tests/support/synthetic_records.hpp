// SPDX-License-Identifier: Apache-2.0
// Hand-written decoded records for the CUPTI-free processing tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include <kerntime/trace.hpp>

#include "trace/raw_records.hpp"
#include "trace/scope_table.hpp"

namespace kerntime::testing {

inline constexpr std::uint32_t kLaunchKernel = 211;  // cudaLaunchKernel's runtime cbid
inline constexpr std::uint32_t kGraphLaunch = 311;

inline trace::RawKernel raw_kernel(const char* name, std::uint32_t correlation_id,
                                   std::uint64_t start, std::uint64_t end, std::uint32_t device = 0,
                                   std::uint32_t stream = 7) {
  trace::RawKernel k;
  k.name = name;
  k.correlation_id = correlation_id;
  k.start_ns = start;
  k.end_ns = end;
  k.device = device;
  k.context = device + 1;
  k.stream = stream;
  k.grid = Dim3{128, 1, 1};
  k.block = Dim3{256, 1, 1};
  k.registers_per_thread = 32;
  k.static_shared_memory_bytes = 1024;
  k.dynamic_shared_memory_bytes = 2048;
  return k;
}

inline trace::RawApi raw_api(std::uint32_t correlation_id, std::uint64_t start, std::uint64_t end,
                             std::uint32_t thread = 42, std::uint32_t callback_id = kLaunchKernel,
                             ApiKind kind = ApiKind::runtime) {
  return trace::RawApi{kind, callback_id, start, end, 1000, thread, correlation_id, 0};
}

inline trace::RawScopeTag raw_tag(std::uint32_t correlation_id, std::uint64_t scope_id) {
  return trace::RawScopeTag{correlation_id, scope_id};
}

/// Whether one of the trace's warnings contains `text`.
inline bool mentions(const Trace& trace, const std::string& text) {
  return std::any_of(trace.warnings.begin(), trace.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

}  // namespace kerntime::testing
