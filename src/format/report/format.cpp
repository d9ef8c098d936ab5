// SPDX-License-Identifier: Apache-2.0
#include <string>

#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/report_json.hpp>

#include "format/report/renderers.hpp"

namespace kerntime {

Format parse_format(std::string_view name) {
  if (name == "table") return Format::table;
  if (name == "md" || name == "markdown") return Format::markdown;
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  throw Error("unknown output format \"" + std::string(name) +
              "\"; choose one of: table, markdown (or md), csv, json");
}

std::string render(const Report& report, Format format) {
  switch (format) {
    case Format::table:
      return format_detail::render_table(report);
    case Format::markdown:
      return format_detail::render_markdown(report);
    case Format::csv:
      return format_detail::render_csv(report);
    case Format::json:
      return to_json(report);
  }
  // Only reachable through a value cast from an integer outside the enum.
  throw Error("render: unknown format value " + std::to_string(static_cast<int>(format)));
}

}  // namespace kerntime
