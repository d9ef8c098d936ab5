// SPDX-License-Identifier: Apache-2.0
#include "bench/axes.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <set>

#include <fmt/core.h>

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

std::string trim(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])) != 0)
    ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])) != 0)
    --end;
  return std::string{text.substr(begin, end - begin)};
}

std::string spelled(const Axis& axis, const AxisOverride& o) {
  return o.exponents ? axis.name + "[pow2]" : axis.name;
}

[[noreturn]] void bad_value(const Axis& axis, const AxisOverride& o, const std::string& value,
                            const std::string& expected) {
  throw Error("--axis " + spelled(axis, o) + ": cannot read '" + value + "' as " + expected +
              " (axis '" + axis.name + "' is of kind " + std::string{to_string(axis.kind)} + ")");
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

bool read_number(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(text.c_str(), &end);
  return errno == 0 && end == text.c_str() + text.size() && std::isfinite(out);
}

bool is_power_of_two(std::int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

// a, a:b or a:b:step of integers, inclusive; step > 0.
struct IntegerRange {
  std::int64_t first = 0;
  std::int64_t last = 0;
  std::int64_t step = 1;
  bool single = true;
};

IntegerRange read_integer_range(const Axis& axis, const AxisOverride& o, const std::string& item,
                                const char* what) {
  const std::vector<std::string> parts = split(item, ':');
  IntegerRange r;
  if (parts.size() > 3) bad_value(axis, o, item, std::string{what} + " or a range a:b[:step]");
  if (!read_integer(trim(parts[0]), r.first)) bad_value(axis, o, item, what);
  r.last = r.first;
  if (parts.size() == 1) return r;
  r.single = false;
  if (!read_integer(trim(parts[1]), r.last) ||
      (parts.size() == 3 && !read_integer(trim(parts[2]), r.step)) || r.step <= 0 ||
      r.last < r.first) {
    bad_value(axis, o, item, "a range a:b[:step] with a <= b and step > 0");
  }
  if ((r.last - r.first) / r.step >= kMaxRangeValues) {
    bad_value(axis, o, item, "a range of at most 100000 values");
  }
  return r;
}

void add_exponents(const Axis& axis, const AxisOverride& o, const std::string& item,
                   std::vector<AxisValue>& out) {
  const IntegerRange r = read_integer_range(axis, o, item, "an exponent");
  if (r.first < 0 || r.last > 62) bad_value(axis, o, item, "exponents in [0, 62]");
  for (std::int64_t e = r.first; e <= r.last; e += r.step)
    out.emplace_back(std::int64_t{1} << e);
}

void add_integers(const Axis& axis, const AxisOverride& o, const std::string& item,
                  std::vector<AxisValue>& out) {
  const bool pow2 = axis.kind == AxisKind::power_of_two;
  const char* hint = pow2 ? " (for exponents write " : "";
  const std::string exponents = pow2 ? axis.name + "[pow2]=[a:b])" : "";
  const IntegerRange r = read_integer_range(axis, o, item, "an integer");
  if (r.single) {
    if (pow2 && !is_power_of_two(r.first)) {
      bad_value(axis, o, item, std::string{"a power of two"} + hint + exponents);
    }
    out.emplace_back(r.first);
    return;
  }
  if (pow2) {
    if (r.step != 1 || split(item, ':').size() == 3 || !is_power_of_two(r.first) ||
        !is_power_of_two(r.last)) {
      bad_value(axis, o, item, std::string{"a range of powers of two 2^a:2^b"} + hint + exponents);
    }
    for (std::int64_t v = r.first; v <= r.last && v > 0; v *= 2)
      out.emplace_back(v);
    return;
  }
  for (std::int64_t v = r.first; v <= r.last; v += r.step)
    out.emplace_back(v);
}

void add_floats(const Axis& axis, const AxisOverride& o, const std::string& item,
                std::vector<AxisValue>& out) {
  const std::vector<std::string> parts = split(item, ':');
  double first = 0.0;
  if (parts.size() > 3 || !read_number(trim(parts[0]), first)) {
    bad_value(axis, o, item, "a finite number or a range a:b[:step]");
  }
  if (parts.size() == 1) {
    out.emplace_back(first);
    return;
  }
  double last = 0.0;
  double step = 1.0;
  if (!read_number(trim(parts[1]), last) ||
      (parts.size() == 3 && !read_number(trim(parts[2]), step)) || step <= 0.0 || last < first) {
    bad_value(axis, o, item, "a range a:b[:step] with a <= b and step > 0");
  }
  // Counted, not accumulated, and with a little slack: 0.5:1:0.1 ends at 1.0 although 5 x 0.1
  // is not exactly 0.5 in binary.
  const double count = std::floor((last - first) / step + 1e-9);
  if (count >= static_cast<double>(kMaxRangeValues)) {
    bad_value(axis, o, item, "a range of at most 100000 values");
  }
  for (double i = 0; i <= count; ++i) {
    // Twelve significant digits: 0.5 + 3 x 0.1 is 0.8 in names, not 0.8000000000000002.
    out.emplace_back(std::stod(fmt::format("{:.12g}", first + i * step)));
  }
}

// NVBench's input strings for its built-in types, as other names of kerntime's.
std::string type_alias(const std::string& name) {
  static const std::pair<const char*, const char*> kAliases[] = {
      {"I8", "int8"},   {"I16", "int16"},  {"I32", "int32"},  {"I64", "int64"},
      {"U8", "uint8"},  {"U16", "uint16"}, {"U32", "uint32"}, {"U64", "uint64"},
      {"F32", "float"}, {"F64", "double"}, {"F16", "half"},   {"BF16", "bfloat16"}};
  for (const auto& [alias, canonical] : kAliases) {
    if (name == alias) return canonical;
  }
  return name;
}

void add_type(const Axis& axis, const AxisOverride& o, const std::string& item,
              std::vector<AxisValue>& out) {
  for (const std::string& candidate : {item, type_alias(item)}) {
    const AxisValue value{candidate};
    if (std::find(axis.values.begin(), axis.values.end(), value) != axis.values.end()) {
      out.push_back(value);
      return;
    }
  }
  std::string known;
  for (const AxisValue& v : axis.values)
    known += (known.empty() ? "" : ", ") + format_axis_value(v);
  bad_value(axis, o, item, "one of the types the benchmark was compiled for: " + known);
}

}  // namespace

AxisOverride parse_axis_option(std::string_view text) {
  const std::size_t equals = text.find('=');
  const std::string name_part = trim(text.substr(0, equals));
  std::string values = equals == std::string_view::npos ? "" : trim(text.substr(equals + 1));
  if (equals == std::string_view::npos || name_part.empty() || values.empty()) {
    throw Error("--axis expects NAME=VALUES, e.g. n=1024,2^20, n=[1,2] or n[pow2]=[20:24] (got '" +
                std::string{text} + "')");
  }
  AxisOverride o;
  o.name = name_part;
  const std::size_t open = name_part.find('[');
  if (open != std::string::npos) {
    if (name_part.back() != ']' || open == 0) {
      throw Error("--axis " + name_part + ": expected NAME[pow2]=VALUES");
    }
    o.name = trim(name_part.substr(0, open));
    const std::string flag = trim(name_part.substr(open + 1, name_part.size() - open - 2));
    if (flag != "pow2") {
      throw Error("--axis " + name_part + ": unknown flag '" + flag +
                  "' (the one flag is pow2: NAME[pow2]=EXPONENTS)");
    }
    o.exponents = true;
  }
  if (values.front() == '[') {
    if (values.back() != ']' || values.size() < 3) {
      throw Error("--axis " + name_part + ": '" + values + "' opens a list with '[' but does not " +
                  "close it with ']'");
    }
    values = trim(values.substr(1, values.size() - 2));
  }
  o.values = values;
  return o;
}

std::vector<AxisValue> parse_axis_values(const Axis& axis, const AxisOverride& o) {
  const bool integers = axis.kind == AxisKind::integer || axis.kind == AxisKind::power_of_two;
  if (o.exponents && !integers) {
    throw Error("--axis " + spelled(axis, o) +
                ": [pow2] takes exponents for an int or pow2 axis; '" + axis.name +
                "' is of kind " + std::string{to_string(axis.kind)});
  }
  std::vector<AxisValue> out;
  for (const std::string& raw : split(o.values, ',')) {
    const std::string item = trim(raw);
    if (item.empty()) bad_value(axis, o, item, "a value (empty item in the list)");
    switch (axis.kind) {
      case AxisKind::integer:
      case AxisKind::power_of_two:
        if (o.exponents) {
          add_exponents(axis, o, item, out);
        } else {
          add_integers(axis, o, item, out);
        }
        break;
      case AxisKind::floating:
        add_floats(axis, o, item, out);
        break;
      case AxisKind::string:
        out.emplace_back(item);
        break;
      case AxisKind::type:
        add_type(axis, o, item, out);
        break;
    }
  }
  return out;
}

std::vector<AxisValue> parse_axis_values(const Axis& axis, std::string_view values) {
  return parse_axis_values(axis, AxisOverride{axis.name, std::string{values}, false});
}

std::vector<Configuration> expand(const Benchmark& benchmark,
                                  const std::vector<AxisOverride>& overrides) {
  std::vector<std::vector<AxisValue>> values;
  for (const Axis& axis : benchmark.axes()) {
    values.push_back(axis.values);
    for (const AxisOverride& o : overrides) {
      if (o.name == axis.name) values.back() = parse_axis_values(axis, o);
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

namespace {

std::string axis_names(const Benchmark& benchmark) {
  std::string names;
  for (const Axis& axis : benchmark.axes())
    names += (names.empty() ? "" : ", ") + axis.name;
  return names.empty() ? "none" : names;
}

bool has_axis(const Benchmark& benchmark, const std::string& name) {
  return std::any_of(benchmark.axes().begin(), benchmark.axes().end(),
                     [&name](const Axis& a) { return a.name == name; });
}

const Benchmark& chosen_benchmark(const BenchmarkRegistry& registry, const std::string& which) {
  const auto& all = registry.benchmarks();
  for (const auto& b : all) {
    if (b->name() == which) return *b;
  }
  const bool digits = !which.empty() && std::all_of(which.begin(), which.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  if (digits && which.size() < 10 && std::stoul(which) < all.size()) return *all[std::stoul(which)];
  std::string names;
  for (std::size_t i = 0; i < all.size(); ++i)
    names += fmt::format("{}{} {}", i == 0 ? "" : ", ", i, all[i]->name());
  throw Error("--benchmark " + which + ": no benchmark has that name or index (--list shows " +
              (names.empty() ? std::string{"none"} : names) + ")");
}

}  // namespace

std::vector<Configuration> select_configurations(const BenchmarkRegistry& registry,
                                                 const Selection& selection) {
  std::regex pattern;
  try {
    pattern = std::regex(selection.filter.empty() ? std::string{"."} : selection.filter,
                         std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw Error("--filter '" + selection.filter +
                "' is not a valid regular expression: " + e.what());
  }
  auto matches = [&](const Configuration& c) {
    if (selection.filter.empty()) return true;
    const std::string name = c.name();
    if (std::regex_search(name, pattern)) return true;
    return std::any_of(
        selection.name_suffixes.begin(), selection.name_suffixes.end(),
        [&](const std::string& suffix) { return std::regex_search(name + suffix, pattern); });
  };

  std::vector<Configuration> out;
  std::set<std::string> names;
  std::set<std::string> used;  // axes of the benchmarks that the global overrides reach
  auto take = [&](const Benchmark& benchmark, const std::vector<AxisOverride>& overrides) {
    bool any = false;
    for (Configuration& c : expand(benchmark, overrides)) {
      if (!matches(c)) continue;
      any = true;
      if (names.insert(c.name()).second) out.push_back(std::move(c));
    }
    if (!any) return;
    for (const Axis& axis : benchmark.axes())
      used.insert(axis.name);
  };
  if (selection.benchmarks.empty()) {
    for (const auto& benchmark : registry.benchmarks())
      take(*benchmark, selection.axes);
  } else {
    for (const BenchmarkChoice& choice : selection.benchmarks) {
      const Benchmark& benchmark = chosen_benchmark(registry, choice.which);
      for (const AxisOverride& o : choice.axes) {
        if (!has_axis(benchmark, o.name)) {
          throw Error("--axis " + o.name + " (after --benchmark " + choice.which +
                      "): benchmark '" + benchmark.name() + "' has no axis '" + o.name +
                      "' (its axes: " + axis_names(benchmark) + ")");
        }
      }
      std::vector<AxisOverride> overrides = selection.axes;
      overrides.insert(overrides.end(), choice.axes.begin(), choice.axes.end());
      take(benchmark, overrides);
    }
  }
  for (const AxisOverride& o : selection.axes) {
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

std::vector<Configuration> select_configurations(const BenchmarkRegistry& registry,
                                                 const std::string& filter,
                                                 const std::vector<AxisOverride>& overrides) {
  Selection selection;
  selection.filter = filter;
  selection.axes = overrides;
  return select_configurations(registry, selection);
}

}  // namespace kerntime::bench
