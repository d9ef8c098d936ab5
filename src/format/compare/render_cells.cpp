// SPDX-License-Identifier: Apache-2.0
#include "format/compare/render_cells.hpp"

#include <cmath>
#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "format/text_grid.hpp"
#include "text/numbers.hpp"

namespace kerntime::format {

EntryCells cells_of(const EntryComparison& entry) {
  EntryCells cells;
  cells.name = printable(entry.name);
  cells.baseline = entry.baseline
                       ? text::format_amount(entry.baseline->median, entry.baseline->unit)
                       : std::string("-");
  cells.candidate = entry.candidate
                        ? text::format_amount(entry.candidate->median, entry.candidate->unit)
                        : std::string("-");
  if (entry.baseline && entry.baseline->count == 0) cells.baseline = "-";
  if (entry.candidate && entry.candidate->count == 0) cells.candidate = "-";
  cells.change = entry.ratio ? text::format_change(*entry.ratio) : "-";
  cells.interval = "-";
  if (entry.ratio_ci) {
    const Interval& ci = *entry.ratio_ci;
    // Once, not twice in brackets, when neither end fits in a number.
    cells.interval =
        !text::change_fits(ci.low - 1.0) && !text::change_fits(ci.high - 1.0)
            ? std::string(text::kTooLargeToCompare)
            : fmt::format("[{}, {}]", text::format_change(ci.low), text::format_change(ci.high));
  }
  cells.p = entry.p_value ? text::format_p(*entry.p_value) : "-";
  cells.threshold = text::format_percent(entry.threshold);
  cells.baseline_rate = rate_cell(entry.baseline);
  cells.candidate_rate = rate_cell(entry.candidate);
  cells.runs = entry.baseline && entry.candidate
                   ? fmt::format("{}+{}", entry.baseline->runs, entry.candidate->runs)
                   : "-";
  cells.spread = entry.run_spread ? text::format_change_size(*entry.run_spread) : "-";
  cells.verdict = std::string(to_string(entry.verdict));
  cells.reason = printable(entry.reason);
  return cells;
}

namespace {

// "3909.0 GB/s"; "GB/s overflow" for a rate at a time too short for a double (declared bytes
// over a denormal median).
std::string rate_text(double value, const std::string& number, const char* unit) {
  return std::isfinite(value) ? number + " " + unit : unit + std::string(" ") + text::kOverflow;
}

}  // namespace

std::string rate_cell(const std::optional<SampleSummary>& side) {
  if (!side) return "-";
  const Throughput& t = side->throughput;
  std::string cell;
  if (t.gb_per_s) {
    cell = rate_text(*t.gb_per_s, text::format_fixed(*t.gb_per_s, 1), "GB/s");
    if (t.peak_bandwidth_percent && std::isfinite(*t.peak_bandwidth_percent)) {
      cell += " (" + text::format_percent_value(*t.peak_bandwidth_percent, 1) + ")";
    }
  }
  if (t.tflop_per_s) {
    cell += (cell.empty() ? "" : ", ") +
            rate_text(*t.tflop_per_s, text::format_fixed(*t.tflop_per_s, 3), "TFLOP/s");
  }
  if (t.elements_per_s) {
    cell += (cell.empty() ? "" : ", ") +
            rate_text(*t.elements_per_s, text::format_si(*t.elements_per_s), "items/s");
  }
  return cell.empty() ? "-" : cell;
}

bool has_rate(const Throughput& t) {
  return t.gb_per_s || t.tflop_per_s || t.elements_per_s;
}

bool shows_rates(const Comparison& comparison) {
  for (const EntryComparison& entry : comparison.entries) {
    for (const auto* side : {&entry.baseline, &entry.candidate}) {
      if (*side && has_rate((*side)->throughput)) return true;
    }
  }
  return false;
}

bool shows_runs(const Comparison& comparison) {
  for (const EntryComparison& entry : comparison.entries) {
    if (entry.between_runs) return true;
  }
  return false;
}

std::string outcome(const Comparison& comparison) {
  if (comparison.failed()) return "FAILED";
  return comparison.decided() == 0 && !comparison.entries.empty() ? "undecided" : "passed";
}

std::string interval_title(const Comparison& comparison) {
  return fmt::format("{} CI", text::format_percent(comparison.confidence_level()));
}

std::string summary_counts(const Comparison& comparison) {
  return fmt::format("{} regressed, {} improved, {} same, {} inconclusive, {} added, {} removed",
                     comparison.count(Verdict::regressed), comparison.count(Verdict::improved),
                     comparison.count(Verdict::same), comparison.count(Verdict::inconclusive),
                     comparison.count(Verdict::added), comparison.count(Verdict::removed));
}

std::string settings_line(const Comparison& comparison) {
  std::string floor;
  if (comparison.min_change_ns > 0.0) {
    floor = fmt::format(", changes under {} ignored (--min-change)",
                        text::format_amount(comparison.min_change_ns, "ns"));
  }
  return fmt::format(
      "alpha {}, {} intervals of the median ratio (t test on per-run medians with several runs "
      "per side, Mann-Whitney U with one), threshold {} unless set per entry{}, at least {} "
      "samples per side",
      comparison.alpha, text::format_percent(comparison.confidence_level()),
      text::format_percent(comparison.default_threshold), floor, comparison.min_samples);
}

}  // namespace kerntime::format
