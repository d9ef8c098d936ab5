// SPDX-License-Identifier: Apache-2.0
// The nsys-style summaries beyond kernels, each rendered from the records of a Trace with the
// counts and warnings of its source: the Trace itself, or a report's trace section, whose
// counts are exact while its lists may be cut at the record limit.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <kerntime/format.hpp>
#include <kerntime/name_style.hpp>
#include <kerntime/report.hpp>
#include <kerntime/trace.hpp>
#include <kerntime/trace_format.hpp>

namespace kerntime::format {

struct SummaryInput {
  const Trace& records;
  TraceCounts counts;
  std::vector<std::string> warnings;        ///< the source's, and what a partial list means
  NameStyle names = NameStyle::short_form;  ///< how the kernel names of a table are written
};

/// A report's trace section as a Trace, so one summary code serves both sources.
Trace records_of(const TraceSection& section);

/// What a reader must know when the lists `kind` reads are shorter than their counts (the record
/// limit when the report was written; kerntime run's reports count API calls but list none).
std::vector<std::string> partial_lists(const TraceSection& section, TraceSummaryKind kind);

/// cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum.
std::string render_memory_time_summary(const SummaryInput& input, Format format);
std::string render_memory_size_summary(const SummaryInput& input, Format format);
/// cuda_api_sum.
std::string render_api_summary(const SummaryInput& input, Format format);
/// cuda_kern_exec_sum.
std::string render_kernel_launch_summary(const SummaryInput& input, Format format);

/// The table or Markdown footer (counts, the names' note, then `extra` lines, then warnings);
/// CSV has none.
std::string summary_footer(const SummaryInput& input, Format format,
                           const std::vector<std::string>& extra = {},
                           const std::string& note = {});

/// {key: rows, "counts": ..., "warnings": [...]} as text, plus `extra` members before counts.
std::string summary_json(const char* key, nlohmann::ordered_json rows, const SummaryInput& input,
                         nlohmann::ordered_json extra = nlohmann::ordered_json::object());

}  // namespace kerntime::format
