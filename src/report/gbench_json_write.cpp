// SPDX-License-Identifier: Apache-2.0
// A report as Google Benchmark writes `--benchmark_format=json` with repetitions (its
// src/json_reporter.cc): a context object, then per benchmark one "iteration" run per
// repetition and the "aggregate" runs mean, median, stddev and cv. Each kerntime sample is one
// repetition of one iteration, so per-repetition tools (conbench, Google Benchmark's compare.py
// U test) see every sample, and the aggregates are those Google Benchmark computes from them.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include <kerntime/counter.hpp>
#include <kerntime/error.hpp>
#include <kerntime/measurement_info.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/statistics.hpp>

#include "io/json_text.hpp"
#include "report/gbench_json.hpp"

namespace kerntime {
namespace {

using Json = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw Error("cannot write Google Benchmark JSON: " + path + ": " + why);
}

Json context_json(const Report& report) {
  const Environment& env = report.environment;
  Json context;
  if (!env.created_utc.empty()) context["date"] = env.created_utc;
  if (!env.host_name.empty()) context["host_name"] = env.host_name;
  // kerntime records nothing of the host's CPUs; Google Benchmark always writes these fields,
  // so they are there, and 0 says "not known".
  context["num_cpus"] = 0;
  context["mhz_per_cpu"] = 0;
  context["caches"] = Json::array();
  context["load_avg"] = Json::array();
  if (!env.tool_version.empty()) context["library_version"] = "kerntime " + env.tool_version;
#if defined(NDEBUG)
  context["library_build_type"] = "release";
#else
  context["library_build_type"] = "debug";
#endif
  context["json_schema_version"] = 1;
  // Custom context (Google Benchmark's AddCustomContext: string values) for what its schema has
  // no field for; the reader restores the report's environment and warnings from it.
  using report::gbench::kMarkerKey;
  context[kMarkerKey] = kReportSchema;
  if (!env.tool_version.empty()) context["kerntime_version"] = env.tool_version;
  if (env.driver_version > 0)
    context["cuda_driver_version"] = cuda_version_string(env.driver_version);
  if (env.runtime_version > 0) {
    context["cuda_runtime_version"] = cuda_version_string(env.runtime_version);
  }
  for (const DeviceInfo& device : env.devices) {
    if (device.index < 0) continue;
    const std::string key = "gpu_" + std::to_string(device.index);
    if (!device.name.empty()) context[key] = device.name;
    if (device.compute_capability_major > 0) {
      context[key + "_compute_capability"] = std::to_string(device.compute_capability_major) + "." +
                                             std::to_string(device.compute_capability_minor);
    }
  }
  for (std::size_t i = 0; i < report.warnings.size(); ++i) {
    context["kerntime_warning_" + std::to_string(i)] = report.warnings[i];
  }
  // Which runs' figures are the entries' own sample columns, as opposed to what the writer
  // fills in (cpu_time = real_time, 1 iteration, rates of declared work): the reader keeps
  // only these as columns.
  std::string columns;
  for (const Entry& e : report.entries) {
    for (const SampleColumn& column : e.sample_columns) {
      const std::string item = "," + column.name + ",";
      if (("," + columns + ",").find(item) == std::string::npos) {
        columns += (columns.empty() ? "" : ",") + column.name;
      }
    }
  }
  if (!columns.empty()) context[report::gbench::kColumnsKey] = columns;
  return context;
}

// The entry's column `name`, if it has one in step with its samples.
const SampleColumn* column_of(const Entry& e, std::string_view name) {
  for (const SampleColumn& column : e.sample_columns) {
    if (column.name == name && column.values.size() == e.samples.size()) return &column;
  }
  return nullptr;
}

// Google Benchmark's family is the registered benchmark (the name before the first '/'), its
// instance one argument set of it; kerntime names entries "benchmark/axis=value/mode" alike.
struct Family {
  std::size_t index = 0;
  std::size_t instances = 0;
};

class Writer {
 public:
  explicit Writer(const GoogleBenchmarkJsonOptions& options) : options_(options) {}

