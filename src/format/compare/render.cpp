// SPDX-License-Identifier: Apache-2.0
#include <string>
#include <string_view>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>

#include "format/compare/renderers.hpp"
#include "format/format_name.hpp"

namespace kerntime {
namespace format {

NameColumn entry_names(const Comparison& comparison, NameStyle names, std::size_t width) {
  return NameColumn(
      names, comparison.entries.size(),
      [&comparison](std::size_t i) { return std::string_view{comparison.entries[i].name}; }, width);
}

}  // namespace format

CompareFormat parse_compare_format(std::string_view name) {
  constexpr CompareFormat formats[] = {CompareFormat::table, CompareFormat::markdown,
                                       CompareFormat::json, CompareFormat::junit,
                                       CompareFormat::html};
  return formats[format::parse_format_name(
      name, {{"table"}, {"md", "markdown"}, {"json"}, {"junit"}, {"html"}})];
}

void render_to(const Comparison& comparison, CompareFormat format, const TextSink& write,
               bool color, NameStyle names) {
  format::ChunkedText out(write);
  switch (format) {
    case CompareFormat::table:
      format::write_comparison_table(comparison, color, names, out);
      break;
    case CompareFormat::markdown:
      format::write_comparison_markdown(comparison, names, out);
      break;
    case CompareFormat::json:
      format::write_comparison_json(comparison, out);
      break;
    case CompareFormat::junit:
      format::write_comparison_junit(comparison, out);
      break;
    case CompareFormat::html:
      format::write_comparison_html(comparison, names, out);
      break;
    default:
      // Only reachable through a value cast from an integer outside the enum.
      throw Error("render: unknown comparison format value " +
                  std::to_string(static_cast<int>(format)));
  }
  out.flush();
}

void render_html_to(const Comparison& comparison, const Report& baseline, const Report& candidate,
                    const TextSink& write, NameStyle names) {
  format::ChunkedText out(write);
  format::write_comparison_html(comparison, names, out, &baseline, &candidate);
  out.flush();
}

std::string render(const Comparison& comparison, CompareFormat format, bool color,
                   NameStyle names) {
  std::string text;
  render_to(
      comparison, format, [&text](std::string_view piece) { text.append(piece); }, color, names);
  return text;
}

}  // namespace kerntime
