// SPDX-License-Identifier: Apache-2.0
// The console table. Colours are ANSI SGR codes added after padding, so they never disturb
// the alignment, and only when the caller asks (the CLI asks when stdout is a terminal).
#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compare/render_cells.hpp"
#include "compare/renderers.hpp"
#include "compare/text.hpp"

namespace kerntime::detail {
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

std::string pad(const std::string& text, std::size_t width, bool right) {
  const std::size_t used = display_width(text);
  const std::string fill(width > used ? width - used : 0, ' ');
  return right ? fill + text : text + fill;
}

}  // namespace

std::string render_table(const Comparison& comparison, bool color) {
  std::string out =
      fmt::format("Baseline {}, candidate {}\n{}\n", printable(comparison.baseline_source),
                  printable(comparison.candidate_source), settings_line(comparison));
  for (const std::string& warning : comparison.warnings) {
    out += paint("warning: " + printable(warning), kYellow, color) + "\n";
  }
  out += "\n";

  constexpr std::size_t kColumns = 9;
  const std::array<std::string, kColumns> titles = {
      "Entry", "Baseline",  "Candidate", "Change", interval_title(comparison),
      "p",     "Threshold", "Verdict",   "Reason"};
  constexpr std::array<bool, kColumns> right = {false, true, true,  true, false,
                                                true,  true, false, false};
  std::vector<std::array<std::string, kColumns>> rows;
  for (const EntryComparison& entry : comparison.entries) {
    const EntryCells c = cells_of(entry);
    rows.push_back({c.name, c.baseline, c.candidate, c.change, c.interval, c.p, c.threshold,
                    c.verdict, c.reason});
  }
  std::array<std::size_t, kColumns> widths{};
  for (std::size_t k = 0; k < kColumns; ++k) {
    widths[k] = display_width(titles[k]);
  }
  for (const auto& row : rows) {
    for (std::size_t k = 0; k < kColumns; ++k) {
      widths[k] = std::max(widths[k], display_width(row[k]));
    }
  }

  const auto line = [&](const std::array<std::string, kColumns>& cells, const char* highlight) {
    std::string text;
    for (std::size_t k = 0; k < kColumns; ++k) {
      // The last column is not padded: trailing blanks would only wrap narrow terminals.
      std::string cell = k + 1 == kColumns ? cells[k] : pad(cells[k], widths[k], right[k]);
      if (k == 3 || k == 7) cell = paint(cell, highlight, color);
      text += k == 0 ? cell : "  " + cell;
    }
    return text + "\n";
  };
  out += line(titles, nullptr);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += line(rows[i], color_of(comparison.entries[i].verdict));
  }
  if (rows.empty()) out += "(no entries)\n";

  out += "\n" + summary_counts(comparison) + ": ";
  out += comparison.failed() ? paint("FAILED", kRed, color) : paint("passed", kGreen, color);
  out += "\n";
  return out;
}

}  // namespace kerntime::detail
