// SPDX-License-Identifier: Apache-2.0
// Parameter axes on the command line, and the expansion of benchmarks into configurations.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <kerntime/benchmark.hpp>

namespace kerntime::bench {

/// One --axis NAME=VALUES option, split but not yet typed.
struct AxisOverride {
  std::string name;
  std::string values;
};

/// Splits "NAME=VALUES"; throws kerntime::Error when there is no '=' or a side is empty.
AxisOverride parse_axis_option(std::string_view text);

/// Types the comma-separated VALUES for an axis of `kind`. Integers: 4096, 2^12, or a range
/// a:b[:step] (inclusive). Powers of two: 4096, 2^12, or 2^a:2^b (each power in between).
/// Floats: 0.5, 1e-3. Strings: taken as written. Throws kerntime::Error naming the axis and
/// the value it could not read.
std::vector<AxisValue> parse_axis_values(const Axis& axis, std::string_view values);

/// Every combination of `benchmark`'s axis values (the last axis varies fastest), after
/// replacing the values of each overridden axis it has.
std::vector<Configuration> expand(const Benchmark& benchmark,
                                  const std::vector<AxisOverride>& overrides);

/// The configurations of `registry` whose name matches `filter` (an ECMAScript regular
/// expression searched in the name; empty: all). Throws kerntime::Error for a malformed
/// expression, or an override naming an axis that none of the matching benchmarks has.
std::vector<Configuration> select_configurations(const BenchmarkRegistry& registry,
                                                 const std::string& filter,
                                                 const std::vector<AxisOverride>& overrides);

}  // namespace kerntime::bench
