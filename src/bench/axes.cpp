// SPDX-License-Identifier: Apache-2.0
#include "bench/axes.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <set>

#include <kerntime/error.hpp>

namespace kerntime::bench {
namespace {

constexpr std::int64_t kMaxRangeValues = 100000;

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find(separator, begin);
    parts.emplace_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

[[noreturn]] void bad_value(const Axis& axis, const std::string& value, const char* expected) {
  throw Error("--axis " + axis.name + ": cannot read '" + value + "' as " + expected + " (axis '" +
              axis.name + "' is of kind " + std::string{to_string(axis.kind)} + ")");
}

// A plain integer or 2^k.
bool read_integer(const std::string& text, std::int64_t& out) {
  if (text.empty()) return false;
  if (text.size() > 2 && text[0] == '2' && text[1] == '^') {
    std::int64_t exponent = 0;
    if (!read_integer(text.substr(2), exponent) || exponent < 0 || exponent > 62) return false;
    out = std::int64_t{1} << exponent;
    return true;
  }
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size()) return false;
  out = value;
  return true;
}

bool is_power_of_two(std::int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

void add_integers(const Axis& axis, const std::string& item, std::vector<AxisValue>& out) {
  const std::vector<std::string> range = split(item, ':');
  if (range.size() > 3) bad_value(axis, item, "a value or a range a:b[:step]");
  std::int64_t first = 0;
  if (!read_integer(range[0], first)) bad_value(axis, item, "an integer");
  if (range.size() == 1) {
    if (axis.kind == AxisKind::power_of_two && !is_power_of_two(first)) {
      bad_value(axis, item, "a power of two");
    }
    out.emplace_back(first);
    return;
  }
  std::int64_t last = 0;
  std::int64_t step = 1;
  if (!read_integer(range[1], last) || (range.size() == 3 && !read_integer(range[2], step)) ||
      step <= 0 || last < first) {
    bad_value(axis, item, "a range a:b[:step] with a <= b and step > 0");
  }
  if (axis.kind == AxisKind::power_of_two) {
    if (range.size() == 3 || !is_power_of_two(first) || !is_power_of_two(last)) {
      bad_value(axis, item, "a range of powers of two 2^a:2^b");
    }
    for (std::int64_t v = first; v <= last && v > 0; v *= 2)
      out.emplace_back(v);
    return;
  }
  if ((last - first) / step >= kMaxRangeValues)
    bad_value(axis, item, "a range of at most 100000 values");
  for (std::int64_t v = first; v <= last; v += step)
    out.emplace_back(v);
}

}  // namespace

AxisOverride parse_axis_option(std::string_view text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0 || equals + 1 == text.size()) {
    throw Error("--axis expects NAME=VALUES, e.g. n=1024,2^20 (got '" + std::string{text} + "')");
  }
  return {std::string{text.substr(0, equals)}, std::string{text.substr(equals + 1)}};
}

std::vector<AxisValue> parse_axis_values(const Axis& axis, std::string_view values) {
  std::vector<AxisValue> out;
  for (const std::string& item : split(values, ',')) {
    if (item.empty()) bad_value(axis, item, "a value (empty item in the list)");
    switch (axis.kind) {
      case AxisKind::integer:
      case AxisKind::power_of_two:
        add_integers(axis, item, out);
        break;
      case AxisKind::floating: {
        char* end = nullptr;
        errno = 0;
        const double value = std::strtod(item.c_str(), &end);
        if (errno != 0 || end != item.c_str() + item.size() || !std::isfinite(value)) {
          bad_value(axis, item, "a finite number");
        }
        out.emplace_back(value);
        break;
      }
      case AxisKind::string:
        out.emplace_back(item);
        break;
    }
  }
  return out;
}

std::vector<Configuration> expand(const Benchmark& benchmark,
                                  const std::vector<AxisOverride>& overrides) {
  std::vector<std::vector<AxisValue>> values;
  for (const Axis& axis : benchmark.axes()) {
    values.push_back(axis.values);
    for (const AxisOverride& o : overrides) {
      if (o.name == axis.name) values.back() = parse_axis_values(axis, o.values);
    }
  }
  std::vector<Configuration> out;
  std::vector<std::size_t> index(values.size(), 0);
  for (;;) {
    Configuration c;
    c.benchmark = &benchmark;
    for (std::size_t a = 0; a < values.size(); ++a)
      c.values.push_back(values[a][index[a]]);
    out.push_back(std::move(c));
    // An odometer over the axes, the last turning fastest.
    std::size_t a = values.size();
    while (a > 0) {
      --a;
      if (++index[a] < values[a].size()) break;
      index[a] = 0;
      if (a == 0) return out;
    }
    if (values.empty()) return out;
  }
}

std::vector<Configuration> select_configurations(const BenchmarkRegistry& registry,
                                                 const std::string& filter,
                                                 const std::vector<AxisOverride>& overrides) {
  std::regex pattern;
  try {
    pattern = std::regex(filter.empty() ? std::string{"."} : filter, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw Error("--filter '" + filter + "' is not a valid regular expression: " + e.what());
  }
  std::vector<Configuration> out;
  std::set<std::string> used;
  for (const auto& benchmark : registry.benchmarks()) {
    bool any = false;
    for (Configuration& c : expand(*benchmark, overrides)) {
      if (!filter.empty() && !std::regex_search(c.name(), pattern)) continue;
      out.push_back(std::move(c));
      any = true;
    }
    if (!any) continue;
    for (const Axis& axis : benchmark->axes())
      used.insert(axis.name);
  }
  for (const AxisOverride& o : overrides) {
    if (used.count(o.name) == 0) {
      std::string known;
      for (const std::string& name : used)
        known += known.empty() ? name : ", " + name;
      throw Error("--axis " + o.name + ": none of the selected benchmarks has an axis '" + o.name +
                  "' (their axes: " + (known.empty() ? "none" : known) + ")");
    }
  }
  return out;
}

}  // namespace kerntime::bench
