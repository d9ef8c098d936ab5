// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cctype>

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
    case AxisKind::type:
      return "type";
  }
  return "unknown";
}

std::string format_axis_value(const AxisValue& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) return fmt::format("{}", *d);
  return std::get<std::string>(value);
}

namespace {

void check_benchmark_name(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) {
    throw Error("benchmark name '" + name + "' must be non-empty and contain no '/'");
  }
}

// The body of a templated benchmark: finds the instance of the configuration's types. The type
// axes' declared values are copied in, so the body stays valid when its Benchmark moves.
BenchmarkBody dispatch_types(std::vector<std::vector<AxisValue>> declared,
                             std::vector<BenchmarkBody> bodies) {
  return [declared = std::move(declared), bodies = std::move(bodies)](State& state) {
    const Configuration& c = state.configuration();
    std::size_t index = 0;
    for (std::size_t a = 0; a < declared.size(); ++a) {
      const auto& values = declared[a];
      const auto found = std::find(values.begin(), values.end(), c.values.at(a));
      if (found == values.end()) {
        throw Error("benchmark '" + c.benchmark->name() + "' was not compiled for type '" +
                    format_axis_value(c.values.at(a)) + "'");
      }
      index = index * values.size() + static_cast<std::size_t>(found - values.begin());
    }
    bodies.at(index)(state);
  };
}

}  // namespace

Benchmark::Benchmark(std::string name, BenchmarkBody body)
    : name_(std::move(name)), body_(std::move(body)) {
  check_benchmark_name(name_);
  if (!body_) throw Error("benchmark '" + name_ + "' has no body");
}

Benchmark::Benchmark(std::string name, std::vector<Axis> type_axes,
                     std::vector<BenchmarkBody> bodies)
    : name_(std::move(name)) {
  check_benchmark_name(name_);
  std::size_t combinations = type_axes.empty() ? 0 : 1;
  std::vector<std::vector<AxisValue>> declared;
  for (std::size_t a = 0; a < type_axes.size(); ++a) {
    Axis& axis = type_axes[a];
    axis.kind = AxisKind::type;
    if (axis.name.empty()) axis.name = type_axes.size() == 1 ? "T" : "T" + std::to_string(a + 1);
    for (std::size_t i = 0; i < axis.values.size(); ++i) {
      if (std::find(axis.values.begin(), axis.values.begin() + static_cast<std::ptrdiff_t>(i),
                    axis.values[i]) != axis.values.begin() + static_cast<std::ptrdiff_t>(i)) {
        throw Error("benchmark '" + name_ + "': type axis '" + axis.name +
                    "' has two types named '" + format_axis_value(axis.values[i]) +
                    "'; give one a name of its own (a kerntime::type_name specialization)");
      }
    }
    combinations *= axis.values.size();
    declared.push_back(axis.values);
    add_axis(std::move(axis));
  }
  if (combinations == 0 || bodies.size() != combinations ||
      std::any_of(bodies.begin(), bodies.end(), [](const BenchmarkBody& b) { return !b; })) {
    throw Error("benchmark '" + name_ + "' needs one body per combination of its type axes (" +
                std::to_string(combinations) + "), got " + std::to_string(bodies.size()));
  }
  body_ = dispatch_types(std::move(declared), std::move(bodies));
}

Benchmark& Benchmark::set_type_axes_names(std::vector<std::string> names) {
  std::size_t type_axes = 0;
  while (type_axes < axes_.size() && axes_[type_axes].kind == AxisKind::type)
    ++type_axes;
  if (names.size() > type_axes) {
    throw Error("benchmark '" + name_ + "' has " + std::to_string(type_axes) +
                " type axes; set_type_axes_names got " + std::to_string(names.size()) + " names");
  }
  std::vector<Axis> renamed = axes_;
  for (std::size_t a = 0; a < names.size(); ++a)
    renamed[a].name = std::move(names[a]);
  axes_.clear();
  for (Axis& axis : renamed)
    add_axis(std::move(axis));  // checks the new names like any other
  return *this;
}

Benchmark& Benchmark::add_axis(Axis axis) {
  if (axis.name.empty() || axis.name.find_first_of("/=,[]") != std::string::npos) {
    throw Error("benchmark '" + name_ + "': axis name '" + axis.name +
                "' must be non-empty and contain no '/', '=', ',', '[' or ']'");
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

Benchmark& BenchmarkRegistry::add(std::unique_ptr<Benchmark> benchmark) {
  for (const auto& b : benchmarks_) {
    if (b->name() == benchmark->name()) {
      throw Error("benchmark '" + benchmark->name() + "' is registered twice");
    }
  }
  benchmarks_.push_back(std::move(benchmark));
  return *benchmarks_.back();
}

Benchmark& BenchmarkRegistry::add(std::string name, BenchmarkBody body) {
  return add(std::make_unique<Benchmark>(std::move(name), std::move(body)));
}

Benchmark& BenchmarkRegistry::add(std::string name, std::vector<Axis> type_axes,
                                  std::vector<BenchmarkBody> bodies) {
  return add(std::make_unique<Benchmark>(std::move(name), std::move(type_axes), std::move(bodies)));
}

BenchmarkRegistry& benchmark_registry() {
  static BenchmarkRegistry registry;
  return registry;
}

namespace detail {

std::string benchmark_name_from_spelling(std::string_view spelling) {
  std::string name;
  for (char c : spelling) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) name += c;
  }
  return name;
}

}  // namespace detail
}  // namespace kerntime
