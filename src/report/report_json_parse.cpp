// SPDX-License-Identifier: Apache-2.0
// Reads kerntime-report/1 (docs/report-format.md). Lenient about what is absent or unknown,
// strict about what is present: every rejection names the source, the JSON path and why.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/version.hpp>

#include "report/cuda_version.hpp"
#include "report/json_overflow.hpp"
#include "report/json_reader.hpp"
#include "report/trace_section_json.hpp"

namespace kerntime {
namespace {

using report_detail::describe;
using report_detail::index_path;
using report_detail::Json;
using report_detail::json_quoted;
using report_detail::member;

class Reader : public report_detail::JsonReader {
 public:
  Reader(const std::string& source, const StatisticsOptions& statistics)
      : JsonReader(source), statistics_(statistics) {}

  Report report(const Json& root) const {
    object(root, "top level");
    Report report;
    check_schema(root);
    if (const Json* tool = member(root, "tool")) {
      object(*tool, "tool");
      if (const Json* version = member(*tool, "version")) {
        report.environment.tool_version = string(*version, "tool.version");
      }
    }
    if (const Json* created = member(root, "created")) {
      report.environment.created_utc = string(*created, "created");
    }
    if (const Json* env = member(root, "environment")) environment(*env, report.environment);
    if (const Json* warnings = member(root, "warnings")) {
      array(*warnings, "warnings");
      for (std::size_t i = 0; i < warnings->size(); ++i) {
        report.warnings.push_back(string((*warnings)[i], index_path("warnings", i)));
      }
    }
    const Json* entries = member(root, "entries");
    if (entries == nullptr) fail("entries", "missing; a report lists its regions in \"entries\"");
    array(*entries, "entries");
    std::unordered_map<std::string, std::size_t> first_index;
    for (std::size_t i = 0; i < entries->size(); ++i) {
      const std::string path = index_path("entries", i);
      Entry parsed = entry((*entries)[i], path);
      const auto [it, inserted] = first_index.emplace(parsed.name, i);
      if (!inserted) {
        fail(path + ".name", "duplicate name " + json_quoted(parsed.name) + " (also " +
                                 index_path("entries", it->second) + ")");
      }
      report.entries.push_back(std::move(parsed));
    }
    if (const Json* trace = member(root, "trace")) {
      report.trace = report_detail::parse_trace_section(*this, *trace, "trace");
    }
    return report;
  }

 private:
  void check_schema(const Json& root) const {
    const std::string expected = kReportSchema;
    const Json* schema = member(root, "schema");
    if (schema == nullptr) fail("schema", "missing; expected " + json_quoted(expected));
    const std::string value = string(*schema, "schema");
    if (value == expected) return;
    const std::string family = "kerntime-report/";
    if (value.compare(0, family.size(), family) == 0) {
      fail("schema", "unsupported version " + json_quoted(value) + "; this kerntime (" + kVersion +
                         ") reads " + json_quoted(expected) + " only");
    }
    fail("schema",
         json_quoted(value) + " is not a kerntime report; expected " + json_quoted(expected));
  }

  // "driver_version": "13.0" is for people, "driver_version_raw": 13000 for programs; either
  // may be given, and when both are they must agree.
  int cuda_version(const Json& env, const std::string& key) const {
    const std::string raw_key = key + "_raw";
    int version = 0;
    const Json* raw = member(env, raw_key.c_str());
    if (raw != nullptr) version = int_value(*raw, "environment." + raw_key, 0);
    if (const Json* text = member(env, key.c_str())) {
      const std::string path = "environment." + key;
      const std::string value = string(*text, path);
      const auto parsed = report_detail::parse_cuda_version(value);
      if (!parsed) fail(path, "expected a CUDA version like \"13.0\", got " + json_quoted(value));
      if (raw == nullptr) return *parsed;
      if (*parsed != version - version % 10) {
        fail(path,
             json_quoted(value) + " disagrees with " + raw_key + " " + std::to_string(version));
      }
    }
    return version;
  }

  void environment(const Json& env, Environment& out) const {
    object(env, "environment");
    if (const Json* host = member(env, "host")) out.host_name = string(*host, "environment.host");
    out.driver_version = cuda_version(env, "driver_version");
    out.runtime_version = cuda_version(env, "runtime_version");
    if (const Json* devices = member(env, "devices")) {
      array(*devices, "environment.devices");
      for (std::size_t i = 0; i < devices->size(); ++i) {
        out.devices.push_back(device((*devices)[i], index_path("environment.devices", i)));
      }
    }
  }

