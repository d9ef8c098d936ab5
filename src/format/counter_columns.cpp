// SPDX-License-Identifier: Apache-2.0
#include "format/counter_columns.hpp"

#include <algorithm>

#include "text/numbers.hpp"

namespace kerntime::format {

void CounterColumns::add(const Work& work, const std::vector<Counter>& counters) {
  items = items || work.elements > 0.0;
  for (const Counter& c : counters) {
    if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
  }
}

std::optional<double> shown_counter(const std::vector<Counter>& counters, const std::string& name,
                                    const Statistics& headline) {
  for (const Counter& c : counters) {
    if (c.name == name) {
      return headline.count > 0 ? counter_result(c, headline.median) : std::nullopt;
    }
  }
  return std::nullopt;
}

std::string si_or_dash(const std::optional<double>& value) {
  return value ? text::format_si(*value) : std::string{"-"};
}

}  // namespace kerntime::format
