// SPDX-License-Identifier: Apache-2.0
// Reads Google Benchmark JSON (`--benchmark_format=json`, `--benchmark_out`) into the report
// model. Each run object is read as the parser finishes it and then dropped, so a file of many
// repetitions never exists as a whole DOM. Lenient about what is absent (files of older Google
// Benchmark versions lack run_type, run_name and the indices), strict about the type of what
// is present; every rejection names the source, the JSON path and why.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_interop.hpp>

#include "report/cuda_version.hpp"
#include "report/gbench_json.hpp"
#include "report/json_position.hpp"
#include "report/json_reader.hpp"
#include "report/json_text_errors.hpp"

namespace kerntime {
namespace report {
namespace {

constexpr const char* kTimer = "google-benchmark";

// One benchmark (run name) as its runs are read: the repetitions' times, and the aggregates
// that stand in for them when a file has only aggregates.
struct Benchmark {
  std::string name;
  std::vector<double> samples;
  std::vector<std::size_t> run_of_sample;  // kerntime's run label; 0 when none
  std::optional<double> median;
  std::optional<double> mean;
  gbench::Label label;  // the last run's; what it says counts in kerntime's files only
  // cpu_time, iterations and the counters of each repetition; a column some repetition lacks
  // falls out of step with the samples and is dropped when the entry is made.
  std::vector<SampleColumn> columns;
};

// The members of a run that are Google Benchmark's own; every other number is a counter.
bool known_member(const std::string& key) {
  static const char* const kKnown[] = {"name",
                                       "family_index",
                                       "per_family_instance_index",
                                       "run_name",
                                       "run_type",
                                       "repetitions",
                                       "repetition_index",
                                       "threads",
                                       "iterations",
                                       "real_time",
                                       "cpu_time",
                                       "time_unit",
                                       "label",
                                       "error_occurred",
                                       "error_message",
                                       "skipped",
                                       "skip_message",
                                       "aggregate_name",
                                       "aggregate_unit",
                                       "big_o",
                                       "rms",
                                       "complexity_n"};
  for (const char* known : kKnown) {
    if (key == known) return true;
  }
  return false;
}

// What the parse callback collects: the benchmarks so far, in first-seen order, up to the first
// rejection, which is kept and thrown after the parse (a syntax error later in the file is
// reported first, as kerntime's own reader does).
struct Collected {
  std::vector<Benchmark> benchmarks;
  std::unordered_map<std::string, std::size_t> index;
  std::size_t left_out = 0;  // runs with error_occurred or skipped
  std::string first_left_out;
  std::string error;
};

double unit_to_ns(const JsonReader& r, const Json& run, const std::string& path) {
  const Json* unit = member(run, "time_unit");
  if (unit == nullptr) return 1.0;  // Google Benchmark's default unit
  const std::string name = r.string(*unit, path + ".time_unit");
  if (name == "ns") return 1.0;
  if (name == "us") return 1e3;
  if (name == "ms") return 1e6;
  if (name == "s") return 1e9;
  r.fail(path + ".time_unit",
         "expected \"ns\", \"us\", \"ms\" or \"s\", got " + io::json_string(name));
}

class Reader : public JsonReader {
 public:
  explicit Reader(const std::string& source) : JsonReader(source) {}

  void add_run(const Json& run, std::size_t index, Collected& c) const {
    if (!c.error.empty()) return;
    try {
      read_run(run, index_path("benchmarks", index), c);
    } catch (const Error& error) {
      c.error = error.what();
    }
  }