  DeviceInfo device(const Json& value, const std::string& path) const {
    object(value, path);
    DeviceInfo d;
    const auto text = [&](const char* key, std::string& field) {
      if (const Json* v = member(value, key)) field = string(*v, path + "." + key);
    };
    const auto number = [&](const char* key, int& field, int low) {
      if (const Json* v = member(value, key)) field = int_value(*v, path + "." + key, low);
    };
    const auto bytes = [&](const char* key, std::size_t& field) {
      if (const Json* v = member(value, key)) field = byte_count(*v, path + "." + key);
    };
    number("index", d.index, -1);
    text("name", d.name);
    number("compute_capability_major", d.compute_capability_major, 0);
    number("compute_capability_minor", d.compute_capability_minor, 0);
    number("multiprocessor_count", d.multiprocessor_count, 0);
    bytes("total_memory_bytes", d.total_memory_bytes);
    bytes("l2_cache_bytes", d.l2_cache_bytes);
    number("sm_clock_khz", d.sm_clock_khz, 0);
    number("memory_clock_khz", d.memory_clock_khz, 0);
    number("memory_bus_width_bits", d.memory_bus_width_bits, 0);
    if (const Json* v = member(value, "ecc_enabled")) {
      d.ecc_enabled = boolean(*v, path + ".ecc_enabled");
    }
    text("pci_bus_id", d.pci_bus_id);
    return d;
  }

  Entry entry(const Json& value, const std::string& path) const {
    object(value, path);
    Entry e;
    const Json* name = member(value, "name");
    if (name == nullptr) fail(path + ".name", "missing; every entry needs a name");
    e.name = string(*name, path + ".name");
    if (e.name.empty()) fail(path + ".name", "empty; every entry needs a name");
    if (const Json* unit = member(value, "unit")) {
      e.unit = string(*unit, path + ".unit");
      if (e.unit != "ns") {
        fail(path + ".unit",
             "unsupported unit " + json_quoted(e.unit) + "; supported units: \"ns\"");
      }
    }
    if (const Json* timer = member(value, "timer")) e.timer = string(*timer, path + ".timer");
    if (const Json* device = member(value, "device")) {
      e.device = int_value(*device, path + ".device", 0);
    }
    const Json* samples = member(value, "samples");
    if (samples == nullptr) {
      fail(path + ".samples", "missing; expected an array of durations in ns");
    }
    if (!samples->is_array()) {
      fail(path + ".samples", "expected an array of durations in ns, got " + describe(*samples));
    }
    e.samples.reserve(samples->size());
    for (std::size_t i = 0; i < samples->size(); ++i) {
      e.samples.push_back(duration((*samples)[i], index_path(path + ".samples", i)));
    }
    if (const Json* runs = member(value, "runs")) run_sizes(*runs, path + ".runs", e);
    // Statistics in the file are never trusted: a hand-edited median must not win a comparison.
    if (!e.samples.empty()) {
      try {
        e.statistics = compute_statistics(e.samples, statistics_);
      } catch (const Error& error) {
        fail(path + ".samples", error.what());
      }
    }
    return e;
  }

  // "runs": [n1, n2, ...]: the sample count of each run (process), which together partition
  // "samples". Absent: one run.
  void run_sizes(const Json& runs, const std::string& path, Entry& e) const {
    if (!runs.is_array()) {
      fail(path, "expected an array of sample counts, one per run, got " + describe(runs));
    }
    std::size_t total = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::string run_path = index_path(path, i);
      const std::size_t size = byte_count(runs[i], run_path);
      if (size == 0) fail(run_path, "a run with no samples; every run needs at least one");
      total += size;
      e.run_sizes.push_back(size);
    }
    if (runs.empty()) fail(path, "empty; leave \"runs\" out for one run");
    if (total != e.samples.size()) {
      fail(path, "the runs hold " + std::to_string(total) + " samples, but \"samples\" has " +
                     std::to_string(e.samples.size()));
    }
    if (e.run_sizes.size() == 1) e.run_sizes.clear();  // one run, as without "runs"
  }

  StatisticsOptions statistics_;
};

// nlohmann counts bytes from 1 and reports the last byte it read; people want line:column.
std::pair<std::size_t, std::size_t> line_and_column(std::string_view text, std::size_t byte) {
  const std::size_t offset = std::min(byte == 0 ? 0 : byte - 1, text.size());
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, offset - line_start + 1};
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at ...: " prefix.
std::string parse_error_reason(const std::string& what) {
  const auto column = what.find("column ");
  const auto colon = column == std::string::npos ? column : what.find(": ", column);
  if (colon != std::string::npos) return what.substr(colon + 2);
  const auto bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

}  // namespace

Report parse_report(std::string_view json_text, const std::string& source,
                    const StatisticsOptions& statistics) {
  // nlohmann's wording for this case differs between releases; say it in our own words.
  if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw Error(source + ": the file is empty; expected a kerntime-report/1 JSON object");
  }
  Json root;
  try {
    root = Json::parse(json_text.begin(), json_text.end());
  } catch (const Json::parse_error& e) {
    const auto [line, column] = line_and_column(json_text, e.byte);
    throw Error(source + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                ": invalid JSON: " + parse_error_reason(e.what()));
  } catch (const Json::exception& e) {
    const report_detail::JsonOverflow overflow = report_detail::find_json_overflow(json_text);
    if (overflow.found) {
      const auto [line, column] = line_and_column(json_text, overflow.byte);
      throw Error(source + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                  ": " + overflow.path + ": expected a finite number, got " + overflow.number +
                  " (too large for a double)");
    }
    throw Error(source + ": invalid JSON: " + parse_error_reason(e.what()));
  }
  return Reader(source, statistics).report(root);
}

}  // namespace kerntime