  void entry(const Entry& e, const std::string& path) {
    if (e.samples.empty()) return;  // Google Benchmark has no run without a time
    for (std::size_t i = 0; i < e.samples.size(); ++i) {
      if (!std::isfinite(e.samples[i]) || e.samples[i] < 0) {
        fail(path + ".samples[" + std::to_string(i) + "]",
             "expected a finite duration >= 0 ns, got " + std::to_string(e.samples[i]));
      }
    }
    const std::string family_name = e.name.substr(0, e.name.find('/'));
    auto [it, added] = families_.emplace(family_name, Family{families_.size(), 0});
    family_ = it->second.index;
    instance_ = it->second.instances++;

    const std::vector<std::vector<double>> runs = e.runs();
    std::string label = e.timer.empty() ? "" : "timer=" + e.timer;
    if (e.device) label += (label.empty() ? "" : " ") + ("device=" + std::to_string(*e.device));
    const std::size_t repetitions = e.samples.size();
    if (!options_.aggregates_only || repetitions == 1) {
      std::size_t index = 0;
      for (std::size_t r = 0; r < runs.size(); ++r) {
        std::string run_label = label;
        if (runs.size() > 1) {
          run_label += (run_label.empty() ? "" : " ") + ("run=" + std::to_string(r + 1));
        }
        for (const double sample : runs[r]) {
          iteration(e, repetitions, index++, sample, run_label);
        }
      }
    }
    if (repetitions < 2) return;
    StatisticsOptions no_interval;
    no_interval.median_interval = false;
    const Statistics s = compute_statistics(e.samples, no_interval);
    const double stddev = s.stddev.value_or(0.0);
    // What every repetition's label has in common (Google Benchmark keeps a label that all
    // repetitions share): the timer and device, not the run.
    aggregate(e, repetitions, "mean", "time", s.mean, label);
    aggregate(e, repetitions, "median", "time", s.median, label);
    aggregate(e, repetitions, "stddev", "time", stddev, label);
    aggregate(e, repetitions, "cv", "percentage", s.mean == 0.0 ? 0.0 : stddev / s.mean, label);
  }

  // One aggregate of a column, as Google Benchmark computes it for cpu_time and counters.
  static double column_aggregate(const SampleColumn& column, std::string_view name) {
    StatisticsOptions no_interval;
    no_interval.median_interval = false;
    const Statistics s = compute_statistics(column.values, no_interval);
    const double stddev = s.stddev.value_or(0.0);
    if (name == "mean") return s.mean;
    if (name == "median") return s.median;
    if (name == "stddev") return stddev;
    return s.mean == 0.0 ? 0.0 : stddev / s.mean;
  }

  std::string text(const Report& report) const {
    Json head;
    head["context"] = context_json(report);
    std::string out = io::dump_json(head, 2);
    out.resize(out.size() - 2);  // "\n}": the benchmarks follow
    out += ",\n  \"benchmarks\": [";
    out += runs_;
    out += runs_.empty() ? "]" : "\n  ]";
    out += "\n}\n";
    return out;
  }

 private:
  Json common(const std::string& name, const Entry& e, const char* type, std::size_t repetitions) {
    Json run;
    run["name"] = name;
    run["family_index"] = family_;
    run["per_family_instance_index"] = instance_;
    run["run_name"] = e.name;
    run["run_type"] = type;
    run["repetitions"] = repetitions;
    return run;
  }

  void times(Json& run, std::size_t iterations, double value, const std::string& label) {
    run["iterations"] = iterations;
    run["real_time"] = value;
    run["cpu_time"] = value;  // no CPU time is measured: the same figure for every reader
    run["time_unit"] = "ns";
    if (!label.empty()) run["label"] = label;
  }

