// SPDX-License-Identifier: Apache-2.0
#include "report/entry_fields_json_parse.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "io/json_text.hpp"

namespace kerntime::report {

void read_sample_columns(const JsonReader& reader, const Json& columns, const std::string& path,
                         Entry& e) {
  reader.array(columns, path);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const std::string column_path = index_path(path, c);
    const Json& value = columns[c];
    reader.object(value, column_path);
    SampleColumn column;
    const Json* name = member(value, "name");
    if (name == nullptr) reader.fail(column_path + ".name", "missing; every column has a name");
    column.name = reader.string(*name, column_path + ".name");
    if (column.name.empty()) {
      reader.fail(column_path + ".name", "empty; every column needs a name");
    }
    const Json* values = member(value, "values");
    if (values == nullptr) reader.fail(column_path + ".values", "missing; one number per sample");
    reader.array(*values, column_path + ".values");
    if (values->size() != e.samples.size()) {
      reader.fail(column_path + ".values", "holds " + std::to_string(values->size()) +
                                               " values for " + std::to_string(e.samples.size()) +
                                               " samples; a column has one value per sample");
    }
    for (std::size_t i = 0; i < values->size(); ++i) {
      const Json& v = (*values)[i];
      if (!v.is_number() || !std::isfinite(v.get<double>())) {
        reader.fail(index_path(column_path + ".values", i),
                    "expected a finite number, got " + describe(v));
      }
      column.values.push_back(v.get<double>());
    }
    for (const SampleColumn& other : e.sample_columns) {
      if (other.name == column.name) {
        reader.fail(column_path + ".name", "the column " + io::json_string(column.name) + " again");
      }
    }
    e.sample_columns.push_back(std::move(column));
  }
}

SummaryOnly read_summary_only(const JsonReader& reader, const Json& value,
                              const std::string& path) {
  reader.object(value, path);
  SummaryOnly summary;
  const Json* count = member(value, "count");
  if (count == nullptr) reader.fail(path + ".count", "missing; the tool's sample count");
  summary.count = reader.uint64_value(*count, path + ".count");
  const Json* mean = member(value, "mean");
  if (mean == nullptr) reader.fail(path + ".mean", "missing; the mean of the tool's samples");
  summary.mean = reader.duration(*mean, path + ".mean");
  if (const Json* noise = member(value, "relative_stdev")) {
    summary.relative_stdev = reader.duration(*noise, path + ".relative_stdev");
  }
  return summary;
}

void read_run_sizes(const JsonReader& reader, const Json& runs, const std::string& path, Entry& e) {
  if (!runs.is_array()) {
    reader.fail(path, "expected an array of sample counts, one per run, got " + describe(runs));
  }
  std::size_t total = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string run_path = index_path(path, i);
    const std::size_t size = reader.byte_count(runs[i], run_path);
    if (size == 0) reader.fail(run_path, "a run with no samples; every run needs at least one");
    total += size;
    e.run_sizes.push_back(size);
  }
  if (runs.empty()) reader.fail(path, "empty; leave \"runs\" out for one run");
  if (total != e.samples.size()) {
    reader.fail(path, "the runs hold " + std::to_string(total) + " samples, but \"samples\" has " +
                          std::to_string(e.samples.size()));
  }
  if (e.run_sizes.size() == 1) e.run_sizes.clear();  // one run, as without "runs"
}

}  // namespace kerntime::report
