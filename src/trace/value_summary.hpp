// SPDX-License-Identifier: Apache-2.0
// The figures every nsys-style summary row shows for a set of durations or sizes, computed one
// way for all of them (the median is the stats layer's, as in every other kerntime figure).
#pragma once

#include <cstdint>
#include <vector>

#include <kerntime/trace_summaries.hpp>

namespace kerntime::trace {

/// The summary of `values` (sorted in place).
ValueSummary summarize_values(std::vector<std::uint64_t>& values);

/// 100 * part / whole; 0 when whole is 0.
double percent_of(std::uint64_t part, std::uint64_t whole);

}  // namespace kerntime::trace
