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
// Templated benchmarks sweep type axes (type_axes.hpp):
//
//     template <class T>
//     void sort(kerntime::State& state, kerntime::type_list<T>) { ... }
//     KERNTIME_BENCHMARK_TYPES(sort, kerntime::type_list<float, std::int8_t>)
//         .add_pow2_axis("n", {20});            // sort/T=float/n=1048576, sort/T=int8/n=1048576
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
#include <vector>

#include <kerntime/axes.hpp>
#include <kerntime/export.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/state.hpp>
#include <kerntime/type_axes.hpp>

namespace kerntime {

/// What a benchmark runs for one configuration.
using BenchmarkBody = std::function<void(State&)>;

/// A registered benchmark: a name, a body and its axes.
class KERNTIME_API Benchmark {
 public:
  /// Throws kerntime::Error when the name is empty or holds a '/' (it separates the parts of
  /// a configuration's name).
  Benchmark(std::string name, BenchmarkBody body);
  /// A templated benchmark: one body per combination of the type axes' values, in the order
  /// of the configurations (the last axis varying fastest). Type axes come first in axes().
  Benchmark(std::string name, std::vector<Axis> type_axes, std::vector<BenchmarkBody> bodies);

  /// Axis names must be unique within a benchmark, values non-empty; throws kerntime::Error.
  Benchmark& add_int_axis(std::string name, std::vector<std::int64_t> values);
  /// Values 2^e for each exponent e in [0, 62].
  Benchmark& add_pow2_axis(std::string name, std::vector<int> exponents);
  Benchmark& add_float_axis(std::string name, std::vector<double> values);
  Benchmark& add_string_axis(std::string name, std::vector<std::string> values);
  /// Renames the type axes in order (NVBench's set_type_axes_names); by default one type axis
  /// is called T, several T1, T2, ... Throws kerntime::Error for more names than type axes.
  Benchmark& set_type_axes_names(std::vector<std::string> names);

  const std::string& name() const { return name_; }
  const std::vector<Axis>& axes() const { return axes_; }
  /// Runs the body of `state`'s configuration (for a templated benchmark, the instance of its
  /// types).
  void run(State& state) const { body_(state); }
  const BenchmarkBody& body() const { return body_; }

 private:
  Benchmark& add_axis(Axis axis);
  std::string name_;
  BenchmarkBody body_;
  std::vector<Axis> axes_;
};

/// One configuration: a benchmark and one value per axis.
struct KERNTIME_API Configuration {
  const Benchmark* benchmark = nullptr;
  std::vector<AxisValue> values;  ///< in the order of benchmark->axes()

  /// "saxpy/n=1048576" (the runner appends the mode, and the device when several are run).
  std::string name() const;
};

/// The benchmarks of this program, in registration order.
class KERNTIME_API BenchmarkRegistry {
 public:
  /// Registers a benchmark; throws kerntime::Error on a duplicate name.
  Benchmark& add(std::string name, BenchmarkBody body);
  /// Registers a templated benchmark (see Benchmark's second constructor).
  Benchmark& add(std::string name, std::vector<Axis> type_axes, std::vector<BenchmarkBody> bodies);
  const std::vector<std::unique_ptr<Benchmark>>& benchmarks() const { return benchmarks_; }

