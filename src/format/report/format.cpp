// SPDX-License-Identifier: Apache-2.0
#include <string>

#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/report_json.hpp>

#include "format/format_name.hpp"
#include "format/report/renderers.hpp"

namespace kerntime {

Format parse_format(std::string_view name) {
  constexpr Format formats[] = {Format::table, Format::markdown, Format::csv, Format::json};
  return formats[format::parse_format_name(name,
                                           {{"table"}, {"md", "markdown"}, {"csv"}, {"json"}})];
}

Format format_for_path(std::string_view path) {
  auto ends = [path](std::string_view suffix) {
    return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  if (ends(".json")) return Format::json;
  if (ends(".md")) return Format::markdown;
  if (ends(".csv")) return Format::csv;
  // The file's own name, after the last folder: "out.d/table" has no extension.
  const std::string_view file =
      path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
  const auto dot = file.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || ends(".txt")) return Format::table;
  throw Error("cannot tell a format from the extension '" + std::string{file.substr(dot)} +
              "' of '" + std::string{path} +
              "': the formats are .json, .md, .csv and .txt (the table); name the file so, or "
              "give --format");
}

std::string render_html(const Report& report, NameStyle names) {
  return format::render_html(report, names);
}

std::string render_html_trend(const std::vector<Report>& reports,
                              const std::vector<std::string>& labels, NameStyle names,
                              double threshold) {
  return format::render_html_trend(reports, labels, names, threshold);
}

std::string render(const Report& report, Format format, NameStyle names) {
  switch (format) {
    case Format::table:
      return format::render_table(report, names);
    case Format::markdown:
      return format::render_markdown(report, names);
    case Format::csv:
      return format::render_csv(report);
    case Format::json:
      return to_json(report);
  }
  // Only reachable through a value cast from an integer outside the enum.
  throw Error("render: unknown format value " + std::to_string(static_cast<int>(format)));
}

}  // namespace kerntime
