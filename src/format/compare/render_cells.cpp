// SPDX-License-Identifier: Apache-2.0
#include "format/compare/render_cells.hpp"

#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "text/numbers.hpp"
#include "format/text_grid.hpp"

namespace kerntime::format_detail {

EntryCells cells_of(const EntryComparison& entry) {
  EntryCells cells;
  cells.name = printable(entry.name);
  cells.baseline = entry.baseline
                       ? detail::format_amount(entry.baseline->median, entry.baseline->unit)
                       : std::string("-");
  cells.candidate = entry.candidate
                        ? detail::format_amount(entry.candidate->median, entry.candidate->unit)
                        : std::string("-");
  if (entry.baseline && entry.baseline->count == 0) cells.baseline = "-";
  if (entry.candidate && entry.candidate->count == 0) cells.candidate = "-";
  cells.change = entry.ratio ? detail::format_change(*entry.ratio) : "-";
  cells.interval = entry.ratio_ci
                       ? fmt::format("[{}, {}]", detail::format_change(entry.ratio_ci->low),
                                     detail::format_change(entry.ratio_ci->high))
                       : "-";
  cells.p = entry.p_value ? detail::format_p(*entry.p_value) : "-";
  cells.threshold = detail::format_percent(entry.threshold);
  cells.verdict = std::string(to_string(entry.verdict));
  cells.reason = printable(entry.reason);
  return cells;
}

std::string interval_title(const Comparison& comparison) {
  return fmt::format("{} CI", detail::format_percent(comparison.confidence_level()));
}

std::string summary_counts(const Comparison& comparison) {
  return fmt::format("{} regressed, {} improved, {} same, {} inconclusive, {} added, {} removed",
                     comparison.count(Verdict::regressed), comparison.count(Verdict::improved),
                     comparison.count(Verdict::same), comparison.count(Verdict::inconclusive),
                     comparison.count(Verdict::added), comparison.count(Verdict::removed));
}

std::string settings_line(const Comparison& comparison) {
  return fmt::format(
      "alpha {} (two-sided Mann-Whitney U), {} intervals of the median ratio, threshold {} "
      "unless set per entry, changes under {} ignored, at least {} samples per side",
      comparison.alpha, detail::format_percent(comparison.confidence_level()),
      detail::format_percent(comparison.default_threshold),
      detail::format_amount(comparison.min_change_ns, "ns"), comparison.min_samples);
}

}  // namespace kerntime::format_detail
