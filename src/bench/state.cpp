// SPDX-License-Identifier: Apache-2.0
#include <kerntime/benchmark.hpp>
#include <kerntime/error.hpp>
#include <kerntime/state.hpp>

namespace kerntime {

State::State(const Configuration& configuration, Engine& engine, MeasureOptions options)
    : configuration_(configuration), engine_(engine), options_(std::move(options)) {}

const AxisValue& State::value(std::string_view axis, AxisKind a, AxisKind b) const {
  const auto& axes = configuration_.benchmark->axes();
  std::string names;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (axes[i].name == axis) {
      if (axes[i].kind != a && axes[i].kind != b) {
        throw Error("benchmark '" + configuration_.benchmark->name() + "': axis '" + axes[i].name +
                    "' is of kind " + std::string{to_string(axes[i].kind)} +
                    "; use the State getter of that kind");
      }
      return configuration_.values[i];
    }
    names += names.empty() ? axes[i].name : ", " + axes[i].name;
  }
  throw Error("benchmark '" + configuration_.benchmark->name() + "' has no axis '" +
              std::string{axis} + "' (its axes: " + (names.empty() ? "none" : names) + ")");
}

std::int64_t State::get_int(std::string_view axis) const {
  return std::get<std::int64_t>(value(axis, AxisKind::integer, AxisKind::power_of_two));
}

double State::get_float(std::string_view axis) const {
  return std::get<double>(value(axis, AxisKind::floating, AxisKind::floating));
}

const std::string& State::get_string(std::string_view axis) const {
  return std::get<std::string>(value(axis, AxisKind::string, AxisKind::type));
}

void State::set_counter(const std::string& name, double value, CounterKind kind) {
  for (Counter& c : options_.counters) {
    if (c.name == name) {
      c.value = value;
      c.kind = kind;
      return;
    }
  }
  options_.counters.push_back({name, value, kind});
}

void State::run(const Launcher& launcher) {
  if (measurement_) {
    throw Error("benchmark '" + configuration_.benchmark->name() +
                "' called State::run twice; a configuration is one measurement");
  }
  measurement_ = std::make_unique<Measurement>(engine_.measure(launcher, options_));
}

}  // namespace kerntime
