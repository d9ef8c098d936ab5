// SPDX-License-Identifier: Apache-2.0
// Markdown for a pull-request comment: what needs attention first, unchanged entries folded
// away, every user-provided string escaped so a name cannot break the table.
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "format/compare/render_cells.hpp"
#include "format/compare/renderers.hpp"
#include "format/text_grid.hpp"

namespace kerntime::format_detail {
namespace {

std::string escape(const std::string& text) {
  return markdown_escape(text);
}

std::string table(const Comparison& comparison, const std::vector<const EntryComparison*>& rows) {
  Grid grid;
  grid.columns = {{"Entry", false},
                  {"Verdict", false},
                  {"Change"},
                  {interval_title(comparison), false},
                  {"p"},
                  {"Threshold"},
                  {"Baseline"},
                  {"Candidate"},
                  {"Reason", false}};
  for (const EntryComparison* entry : rows) {
    const EntryCells c = cells_of(*entry);
    const std::string verdict =
        entry->verdict == Verdict::same ? c.verdict : "**" + c.verdict + "**";
    grid.rows.push_back({escape(entry->name), verdict, c.change, c.interval, c.p, c.threshold,
                         c.baseline, c.candidate, escape(entry->reason)});
  }
  return grid_markdown(grid);
}

}  // namespace

std::string render_comparison_markdown(const Comparison& comparison) {
  std::string out =
      fmt::format("### kerntime compare: {}\n\n", comparison.failed() ? "failed" : "passed");
  out += fmt::format("{}. Baseline {}, candidate {}; {}.\n\n", summary_counts(comparison),
                     escape(comparison.baseline_source), escape(comparison.candidate_source),
                     settings_line(comparison));
  // One quote block, its warnings separated by quoted blank lines so they stay paragraphs.
  for (std::size_t i = 0; i < comparison.warnings.size(); ++i) {
    out += (i == 0 ? "" : ">\n") + std::string("> **Warning:** ") + escape(comparison.warnings[i]) +
           "\n";
  }
  if (!comparison.warnings.empty()) out += "\n";

  std::vector<const EntryComparison*> notable;
  std::vector<const EntryComparison*> same;
  for (const EntryComparison& entry : comparison.entries) {
    (entry.verdict == Verdict::same ? same : notable).push_back(&entry);
  }
  if (!notable.empty()) out += table(comparison, notable) + "\n";
  if (!same.empty()) {
    out +=
        fmt::format("<details><summary>{} {} the same</summary>\n\n{}\n</details>\n", same.size(),
                    same.size() == 1 ? "entry is" : "entries are", table(comparison, same));
  }
  if (comparison.entries.empty()) out += "No entries to compare.\n";
  return out;
}

}  // namespace kerntime::format_detail
