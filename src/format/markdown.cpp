// SPDX-License-Identifier: Apache-2.0
#include <string>
#include <vector>

#include "format/renderers.hpp"
#include "format/summary.hpp"

namespace kerntime::format_detail {
namespace {

// Kernel names are full of Markdown syntax: `void k<float>(float*)` would lose its template
// argument as an HTML tag and start emphasis at the `*`. GFM lets any ASCII punctuation be
// backslash-escaped, and a pipe must be, or it splits the cell.
std::string escape(const std::string& text) {
  std::string out;
  for (const char c : printable(text)) {
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '<':
      case '>':
      case '|':
      case '&':
      case '~':
        out += '\\';
        break;
      default:
        break;
    }
    out += c;
  }
  return out;
}

std::string table_row(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const std::string& cell : cells) {
    line += " " + cell + " |";
  }
  return line + "\n";
}

}  // namespace

std::string render_markdown(const Report& report) {
  std::string out;
  const std::vector<std::string> environment = environment_lines(report.environment);
  for (const std::string& line : environment) {
    out += "- " + escape(line) + "\n";
  }
  if (!environment.empty()) out += "\n";

  const Summary summary = summarize(report);
  std::vector<std::string> titles;
  std::vector<std::string> alignments;
  for (const SummaryColumn& column : summary.columns) {
    titles.push_back(column.title);
    alignments.push_back(column.right_aligned ? "---:" : ":---");
  }
  out += table_row(titles);
  out += table_row(alignments);
  for (auto row : summary.rows) {
    row[0] = escape(row[0]);
    out += table_row(row);
  }

  // `-` in a code span: a bare "- " at the start of a line would open a list.
  if (summary.has_missing) out += std::string("\n`") + kMissingCell + "`: " + kMissingLegend + "\n";
  for (const std::string& warning : report.warnings) {
    out += "\n**warning:** " + escape(warning) + "\n";
  }
  return out;
}

}  // namespace kerntime::format_detail
