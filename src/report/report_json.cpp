// SPDX-License-Identifier: Apache-2.0
// Writes kerntime-report/1 (docs/report-format.md). The writer refuses what the reader would
// reject, so kerntime never produces a file it cannot read back.
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include <kerntime/environment.hpp>
#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>

#include "io/json_text.hpp"
#include "report/cuda_version.hpp"
#include "report/measurement_info_json.hpp"
#include "report/trace_section_json.hpp"

namespace kerntime {
namespace {

// ordered_json keeps the keys in the documented order, which makes files diffable by eye.
using Json = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw Error("cannot write report: " + path + ": " + why);
}

// nlohmann writes NaN and infinity as null; the format promises finite numbers only.
double finite(double value, const std::string& path) {
  if (!std::isfinite(value)) fail(path, "expected a finite number, got " + std::to_string(value));
  return value;
}

Json device_json(const DeviceInfo& device) {
  return Json{{"index", device.index},
              {"name", device.name},
              {"compute_capability_major", device.compute_capability_major},
              {"compute_capability_minor", device.compute_capability_minor},
              {"multiprocessor_count", device.multiprocessor_count},
              {"total_memory_bytes", device.total_memory_bytes},
              {"l2_cache_bytes", device.l2_cache_bytes},
              {"sm_clock_khz", device.sm_clock_khz},
              {"memory_clock_khz", device.memory_clock_khz},
              {"memory_bus_width_bits", device.memory_bus_width_bits},
              {"ecc_enabled", device.ecc_enabled},
              {"pci_bus_id", device.pci_bus_id}};
}

// The text ("13.0") is for people and is written only when it reads back as the raw value: a
// raw value no CUDA version reaches (2147483647 from a hand-edited report) would become
// "2147483.64", which parse_cuda_version() rightly refuses, so kerntime could not read its own
// report. The raw value alone reads back exactly.
void put_cuda_version(Json& json, const std::string& key, int version) {
  const std::string text = cuda_version_string(version);
  const std::optional<int> parsed = report::parse_cuda_version(text);
  if (parsed && *parsed == version - version % 10) json[key] = text;
  json[key + "_raw"] = version;
}

// Unknown values (empty strings, version 0) are left out rather than written as placeholders.
Json environment_json(const Environment& env) {
  Json json = Json::object();
  if (!env.host_name.empty()) json["host"] = env.host_name;
  if (env.driver_version != 0) put_cuda_version(json, "driver_version", env.driver_version);
  if (env.runtime_version != 0) put_cuda_version(json, "runtime_version", env.runtime_version);
  json["devices"] = Json::array();
  for (const DeviceInfo& device : env.devices) {
    json["devices"].push_back(device_json(device));
  }
  return json;
}

Json statistics_json(const Statistics& s, const std::string& path) {
  Json json = Json::object();
  json["count"] = s.count;
  if (s.count == 0) return json;
  const std::pair<const char*, double> fields[] = {
      {"min", s.min}, {"max", s.max}, {"mean", s.mean}, {"median", s.median}, {"q1", s.q1},
      {"q3", s.q3},   {"p95", s.p95}, {"p99", s.p99},   {"mad", s.mad}};
  for (const auto& [key, value] : fields) {
    json[key] = finite(value, path + "." + key);
  }
  if (s.stddev) json["stddev"] = finite(*s.stddev, path + ".stddev");
  if (s.relative_noise) {
    json["relative_noise"] = finite(*s.relative_noise, path + ".relative_noise");
  }
  if (s.median_ci) {
    const std::string ci = path + ".median_ci";
    Json interval{{"low", finite(s.median_ci->low, ci + ".low")},
                  {"high", finite(s.median_ci->high, ci + ".high")},
                  {"level", finite(s.median_ci_level, ci + ".level")}};
    if (!s.median_ci_method.empty()) interval["method"] = s.median_ci_method;
    json["median_ci"] = std::move(interval);
  }
  return json;
}

Json entry_json(const Entry& entry, const std::string& path) {
  if (entry.name.empty()) fail(path + ".name", "empty; every entry needs a name");
  if (entry.unit != "ns") {
    fail(path + ".unit",
         "unsupported unit " + io::json_string(entry.unit) + "; kerntime reports use \"ns\"");
  }
  Json json{{"name", entry.name}, {"unit", entry.unit}};
  if (!entry.timer.empty()) json["timer"] = entry.timer;
  if (entry.device) json["device"] = *entry.device;
  Json samples = Json::array();
  for (std::size_t i = 0; i < entry.samples.size(); ++i) {
    const std::string sample_path = path + ".samples[" + std::to_string(i) + "]";
    const double sample = finite(entry.samples[i], sample_path);
    if (sample < 0.0) {
      fail(sample_path, "a duration cannot be negative, got " + Json(sample).dump());
    }
    samples.push_back(sample);
  }
  json["samples"] = std::move(samples);
  // Written only for several runs, so a report of one process is the same file as before.
  if (entry.run_sizes.size() > 1) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < entry.run_sizes.size(); ++i) {
      if (entry.run_sizes[i] == 0) {
        fail(path + ".runs[" + std::to_string(i) + "]", "a run with no samples");
      }
      total += entry.run_sizes[i];
    }
    if (total != entry.samples.size()) {
      fail(path + ".runs", "the runs hold " + std::to_string(total) + " samples, but there are " +
                               std::to_string(entry.samples.size()));
    }
    json["runs"] = entry.run_sizes;
  } else if (entry.run_sizes.size() == 1 && entry.run_sizes[0] != entry.samples.size()) {
    fail(path + ".runs", "one run of " + std::to_string(entry.run_sizes[0]) +
                             " samples, but there are " + std::to_string(entry.samples.size()));
  }
  json["statistics"] = statistics_json(entry.statistics, path + ".statistics");
  if (entry.summary_only) {
    const SummaryOnly& summary = *entry.summary_only;
    Json written{{"count", summary.count}};
    const double mean = finite(summary.mean, path + ".summary_only.mean");
    if (mean < 0.0) fail(path + ".summary_only.mean", "a duration cannot be negative");
    written["mean"] = mean;
    if (summary.relative_stdev) {
      const double noise = finite(*summary.relative_stdev, path + ".summary_only.relative_stdev");
      if (noise < 0.0) fail(path + ".summary_only.relative_stdev", "cannot be negative");
      written["relative_stdev"] = noise;
    }
    json["summary_only"] = std::move(written);
  }
  if (!entry.sample_columns.empty()) {
    Json columns = Json::array();
    for (std::size_t c = 0; c < entry.sample_columns.size(); ++c) {
      const SampleColumn& column = entry.sample_columns[c];
      const std::string column_path = path + ".columns[" + std::to_string(c) + "]";
      if (column.name.empty()) fail(column_path + ".name", "empty; every column needs a name");
      if (column.values.size() != entry.samples.size()) {
        fail(column_path + ".values", "holds " + std::to_string(column.values.size()) +
                                          " values for " + std::to_string(entry.samples.size()) +
                                          " samples; a column has one value per sample");
      }
      Json values = Json::array();
      for (std::size_t i = 0; i < column.values.size(); ++i) {
        values.push_back(
            finite(column.values[i], column_path + ".values[" + std::to_string(i) + "]"));
      }
      columns.push_back(Json{{"name", column.name}, {"values", std::move(values)}});
    }
    json["columns"] = std::move(columns);
  }
  // Only entries of the benchmark engine have it; without it the entry is as before.
  if (entry.measurement) {
    json["measurement"] = report::measurement_info_json(*entry.measurement, path + ".measurement");
  }
  return json;
}

}  // namespace

