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
  const bool runs = shows_runs(comparison);
  Grid grid;
  grid.columns = {{"Entry", false},
                  {"Verdict", false},
                  {"Change"},
                  {interval_title(comparison), false},
                  {"p"},
                  {"Threshold"},
                  {"Baseline"},
                  {"Candidate"}};
  if (runs) grid.columns.insert(grid.columns.end(), {{"Runs"}, {"Spread"}});
  grid.columns.push_back({"Reason", false});
  for (const EntryComparison* entry : rows) {
    const EntryCells c = cells_of(*entry);
    const std::string verdict =
        entry->verdict == Verdict::same ? c.verdict : "**" + c.verdict + "**";
    std::vector<std::string> row = {escape(entry->name), verdict,    c.change,   c.interval, c.p,
                                    c.threshold,         c.baseline, c.candidate};
    if (runs) row.insert(row.end(), {c.runs, c.spread});
    row.push_back(escape(entry->reason));
    grid.rows.push_back(std::move(row));
  }
  return grid_markdown(grid);
}

}  // namespace

std::string render_comparison_markdown(const Comparison& comparison) {
  std::string result = outcome(comparison);
  if (result == "FAILED") result = "failed";
  std::string out = fmt::format("### kerntime compare: {}\n\n", result);
  out += fmt::format("{}. Baseline {}, candidate {}; {}.\n\n", summary_counts(comparison),
                     escape(comparison.baseline_source), escape(comparison.candidate_source),
                     settings_line(comparison));
  // One quote block, its warnings separated by quoted blank lines so they stay paragraphs.
  for (std::size_t i = 0; i < comparison.warnings.size(); ++i) {
    out += (i == 0 ? "" : ">\n") + std::string("> **Warning:** ") + escape(comparison.warnings[i]) +
           "\n";
  }
  for (const std::string& note : comparison.notes) {
    out += (comparison.warnings.empty() ? "" : ">\n") + std::string("> **Note:** ") + escape(note) +
           "\n";
  }
  if (!comparison.warnings.empty() || !comparison.notes.empty()) out += "\n";

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
