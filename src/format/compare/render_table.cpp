// SPDX-License-Identifier: Apache-2.0
// The console table. Colours are ANSI SGR codes added after padding, so they never disturb
// the alignment, and only when the caller asks (the CLI asks when stdout is a terminal).
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

constexpr const char* kRed = "\x1b[1;31m";
constexpr const char* kGreen = "\x1b[32m";
constexpr const char* kYellow = "\x1b[33m";
constexpr const char* kCyan = "\x1b[36m";
constexpr const char* kReset = "\x1b[0m";

const char* color_of(Verdict verdict) {
  switch (verdict) {
    case Verdict::regressed:
      return kRed;
    case Verdict::improved:
      return kGreen;
    case Verdict::inconclusive:
      return kYellow;
    case Verdict::added:
    case Verdict::removed:
      return kCyan;
    case Verdict::same:
      break;
  }
  return nullptr;
}

std::string paint(const std::string& text, const char* color, bool enabled) {
  if (!enabled || color == nullptr) return text;
  return color + text + kReset;
}

}  // namespace

void write_comparison_table(const Comparison& comparison, bool color, NameStyle names,
                            ChunkedText& out) {
  out += fmt::format("Baseline {}, candidate {}\n{}\n", printable(comparison.baseline_source),
                     printable(comparison.candidate_source), settings_line(comparison));
  for (const std::string& warning : comparison.warnings) {
    out += paint("warning: " + printable(warning), kYellow, color) + "\n";
  }
  for (const std::string& note : comparison.notes) {
    out += "note: " + printable(note) + "\n";
  }
  out += "\n";

  // Runs and spread only when some entry has several runs: with one run per side they say
  // nothing the note above does not.
  const bool runs = shows_runs(comparison);
  const bool rates = shows_rates(comparison);  // the declared work's rates beside each time
  std::vector<GridColumn> columns = {{"Entry", false}, {"Baseline"}, {"Candidate"}};
  if (rates) columns.insert(columns.end(), {{"Baseline rate"}, {"Candidate rate"}});
  if (runs) columns.insert(columns.end(), {{"Runs"}, {"Spread"}});
  columns.insert(columns.end(), {{"Change"},
                                 {interval_title(comparison), false},
                                 {"p"},
                                 {"Threshold"},
                                 {"Verdict", false},
                                 {"Reason", false}});
  const NameColumn shown = entry_names(comparison, names);
  const auto row_cells = [&comparison, &shown, runs, rates](std::size_t i) {
    EntryCells c = cells_of(comparison.entries[i]);
    std::vector<std::string> cells = {printable(shown(i)), std::move(c.baseline),
                                      std::move(c.candidate)};
    if (rates) cells.insert(cells.end(), {std::move(c.baseline_rate), std::move(c.candidate_rate)});
    if (runs) cells.insert(cells.end(), {std::move(c.runs), std::move(c.spread)});
    cells.insert(cells.end(), {std::move(c.change), std::move(c.interval), std::move(c.p),
                               std::move(c.threshold), std::move(c.verdict), std::move(c.reason)});
    return cells;
  };
  // The change and the verdict carry the verdict's colour.
  const std::size_t change_column = 3 + (rates ? 2 : 0) + (runs ? 2 : 0);
  const std::size_t verdict_column = change_column + 4;
  const auto highlight = [&](std::size_t row, std::size_t column, const std::string& cell) {
    if (column != change_column && column != verdict_column) return cell;
    return paint(cell, color_of(comparison.entries[row].verdict), color);
  };
  write_grid_text(columns, {comparison.entries.size(), row_cells}, "(no entries)", out, highlight);
  const std::string note = names_note(shown.shortened(), shown.numbered());
  if (!note.empty()) out += "\nnote: " + note + "\n";

  out += "\n" + summary_counts(comparison) + ": ";
  const std::string result = outcome(comparison);
  out += result == "FAILED"   ? paint(result, kRed, color)
         : result == "passed" ? paint(result, kGreen, color)
                              : paint(result + " (no entry could be decided)", kYellow, color);
  out += "\n";
}

}  // namespace kerntime::format
