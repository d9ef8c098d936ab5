// SPDX-License-Identifier: Apache-2.0
// The columns that results get beyond the fixed ones, by one rule for the runner's tables (of
// Measurements) and `kerntime report`'s table of how each entry was measured (of
// MeasurementInfo): Items/s when any result declares elements, then each custom counter's
// name, in the order the names first appear.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <kerntime/counter.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/throughput.hpp>

namespace kerntime::format {

struct CounterColumns {
  bool items = false;              ///< some result declares elements: an Items/s column
  std::vector<std::string> names;  ///< one column per distinct counter name

  /// Adds the columns that one result's `work` and `counters` need.
  void add(const Work& work, const std::vector<Counter>& counters);
  bool empty() const { return !items && names.empty(); }
};

/// What the counter `name` of `counters` shows for a headline of `headline`: counter_result()
/// at its median; empty when there is no counter of that name or no sample.
std::optional<double> shown_counter(const std::vector<Counter>& counters, const std::string& name,
                                    const Statistics& headline);

/// A rate or counter cell of a table: an SI prefix (`403.3G`), or "-" when empty.
std::string si_or_dash(const std::optional<double>& value);

}  // namespace kerntime::format
