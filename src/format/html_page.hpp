// SPDX-License-Identifier: Apache-2.0
// The frame of kerntime's HTML pages (compare's, report's): one file with its style inline, no
// script, nothing fetched; light or dark as the reader's setting says; printable. A verdict or
// kind is told by a word and a shape as well as a colour.
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "format/markup_text.hpp"

namespace kerntime::format {

inline constexpr const char* kHtmlStyle = R"(<style>
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #ffffff; --muted: #59636e;
  --grid: #d8dee4; --band: #eef2f6; --bad: #b42318; --good: #1a7f37; --same: #3d5a80;
  --unsure: #9a6700; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --grid: #30363d; --band: #161b22;
    --bad: #ff7b72; --good: #56d364; --same: #79c0ff; --unsure: #e3b341; } }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg);
  margin: 1.5rem; max-width: 1200px; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
.outcome-passed { color: var(--good); } .outcome-FAILED { color: var(--bad); }
.outcome-undecided { color: var(--unsure); }
.notes li { color: var(--muted); }
svg text { fill: var(--fg); font: 12px system-ui, sans-serif; } svg .tick { fill: var(--muted); }
svg .grid { stroke: var(--grid); } svg .zero { stroke: var(--muted); }
svg .band { fill: var(--band); } svg .interval { stroke-width: 2; }
.regressed { --c: var(--bad); } .improved { --c: var(--good); } .same { --c: var(--same); }
.inconclusive { --c: var(--unsure); }
svg .mark, svg .clip { fill: var(--c, var(--fg)); } svg .interval { stroke: var(--c, var(--fg)); }
svg .word { fill: var(--c, var(--fg)); font-weight: 600; }
figcaption { color: var(--muted); font-size: 0.9rem; }
svg .samples { fill: none; stroke: var(--c, var(--fg)); stroke-opacity: 0.4; stroke-width: 4;
  stroke-linecap: round; }
svg .run { stroke: var(--fg); stroke-width: 2; } svg .side { fill: var(--muted); }
.baseline { --c: var(--muted); } .candidate { --c: var(--same); }
table { border-collapse: collapse; margin-top: 0.5rem; }
.scroll { overflow-x: auto; max-width: 100%; }
caption { text-align: left; color: var(--muted); padding-bottom: 0.3rem; }
th, td { border-bottom: 1px solid var(--grid); padding: 0.2rem 0.5rem; text-align: left;
  vertical-align: top; }
tbody th { font-weight: normal; font-family: ui-monospace, monospace; overflow-wrap: anywhere;
  min-width: 26ch; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
tr.regressed td:nth-child(2), tr.improved td:nth-child(2), tr.inconclusive td:nth-child(2) {
  color: var(--c); font-weight: 600; }
svg .box { fill: var(--band); stroke: var(--fg); } svg .whisker, svg .median { stroke: var(--fg); }
svg .median { stroke-width: 2; } svg .bar { fill: var(--same); }
svg .series { fill: none; stroke: var(--fg); stroke-width: 1.5; }
svg .level { stroke: var(--muted); stroke-width: 1.5; stroke-dasharray: 6 4; }
svg .point .interval { stroke: var(--same); }
@media print { body { margin: 0; } svg { max-width: 100%; height: auto; }
  .scroll { overflow: visible; } }
</style>
)";

/// The page up to the start of <main>: doctype, meta, `title` (escaped here), the style.
inline std::string html_page_start(const std::string& title, const std::string& generator) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"" +
         markup_text(generator) + "\">\n<title>" + markup_text(title) + "</title>\n" + kHtmlStyle +
         "</head>\n<body>\n<main>\n";
}

/// Opens a figure holding an SVG chart of class `name`, `width` x `height` pixels, which screen
/// readers name by its title `title_markup` (already escaped), of id "NAME-title".
inline std::string svg_figure_start(std::string_view name, double width, double height,
                                    std::string_view title_markup) {
  return fmt::format(
      "<figure>\n<svg class=\"{0}\" role=\"img\" aria-labelledby=\"{0}-title\" "
      "width=\"{1:.0f}\" height=\"{2:.0f}\" viewBox=\"0 0 {1:.0f} {2:.0f}\" "
      "xmlns=\"http://www.w3.org/2000/svg\">\n<title id=\"{0}-title\">{3}</title>\n",
      name, width, height, title_markup);
}

/// The end of the page, from </main>.
inline std::string html_page_end() {
  return "</main>\n</body>\n</html>\n";
}

}  // namespace kerntime::format