  // The rates of the entry's declared work and its custom counters at `ns`, as Google
  // Benchmark writes them: bytes_per_second and items_per_second (SetBytesProcessed,
  // SetItemsProcessed), then each user counter by name (a rate counter per second).
  static void rates(Json& run, const Entry& e, double ns) {
    if (!e.measurement || !(ns > 0.0)) return;
    const MeasurementInfo& m = *e.measurement;
    if (m.work.bytes > 0.0) run["bytes_per_second"] = m.work.bytes / (ns * 1e-9);
    if (m.work.elements > 0.0) run["items_per_second"] = m.work.elements / (ns * 1e-9);
    for (const Counter& counter : m.counters) {
      if (const std::optional<double> value = counter_result(counter, ns)) {
        run[counter.name] = *value;
      }
    }
  }

  void iteration(const Entry& e, std::size_t repetitions, std::size_t index, double sample,
                 const std::string& label) {
    Json run = common(e.name, e, "iteration", repetitions);
    run["repetition_index"] = index;
    run["threads"] = 1;
    times(run, 1, sample, label);
    if (const SampleColumn* iterations = column_of(e, "iterations")) {
      run["iterations"] = static_cast<std::uint64_t>(iterations->values[index]);
    }
    if (const SampleColumn* cpu = column_of(e, "cpu_time")) run["cpu_time"] = cpu->values[index];
    rates(run, e, sample);
    counters(run, e, [index](const SampleColumn& column) { return column.values[index]; });
    append(run);
  }

  // The entry's other columns (Google Benchmark's counters) under their names, after the rates
  // of declared work, which a column of the same name replaces. `value` picks each column's
  // figure for this run.
  template <typename Pick>
  static void counters(Json& run, const Entry& e, Pick value) {
    for (const SampleColumn& column : e.sample_columns) {
      if (column.name == "iterations" || column.name == "cpu_time" ||
          column.values.size() != e.samples.size()) {
        continue;
      }
      run[column.name] = value(column);
    }
  }

  void aggregate(const Entry& e, std::size_t repetitions, const char* name, const char* unit,
                 double value, const std::string& label) {
    Json run = common(e.name + "_" + name, e, "aggregate", repetitions);
    run["threads"] = 1;
    run["aggregate_name"] = name;
    run["aggregate_unit"] = unit;
    // Google Benchmark counts an aggregate's iterations as the repetitions it summarizes.
    times(run, repetitions, value, label);
    if (const SampleColumn* cpu = column_of(e, "cpu_time")) {
      run["cpu_time"] = column_aggregate(*cpu, name);
    }
    // The rates at the mean and median time; a spread of rates is not the spread of times.
    if (std::string_view{unit} == "time" && std::string_view{name} != "stddev")
      rates(run, e, value);
    counters(run, e, [name](const SampleColumn& column) { return column_aggregate(column, name); });
    append(run);
  }

  void append(const Json& run) {
    runs_ += runs_.empty() ? "\n    " : ",\n    ";
    runs_ += io::nested_json(io::dump_json(run, 2), 2);
  }

  GoogleBenchmarkJsonOptions options_;
  std::unordered_map<std::string, Family> families_;
  std::size_t family_ = 0;
  std::size_t instance_ = 0;
  std::string runs_;
};

}  // namespace

std::string to_google_benchmark_json(const Report& report,
                                     const GoogleBenchmarkJsonOptions& options) {
  Writer writer(options);
  std::unordered_map<std::string, std::size_t> first_index;
  for (std::size_t i = 0; i < report.entries.size(); ++i) {
    const Entry& e = report.entries[i];
    const std::string path = "entries[" + std::to_string(i) + "]";
    if (e.name.empty()) fail(path + ".name", "empty; every entry needs a name");
    const auto [it, inserted] = first_index.emplace(e.name, i);
    if (!inserted) {
      fail(path + ".name",
           "duplicate name \"" + e.name + "\" (also entries[" + std::to_string(it->second) + "])");
    }
    writer.entry(e, path);
  }
  return writer.text(report);
}

}  // namespace kerntime
