// SPDX-License-Identifier: Apache-2.0
// What a registered benchmark's body sees (benchmark.hpp): its configuration's axis values, the
// work it declares, an optional per-sample setup, and the one measurement it runs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <kerntime/axes.hpp>
#include <kerntime/export.hpp>
#include <kerntime/measure.hpp>

namespace kerntime {

struct Configuration;

/// Everything the body allocates before run() stays outside the timed samples.
class KERNTIME_API State {
 public:
  State(const Configuration& configuration, Engine& engine, MeasureOptions options);

  /// The value of an integer or power-of-two axis; throws kerntime::Error naming the axes
  /// when `axis` is not one of them.
  std::int64_t get_int(std::string_view axis) const;
  double get_float(std::string_view axis) const;
  /// The value of a string axis, or the type name of a type axis ("float").
  const std::string& get_string(std::string_view axis) const;

  /// The device the configuration runs on (already current on the calling thread).
  int device() const { return options_.device; }
  const MeasureOptions& options() const { return options_; }

  /// Declares the work of one launcher call, for the throughput columns.
  void set_work(Work work) { options_.work = work; }
  /// Adds `elements` to the elements one launcher call processes (NVBench's add_element_count;
  /// count the input, not the output): the Items/s column.
  void add_element_count(double elements) { options_.work.elements += elements; }
  /// Sets the custom column `name` (Google Benchmark's state.counters[name]): shown as it is,
  /// or, for CounterKind::rate, as `value` per launcher call per second of the headline time.
  /// Setting a name again replaces its value.
  void set_counter(const std::string& name, double value, CounterKind kind = CounterKind::value);
  /// Enqueues `setup` on the engine's stream before every sample, outside the timed window
  /// (NVBench's exec_tag::timer, Google Benchmark's PauseTiming): a reset of the input that an
  /// in-place kernel overwrites. See MeasureOptions::setup for what each mode does with it.
  void set_setup(Launcher setup) { options_.setup = std::move(setup); }
  /// Skips this configuration (e.g. too little memory), with the reason in the report.
  void skip(std::string reason) { skip_reason_ = std::move(reason); }

  /// Measures `launcher` with the runner's options; call it once per body.
  void run(const Launcher& launcher);

  const Configuration& configuration() const { return configuration_; }
  const std::string& skip_reason() const { return skip_reason_; }
  /// The measurement, once run() returned.
  const Measurement* measurement() const { return measurement_.get(); }

 private:
  const AxisValue& value(std::string_view axis, AxisKind a, AxisKind b) const;

  const Configuration& configuration_;
  Engine& engine_;
  MeasureOptions options_;
  std::string skip_reason_;
  std::unique_ptr<Measurement> measurement_;
};

}  // namespace kerntime
