// SPDX-License-Identifier: Apache-2.0
// Markdown for a pull-request comment: what needs attention first, unchanged entries folded
// away, every user-provided string escaped so a name cannot break the table.
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "format/compare/render_cells.hpp"
#include "format/compare/renderers.hpp"
#include "format/name_column.hpp"
#include "format/text_grid.hpp"

namespace kerntime::format {
namespace {

std::string escape(const std::string& text) {
  return markdown_escape(text);
}

void write_table(const Comparison& comparison, const std::vector<const EntryComparison*>& entries,
                 const NameColumn& names, ChunkedText& out) {
  const bool runs = shows_runs(comparison);
  const bool rates = shows_rates(comparison);
  std::vector<GridColumn> columns = {{"Entry", false},
                                     {"Verdict", false},
                                     {"Change"},
                                     {interval_title(comparison), false},
                                     {"p"},
                                     {"Threshold"},
                                     {"Baseline"},
                                     {"Candidate"}};
  if (rates) columns.insert(columns.end(), {{"Baseline rate"}, {"Candidate rate"}});
  if (runs) columns.insert(columns.end(), {{"Runs"}, {"Spread"}});
  columns.push_back({"Reason", false});
  const auto row_cells = [&comparison, &entries, &names, runs, rates](std::size_t i) {
    const EntryComparison& entry = *entries[i];
    EntryCells c = cells_of(entry);
    std::string verdict = entry.verdict == Verdict::same ? c.verdict : "**" + c.verdict + "**";
    const auto index = static_cast<std::size_t>(&entry - comparison.entries.data());
    std::vector<std::string> cells = {escape(names(index)),  std::move(verdict),
                                      std::move(c.change),   std::move(c.interval),
                                      std::move(c.p),        std::move(c.threshold),
                                      std::move(c.baseline), std::move(c.candidate)};
    if (rates) cells.insert(cells.end(), {std::move(c.baseline_rate), std::move(c.candidate_rate)});
    if (runs) cells.insert(cells.end(), {std::move(c.runs), std::move(c.spread)});
    cells.push_back(escape(entry.reason));
    return cells;
  };
  write_grid_markdown(columns, {entries.size(), row_cells}, out);
}

}  // namespace

void write_comparison_markdown(const Comparison& comparison, NameStyle names, ChunkedText& out) {
  std::string result = outcome(comparison);
  if (result == "FAILED") result = "failed";
  out += fmt::format("### kerntime compare: {}\n\n", result);
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
  // One numbering for both tables, so a number names one entry.
  const NameColumn shown = entry_names(comparison, names);
  if (!notable.empty()) {
    write_table(comparison, notable, shown, out);
    out += "\n";
  }
  if (!same.empty()) {
    out += fmt::format("<details><summary>{} {} the same</summary>\n\n", same.size(),
                       same.size() == 1 ? "entry is" : "entries are");
    write_table(comparison, same, shown, out);
    out += "\n</details>\n";
  }
  const std::string note = names_note(shown.shortened(), shown.numbered());
  if (!note.empty()) out += "\nnote: " + escape(note) + "\n";
  if (comparison.entries.empty()) out += "No entries to compare.\n";
}

}  // namespace kerntime::format
