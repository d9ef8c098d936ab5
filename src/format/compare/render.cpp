// SPDX-License-Identifier: Apache-2.0
#include <string>
#include <string_view>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>

#include "format/compare/renderers.hpp"
#include "format/format_name.hpp"

namespace kerntime {

CompareFormat parse_compare_format(std::string_view name) {
  constexpr CompareFormat formats[] = {CompareFormat::table, CompareFormat::markdown,
                                       CompareFormat::json, CompareFormat::junit};
  return formats[format_detail::parse_format_name(
      name, {{"table"}, {"md", "markdown"}, {"json"}, {"junit"}})];
}

std::string render(const Comparison& comparison, CompareFormat format, bool color) {
  switch (format) {
    case CompareFormat::table:
      return format_detail::render_comparison_table(comparison, color);
    case CompareFormat::markdown:
      return format_detail::render_comparison_markdown(comparison);
    case CompareFormat::json:
      return format_detail::render_comparison_json(comparison);
    case CompareFormat::junit:
      return format_detail::render_comparison_junit(comparison);
  }
  // Only reachable through a value cast from an integer outside the enum.
  throw Error("render: unknown comparison format value " +
              std::to_string(static_cast<int>(format)));
}

}  // namespace kerntime
