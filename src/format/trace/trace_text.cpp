// SPDX-License-Identifier: Apache-2.0
#include "format/trace/trace_text.hpp"

#include <fmt/format.h>

#include "format/name_column.hpp"
#include "report/trace_section_json.hpp"

namespace kerntime::format {
namespace {

void escape_text_columns(Grid& grid, std::string (*escape)(const std::string&)) {
  for (auto& row : grid.rows) {
    for (std::size_t i = 0; i < row.size() && i < grid.columns.size(); ++i) {
      if (!grid.columns[i].right_aligned) row[i] = escape(row[i]);
    }
  }
}

}  // namespace

std::string render_trace_grid(Grid grid, Format format) {
  switch (format) {
    case Format::markdown:
      escape_text_columns(grid, &markdown_escape);
      return grid_markdown(grid);
    case Format::csv:
      return grid_csv(grid);
    case Format::table:
    case Format::json:
      break;
  }
  escape_text_columns(grid, &printable);
  grid.empty_text = "(none)";
  return grid_text(grid);
}

std::string footer_line(const std::string& prefix, const std::string& text, Format format) {
  return format == Format::markdown ? prefix + text + "  \n" : wrap_lines(prefix, text);
}

std::string counts_footer(const TraceCounts& counts, const std::vector<std::string>& warnings,
                          Format format, const std::string& note) {
  const std::string end = format == Format::markdown ? "  \n" : "\n";
  std::string out = "\n";
  out += fmt::format("kernels: {}, copies: {}, memsets: {}, API calls: {}{}", counts.kernels,
                     counts.memcpys, counts.memsets, counts.api_calls, end);
  out += fmt::format(
      "dropped records: {}, records without timestamps: {}, inverted timestamps: {}, "
      "unattributed kernels: {}{}",
      counts.dropped_records, counts.zero_timestamp_records, counts.inverted_timestamp_records,
      counts.unattributed_kernels, end);
  if (!note.empty()) out += footer_line("note: ", note, format);
  for (const std::string& warning : warnings)
    out += footer_line("warning: ", warning, format);
  return out;
}

std::string trace_footer(const Trace& trace, Format format, const std::string& note) {
  return counts_footer(report::trace_counts(trace), trace.warnings, format, note);
}

void add_trace_counts(nlohmann::ordered_json& out, const Trace& trace) {
  out["counts"] = report::counts_json(report::trace_counts(trace));
  out["warnings"] = trace.warnings;
}

std::string dimensions(const Dim3& dim) {
  return fmt::format("{}x{}x{}", dim.x, dim.y, dim.z);
}

}  // namespace kerntime::format
