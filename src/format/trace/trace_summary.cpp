// SPDX-License-Identifier: Apache-2.0
// The nsys-style summaries by name, from a Trace or from a report's trace section (whose lists
// may stop at the record limit while its counts are exact), and what every one of them ends with.
#include <tuple>

#include <fmt/format.h>

#include <kerntime/error.hpp>
#include <kerntime/trace_format.hpp>

#include "format/trace/summary_views.hpp"
#include "format/trace/trace_text.hpp"
#include "io/json_text.hpp"
#include "report/trace_section_json.hpp"

namespace kerntime {
namespace format {
namespace {

std::string render(const SummaryInput& input, TraceSummaryKind kind, Format format) {
  switch (kind) {
    case TraceSummaryKind::memory_time:
      return render_memory_time_summary(input, format);
    case TraceSummaryKind::memory_size:
      return render_memory_size_summary(input, format);
    case TraceSummaryKind::api_calls:
      return render_api_summary(input, format);
    case TraceSummaryKind::kernel_launches:
      return render_kernel_launch_summary(input, format);
    case TraceSummaryKind::kernels:
      break;
  }
  throw Error("render_trace_summary: the per-kernel summary is render_kernel_summary()");
}

}  // namespace

Trace records_of(const TraceSection& section) {
  Trace trace;
  std::tie(trace.kernels, trace.memcpys, trace.memsets, trace.api_calls, trace.strings) = std::tie(
      section.kernels, section.memcpys, section.memsets, section.api_calls, section.strings);
  return trace;
}

namespace {

std::string listed(std::size_t shown, std::uint64_t counted, const char* what) {
  return fmt::format("{} of {} {}", shown, counted, what);
}

}  // namespace

std::vector<std::string> partial_lists(const TraceSection& s, TraceSummaryKind kind) {
  constexpr const char* kCovers =
      " (the record limit when the report was written): this summary covers the listed records, "
      "the counts below are of all";
  std::vector<std::string> notes;
  switch (kind) {
    case TraceSummaryKind::memory_time:
    case TraceSummaryKind::memory_size:
      if (s.memcpys.size() < s.counts.memcpys || s.memsets.size() < s.counts.memsets) {
        notes.push_back("the report lists " + listed(s.memcpys.size(), s.counts.memcpys, "copies") +
                        " and " + listed(s.memsets.size(), s.counts.memsets, "memsets") + kCovers);
      }
      break;
    case TraceSummaryKind::api_calls:
      if (s.api_calls.empty() && s.counts.api_calls > 0) {
        notes.push_back(fmt::format(
            "the report counts {} API calls but lists none (kerntime run's reports, and those of "
            "kerntime before API call records were listed, count them only): no API summary",
            s.counts.api_calls));
      } else if (s.api_calls.size() < s.counts.api_calls) {
        notes.push_back("the report lists " +
                        listed(s.api_calls.size(), s.counts.api_calls, "API calls") + kCovers);
      }
      break;
    case TraceSummaryKind::kernel_launches:
      if (s.kernels.size() < s.counts.kernels) {
        notes.push_back("the report lists " +
                        listed(s.kernels.size(), s.counts.kernels, "kernels") + kCovers);
      }
      break;
    case TraceSummaryKind::kernels:
      break;
  }
  return notes;
}

std::string summary_footer(const SummaryInput& input, Format format,
                           const std::vector<std::string>& extra, const std::string& note) {
  if (format == Format::csv) return "";
  std::string footer = counts_footer(input.counts, {}, format, note);
  for (const std::string& line : extra)
    footer += footer_line("", line, format);
  for (const std::string& warning : input.warnings)
    footer += footer_line("warning: ", warning, format);
  return footer;
}

std::string summary_json(const char* key, nlohmann::ordered_json rows, const SummaryInput& input,
                         nlohmann::ordered_json extra) {
  nlohmann::ordered_json out;
  out[key] = std::move(rows);
  for (auto& [name, value] : extra.items())
    out[name] = std::move(value);
  out["counts"] = report::counts_json(input.counts);
  out["warnings"] = input.warnings;
  return io::dump_json(out, 2) + "\n";
}

}  // namespace format

std::string_view to_string(TraceSummaryKind kind) {
  switch (kind) {
    case TraceSummaryKind::kernels:
      return "cuda_gpu_kern_sum";
    case TraceSummaryKind::memory_time:
      return "cuda_gpu_mem_time_sum";
    case TraceSummaryKind::memory_size:
      return "cuda_gpu_mem_size_sum";
    case TraceSummaryKind::api_calls:
      return "cuda_api_sum";
    case TraceSummaryKind::kernel_launches:
      return "cuda_kern_exec_sum";
  }
  return "unknown";
}

std::string_view summary_title(TraceSummaryKind kind) {
  switch (kind) {
    case TraceSummaryKind::kernels:
      return "CUDA GPU Kernel Summary";
    case TraceSummaryKind::memory_time:
      return "CUDA GPU MemOps Summary (by Time)";
    case TraceSummaryKind::memory_size:
      return "CUDA GPU MemOps Summary (by Size)";
    case TraceSummaryKind::api_calls:
      return "CUDA API Summary";
    case TraceSummaryKind::kernel_launches:
      return "CUDA Kernel Launch & Exec Time Summary";
  }
  return "unknown";
}

TraceSummaryKind parse_trace_summary_kind(std::string_view name) {
  std::string names;
  for (const TraceSummaryKind kind : kTraceSummaryKinds) {
    if (to_string(kind) == name) return kind;
    names += (names.empty() ? "" : ", ") + std::string{to_string(kind)};
  }
  throw Error("unknown trace summary \"" + std::string{name} + "\": choose " + names);
}

std::string render_trace_summary(const Trace& trace, TraceSummaryKind kind, Format format,
                                 NameStyle names) {
  if (kind == TraceSummaryKind::kernels) return render_kernel_summary(trace, format, {}, names);
  const format::SummaryInput input{trace, report::trace_counts(trace), trace.warnings, names};
  return format::render(input, kind, format);
}

std::string render_trace_summary(const Report& report, TraceSummaryKind kind, Format format,
                                 NameStyle names) {
  if (kind == TraceSummaryKind::kernels) return render_kernel_summary(report, format, names);
  if (!report.trace) {
    throw Error("the report has no trace section, so no " + std::string{to_string(kind)} +
                ": record with a kerntime::Tracer (attach_trace)");
  }
  const Trace records = format::records_of(*report.trace);
  format::SummaryInput input{records, report.trace->counts, report.warnings, names};
  for (std::string& note : format::partial_lists(*report.trace, kind))
    input.warnings.push_back(std::move(note));
  return format::render(input, kind, format);
}

}  // namespace kerntime