  Report report(const Json& root, Collected& c, const ReportReadOptions& options) const {
    object(root, "top level");
    Report report;
    const Json* context = member(root, "context");
    const bool ours = context != nullptr && context->is_object() &&
                      member(*context, gbench::kMarkerKey) != nullptr;
    if (context != nullptr) read_context(*context, ours, report);
    // kerntime's own files name the figures that are columns; the rest it filled in.
    std::string own_columns;
    if (ours) {
      if (const Json* v = member(*context, gbench::kColumnsKey)) {
        own_columns = "," + string(*v, std::string{"context."} + gbench::kColumnsKey) + ",";
      }
    }
    const Json* benchmarks = member(root, "benchmarks");
    if (benchmarks == nullptr) {
      fail("benchmarks", "missing; a Google Benchmark file lists its runs in \"benchmarks\"");
    }
    array(*benchmarks, "benchmarks");
    if (!c.error.empty()) throw Error(c.error);

    std::vector<std::string> aggregates_only;
    std::size_t single = 0;
    for (Benchmark& b : c.benchmarks) {
      Entry e;
      e.name = b.name;
      e.timer = ours ? b.label.timer : kTimer;
      if (ours) e.device = b.label.device;
      if (b.samples.empty()) {
        // Only aggregates (--benchmark_report_aggregates_only): one figure stands in.
        const std::optional<double> figure = b.median ? b.median : b.mean;
        if (!figure) continue;  // BigO or RMS alone: no time
        e.samples.push_back(*figure);
        aggregates_only.push_back(b.name);
      } else {
        for (SampleColumn& column : b.columns) {
          const bool in_step = column.values.size() == b.samples.size() &&
                               std::all_of(column.values.begin(), column.values.end(),
                                           [](double v) { return std::isfinite(v); });
          const bool filled_in =
              ours && own_columns.find("," + column.name + ",") == std::string::npos;
          if (in_step && !filled_in) e.sample_columns.push_back(std::move(column));
        }
        e.samples = std::move(b.samples);
        if (ours) e.run_sizes = runs(b.run_of_sample);
        if (e.samples.size() == 1) ++single;
      }
      try {
        e.statistics = compute_statistics(e.samples, options.statistics);
      } catch (const Error& error) {
        fail("benchmarks (" + io::json_string(e.name) + ")", error.what());
      }
      report.entries.push_back(std::move(e));
    }
    warn(report, c, aggregates_only, ours ? 0 : single);
    return report;
  }

 private:
  void read_run(const Json& run, const std::string& path, Collected& c) const {
    object(run, path);
    const Json* name_value = member(run, "name");
    if (name_value == nullptr) fail(path + ".name", "missing; every run has a name");
    const std::string name = string(*name_value, path + ".name");
    if (name.empty()) fail(path + ".name", "empty; every run needs a name");

    std::string type = "iteration";
    if (const Json* v = member(run, "run_type")) type = string(*v, path + ".run_type");
    std::string aggregate;
    if (const Json* v = member(run, "aggregate_name")) {
      aggregate = string(*v, path + ".aggregate_name");
      if (!member(run, "run_type")) type = "aggregate";  // files before run_type
    }
    if (type != "iteration" && type != "aggregate") {
      fail(path + ".run_type",
           "expected \"iteration\" or \"aggregate\", got " + io::json_string(type));
    }
    std::string run_name = name;
    if (const Json* v = member(run, "run_name")) {
      run_name = string(*v, path + ".run_name");
    } else if (type == "aggregate" && name.size() > aggregate.size() + 1 &&
               name.compare(name.size() - aggregate.size(), aggregate.size(), aggregate) == 0) {
      run_name = name.substr(0, name.size() - aggregate.size() - 1);  // "BM_x_mean" -> "BM_x"
    }
    if (run_name.empty()) fail(path + ".run_name", "empty; every run needs a name");

    for (const char* flag : {"error_occurred", "skipped"}) {
      const Json* v = member(run, flag);
      if (v != nullptr && boolean(*v, path + "." + flag)) {
        if (c.left_out++ == 0) c.first_left_out = name;
        return;
      }
    }
    Benchmark& b = benchmark(run_name, c);
    if (const Json* v = member(run, "label")) {
      b.label = gbench::parse_label(string(*v, path + ".label"));
    }
    if (type == "aggregate") {
      std::string unit = "time";
      if (const Json* v = member(run, "aggregate_unit"))
        unit = string(*v, path + ".aggregate_unit");
      if (unit != "time" || (aggregate != "mean" && aggregate != "median")) return;
      const Json* real = member(run, "real_time");
      if (real == nullptr) return;
      const double value = time(run, *real, path);
      (aggregate == "mean" ? b.mean : b.median) = value;
      return;
    }
    const Json* real = member(run, "real_time");
    if (real == nullptr) fail(path + ".real_time", "missing; every repetition has a real_time");
    b.samples.push_back(time(run, *real, path));
    b.run_of_sample.push_back(b.label.run);
    if (const Json* cpu = member(run, "cpu_time")) {
      const double raw = duration(*cpu, path + ".cpu_time");
      add_column(b, "cpu_time",
                 duration_ns(*this, raw, unit_to_ns(*this, run, path), *cpu, path + ".cpu_time"));
    }
    if (const Json* iterations = member(run, "iterations")) {
      add_column(b, "iterations",
                 static_cast<double>(uint64_value(*iterations, path + ".iterations")));
    }
    for (auto it = run.begin(); it != run.end(); ++it) {
      if (!it.value().is_number() || known_member(it.key())) continue;
      const double value = it.value().get<double>();
      if (std::isfinite(value)) add_column(b, it.key(), value);
    }
  }

