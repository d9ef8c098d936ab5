// SPDX-License-Identifier: Apache-2.0
// Custom columns of a benchmark's results (Google Benchmark's state.counters, NVBench's
// summaries), beside the time and the rates of declared work (throughput.hpp).
#pragma once

#include <optional>
#include <string>

#include <kerntime/export.hpp>

namespace kerntime {

/// How a counter's value is shown.
enum class CounterKind {
  value,  ///< as it is: a property of the configuration (bytes per element, a tile size)
  rate,   ///< per launcher call, shown per second of the headline median (Google Benchmark's
          ///< kIsRate): segments sorted per second
};

/// One named column: set with State::set_counter or MeasureOptions::counters, kept in the
/// Measurement and its report entry (MeasurementInfo::counters), shown in the runner's tables
/// and by `kerntime report`.
struct Counter {
  std::string name;
  double value = 0.0;
  CounterKind kind = CounterKind::value;
};

/// What `counter` shows for a measurement whose headline median is `headline_ns`: its value,
/// or value / headline time in seconds for a rate (empty when the time is not positive).
KERNTIME_API std::optional<double> counter_result(const Counter& counter, double headline_ns);

}  // namespace kerntime
