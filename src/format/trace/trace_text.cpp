// SPDX-License-Identifier: Apache-2.0
#include "format/trace/trace_text.hpp"

#include <fmt/format.h>

namespace kerntime::trace_format {
namespace {

void escape_text_columns(Grid& grid, std::string (*escape)(const std::string&)) {
  for (auto& row : grid.rows) {
    for (std::size_t i = 0; i < row.size() && i < grid.columns.size(); ++i) {
      if (!grid.columns[i].right_aligned) row[i] = escape(row[i]);
    }
  }
}

}  // namespace

std::string render_grid(Grid grid, Format format) {
  switch (format) {
    case Format::markdown:
      escape_text_columns(grid, &format_detail::markdown_escape);
      return format_detail::grid_markdown(grid);
    case Format::csv:
      return format_detail::grid_csv(grid);
    case Format::table:
    case Format::json:
      break;
  }
  escape_text_columns(grid, &format_detail::printable);
  grid.empty_text = "(none)";
  return format_detail::grid_text(grid);
}

std::string trace_footer(const Trace& trace, Format format) {
  const std::string end = format == Format::markdown ? "  \n" : "\n";
  std::string out = "\n";
  out += fmt::format("kernels: {}, copies: {}, memsets: {}, API calls: {}{}", trace.kernels.size(),
                     trace.memcpys.size(), trace.memsets.size(), trace.api_calls.size(), end);
  out += fmt::format(
      "dropped records: {}, records without timestamps: {}, inverted timestamps: {}, "
      "unattributed kernels: {}{}",
      trace.dropped_records, trace.zero_timestamp_records, trace.inverted_timestamp_records,
      trace.unattributed_kernels, end);
  for (const std::string& warning : trace.warnings)
    out += "warning: " + warning + end;
  return out;
}

std::string dimensions(const Dim3& dim) {
  return fmt::format("{}x{}x{}", dim.x, dim.y, dim.z);
}

}  // namespace kerntime::trace_format
