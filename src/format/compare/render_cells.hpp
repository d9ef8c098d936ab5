// SPDX-License-Identifier: Apache-2.0
// What each renderer of a comparison says, cell by cell; renderers differ only in layout and
// escaping, so a verdict reads the same in a terminal, a pull request and a CI report.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/compare.hpp>

#include "text/numbers.hpp"

namespace kerntime::format {

// The text layer's number formats, which every comparison view uses.
using text::format_amount;
using text::format_change;
using text::format_p;
using text::format_percent;
using text::p_clause;

/// The text cells of one entry; "-" where a value does not exist.
struct EntryCells {
  std::string name;            ///< passed through printable()
  std::string baseline;        ///< median with unit
  std::string candidate;       ///< median with unit
  std::string change;          ///< "+10.2%"
  std::string interval;        ///< "[+8.1%, +12.3%]"
  std::string p;               ///< "0.003", "4.1e-09"
  std::string threshold;       ///< "5%"
  std::string baseline_rate;   ///< "4025.6 GB/s (81.9%)", "10.838 TFLOP/s", "1.291G items/s"; "-"
                               ///< without one
  std::string candidate_rate;  ///< the same for the candidate
  std::string runs;            ///< runs per side, "5+5"; "-" for an added or removed entry
  std::string spread;          ///< largest spread of the per-run medians, "5.6%"; "-" for one run
  std::string verdict;         ///< to_string(verdict)
  std::string reason;          ///< passed through printable()
};

EntryCells cells_of(const EntryComparison& entry);

/// The rates of one side's declared work at its median, as a cell: GB/s with the share of
/// the peak, then TFLOP/s, then items/s with an SI prefix; "-" when the side has none.
std::string rate_cell(const std::optional<SampleSummary>& side);

/// True when `t` holds any rate.
bool has_rate(const Throughput& t);

/// True when some side of some entry has a rate: then the renderings show the rate columns
/// beside the times (reports without engine measurements look as before).
bool shows_rates(const Comparison& comparison);

/// True when an entry was judged from runs (a side had several): then the renderings show the
/// runs and spread columns, which say nothing for one run per side.
bool shows_runs(const Comparison& comparison);

/// "passed", "FAILED", or "undecided" when no entry could be decided (a gate that decided
/// nothing must not look like one that passed).
std::string outcome(const Comparison& comparison);

/// "CI 99%" style header of the interval column.
std::string interval_title(const Comparison& comparison);

/// "1 regressed, 0 improved, 5 same, 1 inconclusive, 0 added, 0 removed".
std::string summary_counts(const Comparison& comparison);

/// The settings in one line: alpha, interval level, default threshold, sample floor.
std::string settings_line(const Comparison& comparison);

}  // namespace kerntime::format
