// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <kerntime/trace.hpp>

namespace kerntime::trace_format {

/// The counts and warnings every JSON view of a trace carries, so no reader misses a loss.
inline void add_counts(nlohmann::ordered_json& out, const Trace& trace) {
  out["counts"] = {{"kernels", trace.kernels.size()},
                   {"memcpys", trace.memcpys.size()},
                   {"memsets", trace.memsets.size()},
                   {"api_calls", trace.api_calls.size()},
                   {"dropped_records", trace.dropped_records},
                   {"zero_timestamp_records", trace.zero_timestamp_records},
                   {"inverted_timestamp_records", trace.inverted_timestamp_records},
                   {"unattributed_kernels", trace.unattributed_kernels}};
  out["warnings"] = trace.warnings;
}

}  // namespace kerntime::trace_format
