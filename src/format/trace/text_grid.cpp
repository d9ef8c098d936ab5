// SPDX-License-Identifier: Apache-2.0
#include "format/trace/text_grid.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace kerntime::trace_format {
namespace {

std::string pad(const std::string& text, std::size_t width, bool right_aligned) {
  const std::string fill(width - std::min(width, text.size()), ' ');
  return right_aligned ? fill + text : text + fill;
}

// Two spaces between columns and no trailing blanks, so the output diffs cleanly.
std::string text_line(const std::vector<std::string>& cells, const std::vector<std::size_t>& widths,
                      const std::vector<Column>& columns) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line += "  ";
    line += pad(cells[i], widths[i], columns[i].right_aligned);
  }
  line.erase(line.find_last_not_of(' ') + 1);
  return line + "\n";
}

std::string render_text(const Grid& grid) {
  std::vector<std::size_t> widths;
  std::vector<std::string> titles;
  for (const Column& column : grid.columns) {
    titles.push_back(column.title);
    widths.push_back(column.title.size());
  }
  for (const auto& row : grid.rows) {
    for (std::size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  }
  std::vector<std::string> rules;
  for (const std::size_t width : widths)
    rules.emplace_back(width, '-');
  std::string out =
      text_line(titles, widths, grid.columns) + text_line(rules, widths, grid.columns);
  for (const auto& row : grid.rows)
    out += text_line(row, widths, grid.columns);
  if (grid.rows.empty()) out += "(none)\n";
  return out;
}

// Demangled C++ names can hold '|' (operator|); Markdown would read it as a cell border.
std::string markdown_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string render_markdown(const Grid& grid) {
  std::string header = "|";
  std::string rule = "|";
  for (const Column& column : grid.columns) {
    header += " " + markdown_cell(column.title) + " |";
    rule += column.right_aligned ? " ---: |" : " :--- |";
  }
  std::string out = header + "\n" + rule + "\n";
  for (const auto& row : grid.rows) {
    out += "|";
    for (const std::string& cell : row)
      out += " " + markdown_cell(cell) + " |";
    out += "\n";
  }
  return out;
}

// RFC 4180 quoting; LF line ends, which every CSV reader accepts.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string render_csv(const Grid& grid) {
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i)
      out += (i > 0 ? "," : "") + csv_field(cells[i]);
    out += "\n";
  };
  std::vector<std::string> titles;
  for (const Column& column : grid.columns)
    titles.push_back(column.title);
  line(titles);
  for (const auto& row : grid.rows)
    line(row);
  return out;
}

}  // namespace

std::string render_grid(const Grid& grid, Format format) {
  switch (format) {
    case Format::markdown:
      return render_markdown(grid);
    case Format::csv:
      return render_csv(grid);
    case Format::table:
    case Format::json:
      break;
  }
  return render_text(grid);
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
