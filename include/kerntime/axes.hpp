// SPDX-License-Identifier: Apache-2.0
// Parameter axes of registered benchmarks (benchmark.hpp): each axis is a name and its values,
// and every combination of axis values is one configuration, named "sort/T=float/n=1048576".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <kerntime/export.hpp>

namespace kerntime {

/// The kinds of parameter axes. A power-of-two axis holds integers that are powers of two and
/// is declared by exponents. A type axis holds the names of the C++ types a templated
/// benchmark is instantiated for (type_axes.hpp); its values are fixed when it is compiled, so
/// the command line can only choose among them.
enum class AxisKind { integer, power_of_two, floating, string, type };

/// "int", "pow2", "float", "string", "type".
KERNTIME_API std::string_view to_string(AxisKind kind);

/// An integer (int and pow2 axes), a number (float axes) or a name (string and type axes).
using AxisValue = std::variant<std::int64_t, double, std::string>;

struct Axis {
  std::string name;
  AxisKind kind = AxisKind::integer;
  std::vector<AxisValue> values;
};

/// One axis value as it appears in names and tables: 1048576, 0.5, tiled, float.
KERNTIME_API std::string format_axis_value(const AxisValue& value);

}  // namespace kerntime
