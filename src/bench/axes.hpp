// SPDX-License-Identifier: Apache-2.0
// Parameter axes on the command line, and the expansion of benchmarks into configurations.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <kerntime/benchmark.hpp>

namespace kerntime::bench {

/// One --axis option, split but not yet typed: NAME=VALUES or NAME[pow2]=VALUES (NVBench's
/// spelling, whose values are exponents).
struct AxisOverride {
  std::string name;
  std::string values;      ///< without NVBench's brackets: "1,2" for [1,2]
  bool exponents = false;  ///< NAME[pow2]=...: each value e stands for 2^e
};

/// Splits "NAME=VALUES", "NAME=[v1,v2]" or "NAME[pow2]=[a:b:step]", ignoring whitespace around
/// the parts; throws kerntime::Error when there is no '=', a side is empty or a flag is not
/// pow2.
AxisOverride parse_axis_option(std::string_view text);

/// Types the comma-separated values of `override` for `axis`. Integers: 4096, 2^12, or a range
/// a:b[:step] (inclusive). Powers of two: 4096, 2^12, or 2^a:2^b (each power in between); with
/// [pow2], exponents and ranges of exponents a:b[:step]. Floats: 0.5, 1e-3, a:b[:step].
/// Strings: as written. Types: names the benchmark was compiled for (float, int8, or NVBench's
/// F32, I8). Throws kerntime::Error naming the axis and the value it could not read.
std::vector<AxisValue> parse_axis_values(const Axis& axis, const AxisOverride& override);
/// The same for plain VALUES (no brackets, no flag).
std::vector<AxisValue> parse_axis_values(const Axis& axis, std::string_view values);

/// Every combination of `benchmark`'s axis values (the last axis varies fastest), after
/// replacing the values of each overridden axis it has (a later override of an axis wins).
std::vector<Configuration> expand(const Benchmark& benchmark,
                                  const std::vector<AxisOverride>& overrides);

/// One --benchmark (-b) option: a benchmark's name or its index in --list, and the --axis
/// options that follow it (NVBench: they apply to the most recent --benchmark).
struct BenchmarkChoice {
  std::string which;
  std::vector<AxisOverride> axes;
};

/// What the runner's command line selects.
struct Selection {
  std::vector<AxisOverride> axes;           ///< --axis before any --benchmark: for every one
  std::vector<BenchmarkChoice> benchmarks;  ///< empty: every benchmark, in registration order
  /// An ECMAScript regular expression searched in each configuration's name ("saxpy/n=1024")
  /// and in that name with each of `name_suffixes` appended; empty: all.
  std::string filter;
  /// What the runner appends to a configuration's name in its results ("/cold", or
  /// "/cold/device=1" with several devices), so that a name copied from a report matches.
  std::vector<std::string> name_suffixes;
};

/// The configurations `selection` chooses, in the order of its --benchmark options (each
/// configuration once). Throws kerntime::Error for a malformed expression, a --benchmark that
/// names no benchmark, or an override naming an axis that none of the benchmarks it applies to
/// has.
std::vector<Configuration> select_configurations(const BenchmarkRegistry& registry,
                                                 const Selection& selection);

/// The same with only a filter and overrides for every benchmark.
std::vector<Configuration> select_configurations(const BenchmarkRegistry& registry,
                                                 const std::string& filter,
                                                 const std::vector<AxisOverride>& overrides);

}  // namespace kerntime::bench
