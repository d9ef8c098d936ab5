// SPDX-License-Identifier: Apache-2.0
// The verdict for one pair of same-name entries.
#pragma once

#include <kerntime/compare.hpp>
#include <kerntime/report.hpp>

namespace kerntime::compare_detail {

/// Compares `candidate` against `baseline` with `threshold` (a fraction) and the significance
/// level and sample floor of `options`. Sets everything but `fails`.
EntryComparison compare_entry(const Entry& baseline, const Entry& candidate, double threshold,
                              const CompareOptions& options);

/// The one-side summary of `entry` (count, median, unit, timer, runs).
SampleSummary summarize_side(const Entry& entry);

/// True when both entries name their timer and the names differ: their times measure
/// different things and cannot be compared.
bool timers_differ(const Entry& baseline, const Entry& candidate);

/// True when the entry's samples are host time (`kerntime run`'s NVTX ranges, timer
/// "nvtx-range"), which moves with the whole process between processes.
bool holds_host_time(const Entry& entry);

/// True when the entry's samples are a CPU benchmark's (Google Benchmark's times, NVBench's
/// cpu_only measurements), which the allowance measured for GPU timers does not cover.
bool holds_cpu_time(const Entry& entry);

}  // namespace kerntime::compare_detail