  // The value of one repetition; the column is made at its first value and holds one value per
  // sample while every repetition has it.
  static void add_column(Benchmark& b, const std::string& name, double value) {
    for (SampleColumn& column : b.columns) {
      if (column.name == name) {
        column.values.push_back(value);
        return;
      }
    }
    b.columns.push_back({name, {}});
    b.columns.back().values.resize(b.samples.size() - 1, std::nan(""));  // not in step: dropped
    b.columns.back().values.push_back(value);
  }

  double time(const Json& run, const Json& value, const std::string& path) const {
    const double raw = duration(value, path + ".real_time");
    return duration_ns(*this, raw, unit_to_ns(*this, run, path), value, path + ".real_time");
  }

  static Benchmark& benchmark(const std::string& name, Collected& c) {
    const auto [it, added] = c.index.emplace(name, c.benchmarks.size());
    if (added) c.benchmarks.push_back(Benchmark{name, {}, {}, {}, {}, {}, {}});
    return c.benchmarks[it->second];
  }

  // Runs from the labels of a file kerntime wrote: consecutive samples of one run label.
  static std::vector<std::size_t> runs(const std::vector<std::size_t>& run_of_sample) {
    std::vector<std::size_t> sizes;
    for (std::size_t i = 0; i < run_of_sample.size(); ++i) {
      if (i == 0 || run_of_sample[i] != run_of_sample[i - 1]) sizes.push_back(0);
      ++sizes.back();
    }
    if (sizes.size() == 1) sizes.clear();
    return sizes;
  }

  void read_context(const Json& context, bool ours, Report& report) const {
    object(context, "context");
    Environment& env = report.environment;
    const auto text = [&](const char* key) -> std::optional<std::string> {
      const Json* v = member(context, key);
      if (v == nullptr) return std::nullopt;
      return string(*v, std::string{"context."} + key);
    };
    if (auto host = text("host_name")) env.host_name = *host;
    if (auto date = text("date")) env.created_utc = *date;
    if (!ours) return;
    // What kerntime's writer keeps in custom context (strings, as Google Benchmark's are).
    if (auto version = text("kerntime_version")) env.tool_version = *version;
    const auto cuda = [&](const char* key, int& field) {
      if (auto value = text(key)) {
        const auto parsed = parse_cuda_version(*value);
        if (!parsed) {
          fail(std::string{"context."} + key,
               "expected a CUDA version like \"13.0\", got " + io::json_string(*value));
        }
        field = *parsed;
      }
    };
    cuda("cuda_driver_version", env.driver_version);
    cuda("cuda_runtime_version", env.runtime_version);
    for (int index = 0;; ++index) {
      const std::string key = "gpu_" + std::to_string(index);
      const auto name = text(key.c_str());
      const auto capability = text((key + "_compute_capability").c_str());
      if (!name && !capability) break;
      DeviceInfo device;
      device.index = index;
      if (name) device.name = *name;
      if (capability) {
        const auto parsed = parse_cuda_version(*capability);
        if (!parsed) {
          fail("context." + key + "_compute_capability",
               "expected a compute capability like \"9.0\", got " + io::json_string(*capability));
        }
        device.compute_capability_major = *parsed / 1000;
        device.compute_capability_minor = (*parsed % 1000) / 10;
      }
      env.devices.push_back(std::move(device));
    }
    for (std::size_t i = 0;; ++i) {
      const auto warning = text(("kerntime_warning_" + std::to_string(i)).c_str());
      if (!warning) break;
      report.warnings.push_back(*warning);
    }
  }

