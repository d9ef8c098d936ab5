// SPDX-License-Identifier: Apache-2.0
// The sections of a traced report's HTML page (html_trace_sections.cpp); each returns "" when the
// trace has nothing for it.
#pragma once

#include <cstddef>
#include <string>

#include <kerntime/name_style.hpp>
#include <kerntime/report.hpp>
#include <kerntime/trace.hpp>

namespace kerntime::format {

/// The kernels drawn one bar each; the rest share one bar.
inline constexpr std::size_t kKernelBars = 15;
/// Characters of a name beside its bar.
inline constexpr std::size_t kBarNameWidth = 48;

/// The kernels by total GPU time, the kKernelBars largest one bar each, the rest as one.
std::string kernel_breakdown(const TraceSection& trace, NameStyle names);
/// The NVTX ranges: host time, and the kernel time inside each and directly in it.
std::string range_table(const TraceSection& trace);
/// Copies and memsets by kind; `records` is records_of(trace).
std::string memory_table(const TraceSection& trace, const Trace& records);
/// Host API calls by function, the largest first; a note when the report only counts them.
std::string api_table(const TraceSection& trace, const Trace& records);

}  // namespace kerntime::format