 private:
  Benchmark& add(std::unique_ptr<Benchmark> benchmark);
  std::vector<std::unique_ptr<Benchmark>> benchmarks_;
};

/// The process-wide registry that the KERNTIME_BENCHMARK macros add to.
KERNTIME_API BenchmarkRegistry& benchmark_registry();

/// The runner: parses the command line (--help lists the options), runs the selected
/// configurations on the selected devices and prints or writes the results. Returns the exit
/// status: 0 success, 1 a benchmark failed, 2 bad arguments or no usable GPU. Defined in
/// kerntime::main, not kerntime::kerntime: link kerntime::main to call it.
int benchmark_main(int argc, const char* const* argv, const BenchmarkRegistry& registry);
int benchmark_main(int argc, const char* const* argv);

namespace detail {

/// A benchmark's name from the text of its macro argument: "f<float, 4>" becomes
/// "f<float,4>" (whitespace removed).
KERNTIME_API std::string benchmark_name_from_spelling(std::string_view spelling);

/// Registers `generic` (called as generic(state, type_list<T1, ..., Tk>{})) once per
/// combination of one type from each of `Lists`.
template <class... Lists, class Generic>
Benchmark& register_typed_benchmark(BenchmarkRegistry& registry, std::string name,
                                    Generic generic) {
  static_assert(sizeof...(Lists) > 0, "KERNTIME_BENCHMARK_TYPES needs at least one type_list");
  std::vector<Axis> axes{Axis{std::string{}, AxisKind::type, type_names(Lists{})}...};
  std::vector<BenchmarkBody> bodies;
  auto add = [&bodies, &generic](auto types) {
    bodies.emplace_back([generic, types](State& state) { generic(state, types); });
  };
  type_product<type_list<>, Lists...>::each(add);
  return registry.add(std::move(name), std::move(axes), std::move(bodies));
}

}  // namespace detail
}  // namespace kerntime

#define KERNTIME_DETAIL_CONCAT2(a, b) a##b
#define KERNTIME_DETAIL_CONCAT(a, b) KERNTIME_DETAIL_CONCAT2(a, b)
#define KERNTIME_DETAIL_REGISTRATION                                                         \
  [[maybe_unused]] static ::kerntime::Benchmark& KERNTIME_DETAIL_CONCAT(kerntime_benchmark_, \
                                                                        __COUNTER__)

/// Registers a function (void(kerntime::State&)) under its own spelling, which may be a
/// template-id: KERNTIME_BENCHMARK(copy<float, 4>) is named "copy<float,4>". Chain axis
/// declarations.
#define KERNTIME_BENCHMARK(...)                                        \
  KERNTIME_DETAIL_REGISTRATION = ::kerntime::benchmark_registry().add( \
      ::kerntime::detail::benchmark_name_from_spelling(#__VA_ARGS__), __VA_ARGS__)

/// Registers any callable taking kerntime::State& (a function, a template-id, a lambda) under
/// `name`, a string without '/': KERNTIME_BENCHMARK_NAMED("copy_vec4", copy<float, 4>).
#define KERNTIME_BENCHMARK_NAMED(name, ...) \
  KERNTIME_DETAIL_REGISTRATION = ::kerntime::benchmark_registry().add(name, __VA_ARGS__)

/// Registers a function template body(kerntime::State&, kerntime::type_list<Ts...>) over the
/// type lists that follow, one type axis each (NVBench's NVBENCH_BENCH_TYPES), named after the
/// template.
#define KERNTIME_BENCHMARK_TYPES(function, ...) \
  KERNTIME_BENCHMARK_TYPES_NAMED(#function, function, __VA_ARGS__)

/// The same under `name`.
#define KERNTIME_BENCHMARK_TYPES_NAMED(name, function, ...)                                 \
  KERNTIME_DETAIL_REGISTRATION = ::kerntime::detail::register_typed_benchmark<__VA_ARGS__>( \
      ::kerntime::benchmark_registry(), name,                                               \
      [](::kerntime::State& kerntime_state, auto kerntime_types) {                          \
        function(kerntime_state, kerntime_types);                                           \
      })

namespace kerntime::detail {
/// 0, defined in kerntime::main alone: a program that uses KERNTIME_BENCHMARK_MAIN() but links
/// only kerntime::kerntime fails to link with this name in the linker's message.
extern const int link_kerntime_main_to_use_KERNTIME_BENCHMARK_MAIN;
}  // namespace kerntime::detail

/// Defines main() as the kerntime benchmark runner; the program links kerntime::main.
#define KERNTIME_BENCHMARK_MAIN()                                                 \
  int main(int argc, char** argv) {                                               \
    return ::kerntime::benchmark_main(argc, argv) +                               \
           ::kerntime::detail::link_kerntime_main_to_use_KERNTIME_BENCHMARK_MAIN; \
  }