  static std::string first_names(const std::vector<std::string>& names) {
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i)
      text += (i == 0 ? "" : ", ") + names[i];
    return names.size() > 3 ? text + ", ..." : text;
  }

  static void warn(Report& report, const Collected& c, const std::vector<std::string>& aggregates,
                   std::size_t single) {
    if (!aggregates.empty()) {
      report.warnings.push_back(
          std::to_string(aggregates.size()) +
          " Google Benchmark benchmarks have only aggregates (" + first_names(aggregates) +
          "): one sample each, the median (else mean) of their repetitions, too few for kerntime "
          "compare; write the repetitions (without --benchmark_report_aggregates_only)");
    }
    if (single > 0) {
      report.warnings.push_back(std::to_string(single) +
                                " Google Benchmark benchmarks have one repetition: one sample "
                                "each (the mean of its iterations); run with "
                                "--benchmark_repetitions=N for kerntime compare to judge them");
    }
    if (c.left_out > 0) {
      report.warnings.push_back(std::to_string(c.left_out) +
                                " Google Benchmark runs reported an error or were skipped and "
                                "are left out (first: " +
                                c.first_left_out + ")");
    }
  }
};

// The parse callback: each element of "benchmarks" is read as soon as it is complete and then
// dropped; the context stays in the DOM (small) and is read after the parse.
class StreamingReader {
 public:
  using Event = Json::parse_event_t;

  explicit StreamingReader(const std::string& source) : reader_(source) {}

  bool on_event(int depth, Event event, const Json& parsed) {
    position_.update(depth, event, parsed);
    if (depth == 0 || position_.key_at(0) != "benchmarks") return true;
    if (depth == 1) {
      if (event == Event::key) collected_ = Collected{};  // a duplicate key replaces, as a DOM
      return true;
    }
    if (!position_.array_at(1) || depth != 2) return true;
    switch (event) {
      case Event::object_end:
      case Event::value:
        reader_.add_run(parsed, position_.index_at(1), collected_);
        return false;
      case Event::array_start:
        reader_.add_run(Json::array(), position_.index_at(1), collected_);
        return false;
      default:
        return true;
    }
  }

  Report report(const Json& root, const ReportReadOptions& options) {
    return reader_.report(root, collected_, options);
  }

 private:
  Reader reader_;
  JsonPosition position_;
  Collected collected_;
};

}  // namespace
}  // namespace report

Report parse_google_benchmark_json(std::string_view json_text, const std::string& source,
                                   const ReportReadOptions& options) {
  if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw Error(source + ": the file is empty; expected Google Benchmark JSON");
  }
  report::StreamingReader reader(source);
  report::Json root;
  try {
    root = report::Json::parse(
        json_text.begin(), json_text.end(),
        [&reader](int depth, report::Json::parse_event_t event, report::Json& parsed) {
          return reader.on_event(depth, event, parsed);
        });
  } catch (const report::Json::exception& e) {
    report::throw_json_text_error(json_text, source, e);
  }
  return reader.report(root, options);
}

}  // namespace kerntime
