// SPDX-License-Identifier: Apache-2.0
// Registered benchmarks with parameter axes, and the ready runner `main`:
//
//     void saxpy(kerntime::State& state) {
//       const auto n = static_cast<std::size_t>(state.get_int("n"));
//       ... allocate x and y ...
//       state.set_work({3.0 * n * sizeof(float), 2.0 * n});
//       state.run([&](cudaStream_t s) { launch_saxpy(n, 2.0f, x, y, s); });
//     }
//     KERNTIME_BENCHMARK(saxpy).add_pow2_axis("n", {20, 24});
//     KERNTIME_BENCHMARK_MAIN();
//
// The runner lives in a library of its own: link kerntime::main (CMake:
// target_link_libraries(my_benchmarks PRIVATE kerntime::main)), which brings kerntime::kerntime.
//
// Every combination of axis values is one configuration, named "saxpy/n=1048576/cold".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <kerntime/measure.hpp>

namespace kerntime {

/// The kinds of parameter axes. A power-of-two axis holds integers that are powers of two and
/// is declared by exponents.
enum class AxisKind { integer, power_of_two, floating, string };

/// "int", "pow2", "float", "string".
std::string_view to_string(AxisKind kind);

using AxisValue = std::variant<std::int64_t, double, std::string>;

struct Axis {
  std::string name;
  AxisKind kind = AxisKind::integer;
  std::vector<AxisValue> values;
};

/// One axis value as it appears in names and tables: 1048576, 0.5, tiled.
std::string format_axis_value(const AxisValue& value);

class State;

/// A registered benchmark: a name, a body and its axes.
class Benchmark {
 public:
  Benchmark(std::string name, std::function<void(State&)> body);

  /// Axis names must be unique within a benchmark, values non-empty; throws kerntime::Error.
  Benchmark& add_int_axis(std::string name, std::vector<std::int64_t> values);
  /// Values 2^e for each exponent e in [0, 62].
  Benchmark& add_pow2_axis(std::string name, std::vector<int> exponents);
  Benchmark& add_float_axis(std::string name, std::vector<double> values);
  Benchmark& add_string_axis(std::string name, std::vector<std::string> values);

  const std::string& name() const { return name_; }
  const std::vector<Axis>& axes() const { return axes_; }
  const std::function<void(State&)>& body() const { return body_; }

 private:
  Benchmark& add_axis(Axis axis);
  std::string name_;
  std::function<void(State&)> body_;
  std::vector<Axis> axes_;
};

/// One configuration: a benchmark and one value per axis.
struct Configuration {
  const Benchmark* benchmark = nullptr;
  std::vector<AxisValue> values;  ///< in the order of benchmark->axes()

  /// "saxpy/n=1048576" (the runner appends the mode, and the device when several are run).
  std::string name() const;
};

/// What a benchmark body sees: its configuration's axis values, and the one measurement it
/// runs. Everything the body allocates before run() stays outside the timed samples.
class State {
 public:
  State(const Configuration& configuration, Engine& engine, MeasureOptions options);

  /// The value of an integer or power-of-two axis; throws kerntime::Error naming the axes
  /// when `axis` is not one of them.
  std::int64_t get_int(std::string_view axis) const;
  double get_float(std::string_view axis) const;
  const std::string& get_string(std::string_view axis) const;

  /// The device the configuration runs on (already current on the calling thread).
  int device() const { return options_.device; }
  const MeasureOptions& options() const { return options_; }

  /// Declares the work of one launcher call, for the throughput columns.
  void set_work(Work work) { options_.work = work; }
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

/// The benchmarks of this program, in registration order.
class BenchmarkRegistry {
 public:
  /// Registers a benchmark; throws kerntime::Error on a duplicate name.
  Benchmark& add(std::string name, std::function<void(State&)> body);
  const std::vector<std::unique_ptr<Benchmark>>& benchmarks() const { return benchmarks_; }

 private:
  std::vector<std::unique_ptr<Benchmark>> benchmarks_;
};

/// The process-wide registry that KERNTIME_BENCHMARK adds to.
BenchmarkRegistry& benchmark_registry();

/// The runner: parses the command line (--help lists the options), runs the selected
/// configurations on the selected devices and prints or writes the results. Returns the exit
/// status: 0 success, 1 a benchmark failed, 2 bad arguments or no usable GPU. Defined in
/// kerntime::main, not kerntime::kerntime: link kerntime::main to call it.
int benchmark_main(int argc, const char* const* argv, const BenchmarkRegistry& registry);
int benchmark_main(int argc, const char* const* argv);

}  // namespace kerntime

#define KERNTIME_DETAIL_CONCAT2(a, b) a##b
#define KERNTIME_DETAIL_CONCAT(a, b) KERNTIME_DETAIL_CONCAT2(a, b)

/// Registers `function` (void(kerntime::State&)) under its own name; chain axis declarations.
#define KERNTIME_BENCHMARK(function)                                     \
  [[maybe_unused]] static ::kerntime::Benchmark& KERNTIME_DETAIL_CONCAT( \
      kerntime_benchmark_, __LINE__) = ::kerntime::benchmark_registry().add(#function, function)

/// Defines main() as the kerntime benchmark runner; the program links kerntime::main.
#define KERNTIME_BENCHMARK_MAIN()                  \
  int main(int argc, char** argv) {                \
    return ::kerntime::benchmark_main(argc, argv); \
  }
