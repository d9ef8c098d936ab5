// SPDX-License-Identifier: Apache-2.0
#include <fmt/core.h>

#include <kerntime/benchmark.hpp>
#include <kerntime/error.hpp>

namespace kerntime {

std::string_view to_string(AxisKind kind) {
  switch (kind) {
    case AxisKind::integer:
      return "int";
    case AxisKind::power_of_two:
      return "pow2";
    case AxisKind::floating:
      return "float";
    case AxisKind::string:
      return "string";
  }
  return "unknown";
}

std::string format_axis_value(const AxisValue& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) return fmt::format("{}", *d);
  return std::get<std::string>(value);
}

Benchmark::Benchmark(std::string name, std::function<void(State&)> body)
    : name_(std::move(name)), body_(std::move(body)) {
  if (name_.empty() || name_.find('/') != std::string::npos) {
    throw Error("benchmark name '" + name_ + "' must be non-empty and contain no '/'");
  }
  if (!body_) throw Error("benchmark '" + name_ + "' has no body");
}

Benchmark& Benchmark::add_axis(Axis axis) {
  if (axis.name.empty() || axis.name.find_first_of("/=,") != std::string::npos) {
    throw Error("benchmark '" + name_ + "': axis name '" + axis.name +
                "' must be non-empty and contain no '/', '=' or ','");
  }
  for (const Axis& a : axes_) {
    if (a.name == axis.name) {
      throw Error("benchmark '" + name_ + "' declares axis '" + axis.name + "' twice");
    }
  }
  if (axis.values.empty()) {
    throw Error("benchmark '" + name_ + "': axis '" + axis.name + "' has no values");
  }
  axes_.push_back(std::move(axis));
  return *this;
}

Benchmark& Benchmark::add_int_axis(std::string name, std::vector<std::int64_t> values) {
  Axis axis{std::move(name), AxisKind::integer, {}};
  for (std::int64_t v : values)
    axis.values.emplace_back(v);
  return add_axis(std::move(axis));
}

Benchmark& Benchmark::add_pow2_axis(std::string name, std::vector<int> exponents) {
  Axis axis{std::move(name), AxisKind::power_of_two, {}};
  for (int e : exponents) {
    if (e < 0 || e > 62) {
      throw Error("benchmark '" + name_ + "': axis '" + axis.name + "' exponent " +
                  std::to_string(e) + " is outside [0, 62]");
    }
    axis.values.emplace_back(std::int64_t{1} << e);
  }
  return add_axis(std::move(axis));
}

Benchmark& Benchmark::add_float_axis(std::string name, std::vector<double> values) {
  Axis axis{std::move(name), AxisKind::floating, {}};
  for (double v : values)
    axis.values.emplace_back(v);
  return add_axis(std::move(axis));
}

Benchmark& Benchmark::add_string_axis(std::string name, std::vector<std::string> values) {
  Axis axis{std::move(name), AxisKind::string, {}};
  for (std::string& v : values)
    axis.values.emplace_back(std::move(v));
  return add_axis(std::move(axis));
}

std::string Configuration::name() const {
  std::string out = benchmark->name();
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += '/' + benchmark->axes()[i].name + '=' + format_axis_value(values[i]);
  }
  return out;
}

Benchmark& BenchmarkRegistry::add(std::string name, std::function<void(State&)> body) {
  for (const auto& b : benchmarks_) {
    if (b->name() == name) throw Error("benchmark '" + name + "' is registered twice");
  }
  benchmarks_.push_back(std::make_unique<Benchmark>(std::move(name), std::move(body)));
  return *benchmarks_.back();
}

BenchmarkRegistry& benchmark_registry() {
  static BenchmarkRegistry registry;
  return registry;
}

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
  return std::get<std::string>(value(axis, AxisKind::string, AxisKind::string));
}

void State::run(const Launcher& launcher) {
  if (measurement_) {
    throw Error("benchmark '" + configuration_.benchmark->name() +
                "' called State::run twice; a configuration is one measurement");
  }
  measurement_ = std::make_unique<Measurement>(engine_.measure(launcher, options_));
}

}  // namespace kerntime