// The document is written piece by piece, each entry as its own small JSON value, in exactly the
// layout one pretty-printed ordered_json of the whole report would have: a report of a million
// entries never exists as one JSON tree, which would cost tens of times its text.
std::string to_json(const Report& report) {
  Json head;
  // Always the schema this code writes, whatever the model says: the layout below is /1.
  head["schema"] = kReportSchema;
  head["tool"] = Json{{"name", "kerntime"}};
  if (!report.environment.tool_version.empty()) {
    head["tool"]["version"] = report.environment.tool_version;
  }
  if (!report.environment.created_utc.empty()) head["created"] = report.environment.created_utc;
  head["environment"] = environment_json(report.environment);
  head["warnings"] = report.warnings;

  // Text that is not UTF-8 (a kernel name with stray bytes) is written with U+FFFD in its
  // place: the file stays valid JSON and the report is not lost over one name.
  std::string out = io::dump_json(head, 2);
  out.resize(out.size() - 2);  // "\n}": the entries and the trace follow
  out += ",\n  \"entries\": [";
  std::unordered_map<std::string, std::size_t> first_index;
  for (std::size_t i = 0; i < report.entries.size(); ++i) {
    const Entry& entry = report.entries[i];
    const std::string path = "entries[" + std::to_string(i) + "]";
    // Keyed by the name as written: two names that differ only in bytes that are not UTF-8
    // would both become the same name with U+FFFD, which the reader rejects.
    const auto [it, inserted] = first_index.emplace(io::valid_utf8(entry.name), i);
    if (!inserted) {
      fail(path + ".name", "duplicate name " + io::json_string(entry.name) + " (also entries[" +
                               std::to_string(it->second) + "])");
    }
    out += i == 0 ? "\n    " : ",\n    ";
    out += io::nested_json(io::dump_json(entry_json(entry, path), 2), 2);
  }
  out += report.entries.empty() ? "]" : "\n  ]";
  // Only reports made with a Tracer have one; without it the file is as before.
  if (report.trace) {
    out += ",\n  \"trace\": ";
    out += report::trace_section_text(*report.trace, 1);
  }
  out += "\n}\n";
  return out;
}

}  // namespace kerntime
