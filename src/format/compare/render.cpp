// SPDX-License-Identifier: Apache-2.0
#include <string>
#include <string_view>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>

#include "format/compare/renderers.hpp"

namespace kerntime {

CompareFormat parse_compare_format(std::string_view name) {
  if (name == "table") return CompareFormat::table;
  if (name == "md" || name == "markdown") return CompareFormat::markdown;
  if (name == "json") return CompareFormat::json;
  if (name == "junit") return CompareFormat::junit;
  throw Error("Unknown format '" + std::string(name) +
              "': choose table, md (markdown), json or junit.");
}

std::string render(const Comparison& comparison, CompareFormat format, bool color) {
  switch (format) {
    case CompareFormat::table:
      return detail::render_table(comparison, color);
    case CompareFormat::markdown:
      return detail::render_markdown(comparison);
    case CompareFormat::json:
      return detail::render_json(comparison);
    case CompareFormat::junit:
      return detail::render_junit(comparison);
  }
  throw Error("Unknown comparison format.");
}

}  // namespace kerntime
