// SPDX-License-Identifier: Apache-2.0
#include "format/trace/summary_cells.hpp"

#include <fmt/format.h>

#include <kerntime/duration.hpp>

#include "text/numbers.hpp"

namespace kerntime::format {

std::string duration_cell(double ns, bool raw) {
  return raw ? text::format_exact(ns) : format_duration(ns);
}

std::string percent_cell(double percent, bool raw) {
  return raw ? text::format_exact(percent) : text::format_fixed(percent, 1);
}

void append_duration_cells(std::vector<std::string>& row, const ValueSummary& s, bool raw) {
  const std::string none = raw ? "" : "-";
  if (s.count == 0) {
    row.insert(row.end(), 5, none);
    return;
  }
  row.push_back(duration_cell(s.average, raw));
  row.push_back(duration_cell(s.median, raw));
  row.push_back(duration_cell(static_cast<double>(s.min), raw));
  row.push_back(duration_cell(static_cast<double>(s.max), raw));
  row.push_back(s.stddev ? duration_cell(*s.stddev, raw) : none);
}

nlohmann::ordered_json value_summary_json(const ValueSummary& s, const std::string& unit,
                                          bool with_total) {
  nlohmann::ordered_json json;
  json["count"] = s.count;
  if (with_total) json["total_" + unit] = s.total;
  if (s.count == 0) return json;
  json["average_" + unit] = s.average;
  json["median_" + unit] = s.median;
  json["min_" + unit] = s.min;
  json["max_" + unit] = s.max;
  if (s.stddev) json["stddev_" + unit] = *s.stddev;
  return json;
}

}  // namespace kerntime::format
