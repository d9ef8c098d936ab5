// SPDX-License-Identifier: Apache-2.0
// Google Benchmark's JSON: a kerntime report written as it and read back, and its own files
// (tests/report/data, modeled on what it writes) read into reports, older versions, aggregates
// alone, and the field every mistake names.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>
#include <kerntime/measurement_info.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>

#include "interop_helpers.hpp"
#include "report/sample_report.hpp"

namespace kerntime {
namespace {

using namespace interop_test;

TEST(GoogleBenchmarkJson, IsWhatGoogleBenchmarkWritesWithRepetitions) {
  Report report;
  report.environment.host_name = "gpu-node-7";
  report.entries.push_back(
      Entry{"saxpy/n=1024/cold", "ns", "cuda-event", 0, {812, 815.5, 809}, {}});
  report.entries.push_back(Entry{"saxpy/n=2048/cold", "ns", "cuda-event", 0, {1500}, {}});
  report.entries.push_back(Entry{"copy/cold", "ns", "cupti-kernel", std::nullopt, {}, {}});
  const auto json = nlohmann::ordered_json::parse(to_google_benchmark_json(report));

  const auto& context = json["context"];
  EXPECT_EQ(context["host_name"], "gpu-node-7");
  EXPECT_TRUE(context["caches"].is_array());  // Bencher requires it
  EXPECT_EQ(context["json_schema_version"], 1);
  EXPECT_EQ(context["kerntime_report"], "kerntime-report/1");

  const auto& runs = json["benchmarks"];
  ASSERT_EQ(runs.size(), 3u + 4u + 1u);  // 3 repetitions and 4 aggregates, 1 repetition; no empty
  // The fields and their order of Google Benchmark's json_reporter.cc.
  std::vector<std::string> keys;
  for (auto it = runs[1].begin(); it != runs[1].end(); ++it)
    keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "family_index", "per_family_instance_index",
                                            "run_name", "run_type", "repetitions",
                                            "repetition_index", "threads", "iterations",
                                            "real_time", "cpu_time", "time_unit", "label"}));
  EXPECT_EQ(runs[1]["name"], "saxpy/n=1024/cold");
  EXPECT_EQ(runs[1]["run_type"], "iteration");
  EXPECT_EQ(runs[1]["repetitions"], 3);
  EXPECT_EQ(runs[1]["repetition_index"], 1);
  EXPECT_EQ(runs[1]["iterations"], 1);
  EXPECT_EQ(runs[1]["real_time"], 815.5);
  EXPECT_EQ(runs[1]["cpu_time"], 815.5);
  EXPECT_EQ(runs[1]["time_unit"], "ns");
  EXPECT_EQ(runs[1]["label"], "timer=cuda-event device=0");

  keys.clear();
  for (auto it = runs[3].begin(); it != runs[3].end(); ++it)
    keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "family_index", "per_family_instance_index",
                                            "run_name", "run_type", "repetitions", "threads",
                                            "aggregate_name", "aggregate_unit", "iterations",
                                            "real_time", "cpu_time", "time_unit", "label"}));
  // Google Benchmark's statistics of 812, 815.5, 809: mean, median, stddev (n - 1), cv.
  const double mean = (812 + 815.5 + 809) / 3.0;
  const double stddev = std::sqrt(((812 - mean) * (812 - mean) + (815.5 - mean) * (815.5 - mean) +
                                   (809 - mean) * (809 - mean)) /
                                  2.0);
  EXPECT_EQ(runs[3]["name"], "saxpy/n=1024/cold_mean");
  EXPECT_EQ(runs[3]["run_name"], "saxpy/n=1024/cold");
  EXPECT_EQ(runs[3]["iterations"], 3);  // Google Benchmark: the repetitions summarized
  EXPECT_DOUBLE_EQ(runs[3]["real_time"].get<double>(), mean);
  EXPECT_EQ(runs[4]["aggregate_name"], "median");
  EXPECT_EQ(runs[4]["real_time"], 812.0);
  EXPECT_EQ(runs[5]["aggregate_name"], "stddev");
  EXPECT_NEAR(runs[5]["real_time"].get<double>(), stddev, 1e-9);
  EXPECT_EQ(runs[6]["aggregate_name"], "cv");
  EXPECT_EQ(runs[6]["aggregate_unit"], "percentage");
  EXPECT_NEAR(runs[6]["real_time"].get<double>(), stddev / mean, 1e-12);
  // One family ("saxpy"), two instances of it; a single repetition has no aggregates.
  EXPECT_EQ(runs[7]["name"], "saxpy/n=2048/cold");
  EXPECT_EQ(runs[7]["family_index"], 0);
  EXPECT_EQ(runs[7]["per_family_instance_index"], 1);
  EXPECT_EQ(runs[7]["repetitions"], 1);
}

TEST(GoogleBenchmarkJson, AggregatesOnlyWritesOneValuePerName) {
  Report report;
  report.entries.push_back(Entry{"a", "ns", "cuda-event", 0, {10, 20, 40}, {}});
  report.entries.push_back(Entry{"b", "ns", "cuda-event", 0, {7}, {}});
  GoogleBenchmarkJsonOptions options;
  options.aggregates_only = true;
  const auto runs = nlohmann::json::parse(to_google_benchmark_json(report, options))["benchmarks"];
  ASSERT_EQ(runs.size(), 5u);
  EXPECT_EQ(runs[0]["name"], "a_mean");
  EXPECT_EQ(runs[1]["name"], "a_median");
  EXPECT_EQ(runs[1]["real_time"], 20.0);
  EXPECT_EQ(runs[4]["name"], "b");  // one sample: its repetition, as Google Benchmark does
  const Report read = parse_any_report(to_google_benchmark_json(report, options), "g.json");
  ASSERT_EQ(read.entries.size(), 2u);
  EXPECT_EQ(read.entries[0].samples, std::vector<double>{20});  // the median stands in
  EXPECT_EQ(read.entries[0].timer, "cuda-event");
  EXPECT_TRUE(any_warning(read, "1 Google Benchmark benchmarks have only aggregates (a)"));
}

TEST(GoogleBenchmarkJson, DeclaredWorkAndCountersAreItsRatesAndUserCounters) {
  Report report;
  Entry e{"sort/n=1024/cold", "ns", "cupti-kernel", 0, {1000, 2000, 4000}, {}};
  MeasurementInfo info;
  info.work.bytes = 8000;  // 8 GB/s at 1000 ns
  info.work.elements = 1000;
  info.counters = {{"segments", 32, CounterKind::rate}, {"tile", 256, CounterKind::value}};
  e.measurement = std::make_shared<const MeasurementInfo>(info);
  report.entries.push_back(e);
  report.entries.push_back(Entry{"plain", "ns", "cuda-event", 0, {10, 20}, {}});
  const auto runs = nlohmann::json::parse(to_google_benchmark_json(report))["benchmarks"];
  ASSERT_GE(runs.size(), 7u);
  EXPECT_DOUBLE_EQ(runs[0]["bytes_per_second"].get<double>(), 8e9);
  EXPECT_DOUBLE_EQ(runs[0]["items_per_second"].get<double>(), 1e9);
  EXPECT_DOUBLE_EQ(runs[0]["segments"].get<double>(), 32e6);
  EXPECT_DOUBLE_EQ(runs[0]["tile"].get<double>(), 256);
  EXPECT_DOUBLE_EQ(runs[2]["bytes_per_second"].get<double>(), 2e9);  // the 4000 ns repetition
  EXPECT_EQ(runs[4]["name"], "sort/n=1024/cold_median");
  EXPECT_DOUBLE_EQ(runs[4]["bytes_per_second"].get<double>(), 4e9);  // at the median, 2000 ns
  EXPECT_FALSE(runs[5].contains("bytes_per_second"));                // stddev: no rate
  EXPECT_FALSE(runs[7].contains("bytes_per_second"));                // no declared work
  // The reader takes the times and leaves the rates, which it recomputes from the samples.
  const Report read = parse_any_report(to_google_benchmark_json(report), "g.json");
  EXPECT_EQ(read.entries[0].samples, (std::vector<double>{1000, 2000, 4000}));
}

TEST(GoogleBenchmarkJson, RoundTripKeepsSamplesRunsTimersDevicesEnvironmentAndWarnings) {
  Report report = testing::sample_report();
  // Two processes of one entry: the runs come back too.
  report.entries[0].run_sizes = {5, 3};
  const Report read = parse_any_report(to_google_benchmark_json(report), "g.json");
  ASSERT_EQ(read.entries.size(), report.entries.size() - 1);  // "empty" has no samples
  for (std::size_t i = 0; i < read.entries.size(); ++i) {
    SCOPED_TRACE(report.entries[i].name);
    EXPECT_EQ(read.entries[i].name, report.entries[i].name);
    EXPECT_EQ(read.entries[i].samples, report.entries[i].samples);  // exactly: shortest doubles
    EXPECT_EQ(read.entries[i].run_sizes, report.entries[i].run_sizes);
    EXPECT_EQ(read.entries[i].timer, report.entries[i].timer);
    EXPECT_EQ(read.entries[i].device, report.entries[i].device);
    EXPECT_EQ(read.entries[i].unit, "ns");
    EXPECT_DOUBLE_EQ(read.entries[i].statistics.median, report.entries[i].statistics.median);
  }
  const Environment& env = read.environment;
  EXPECT_EQ(env.host_name, "gpu-node-7");
  EXPECT_EQ(env.created_utc, "2026-11-29T16:10:00Z");
  EXPECT_EQ(env.tool_version, "0.1.0");
  EXPECT_EQ(env.driver_version, 13000);
  EXPECT_EQ(env.runtime_version, 12080);
  ASSERT_EQ(env.devices.size(), 1u);
  EXPECT_EQ(env.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(env.devices[0].compute_capability_major, 9);
  EXPECT_EQ(read.warnings, report.warnings);
}

TEST(GoogleBenchmarkJson, RefusesWhatNoReaderCouldUse) {
  Report report;
  report.entries.push_back(Entry{"a", "ns", "", std::nullopt, {1, std::nan("")}, {}});
  try {
    to_google_benchmark_json(report);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "cannot write Google Benchmark JSON: entries[0].samples[1]: expected a finite "
                 "duration >= 0 ns, got nan");
  }
  report.entries = {Entry{"a", "ns", "", std::nullopt, {1}, {}},
                    Entry{"a", "ns", "", std::nullopt, {2}, {}}};
  EXPECT_THROW(to_google_benchmark_json(report), Error);
}

// ---- Google Benchmark's own files ----

TEST(GoogleBenchmarkReader, ReadsRepetitionsAsSamplesInNanoseconds) {
  const Report r = parse_any_report(read_data("gbench_repetitions.json"), "gb.json");
  ASSERT_EQ(r.entries.size(), 2u);  // the failed run and the BigO fit have no time
  EXPECT_EQ(r.entries[0].name, "BM_memcpy/8/manual_time");
  EXPECT_EQ(r.entries[0].timer, "google-benchmark");
  EXPECT_EQ(r.entries[0].samples, (std::vector<double>{812, 815.5, 809}));
  EXPECT_FALSE(r.entries[0].device.has_value());
  EXPECT_EQ(r.entries[1].name, "BM_memcpy/4096/manual_time");
  ASSERT_EQ(r.entries[1].samples.size(), 3u);  // written in us
  EXPECT_DOUBLE_EQ(r.entries[1].samples[0], 1250.0);
  EXPECT_DOUBLE_EQ(r.entries[1].samples[1], 1262.5);
  EXPECT_DOUBLE_EQ(r.entries[1].samples[2], 1249.75);
  EXPECT_DOUBLE_EQ(r.entries[1].statistics.median, 1250.0);
  EXPECT_EQ(r.environment.host_name, "gpu-node-7");
  EXPECT_EQ(r.environment.created_utc, "2026-11-29T17:02:11+01:00");
  EXPECT_TRUE(r.environment.devices.empty());  // Google Benchmark's context has no GPU
  EXPECT_EQ(r.warnings,
            std::vector<std::string>{"1 Google Benchmark runs reported an error or were skipped "
                                     "and are left out (first: BM_memcpy/1073741824/manual_time)"});
}

const SampleColumn* column(const Entry& e, const std::string& name) {
  for (const SampleColumn& c : e.sample_columns) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

TEST(GoogleBenchmarkReader, KeepsCpuTimeIterationsAndCountersOfEachRepetition) {
  const Report r = parse_any_report(read_data("gbench_repetitions.json"), "gb.json");
  ASSERT_EQ(r.entries.size(), 2u);
  const Entry& small = r.entries[0];
  ASSERT_EQ(small.sample_columns.size(), 3u);
  EXPECT_EQ(small.sample_columns[0].name, "cpu_time");
  EXPECT_EQ(small.sample_columns[0].values,
            (std::vector<double>{828.24, 831.8100000000001, 825.1800000000001}));
  EXPECT_EQ(small.sample_columns[1].name, "iterations");
  EXPECT_EQ(small.sample_columns[1].values, (std::vector<double>{1000, 1000, 1000}));
  EXPECT_EQ(small.sample_columns[2].name, "bytes_per_second");
  EXPECT_EQ(small.sample_columns[2].values,
            (std::vector<double>{9852216.748768473, 9809932.556713672, 9888751.545117429}));
  // cpu_time in the entry's unit: the file wrote microseconds.
  const SampleColumn* cpu = column(r.entries[1], "cpu_time");
  ASSERT_NE(cpu, nullptr);
  ASSERT_EQ(cpu->values.size(), 3u);
  EXPECT_DOUBLE_EQ(cpu->values[0], 1275.0);
  EXPECT_DOUBLE_EQ(cpu->values[2], 1274.745);
}

TEST(GoogleBenchmarkJson, RoundTripKeepsCpuTimeIterationsAndCounters) {
  const nlohmann::json original = nlohmann::json::parse(read_data("gbench_repetitions.json"));
  const Report read = parse_any_report(read_data("gbench_repetitions.json"), "gb.json");
  // Through Google Benchmark JSON, and through kerntime's own JSON on the way.
  const Report again = parse_any_report(to_json(read), "r.json");
  const nlohmann::json written = nlohmann::json::parse(to_google_benchmark_json(again));

  // Every repetition of the original with a time comes back with the same figures (in ns).
  std::size_t checked = 0;
  for (const auto& run : original["benchmarks"]) {
    if (run.value("run_type", "") != "iteration" || run.value("error_occurred", false)) continue;
    const double to_ns = run["time_unit"] == "us" ? 1e3 : 1.0;
    bool found = false;
    for (const auto& out : written["benchmarks"]) {
      if (out["run_type"] != "iteration" || out["run_name"] != run["run_name"] ||
          out["repetition_index"] != run["repetition_index"]) {
        continue;
      }
      found = true;
      SCOPED_TRACE(run.dump());
      EXPECT_EQ(out["time_unit"], "ns");
      EXPECT_DOUBLE_EQ(out["real_time"].get<double>(), run["real_time"].get<double>() * to_ns);
      EXPECT_DOUBLE_EQ(out["cpu_time"].get<double>(), run["cpu_time"].get<double>() * to_ns);
      EXPECT_EQ(out["iterations"], run["iterations"]);
      EXPECT_DOUBLE_EQ(out["bytes_per_second"].get<double>(),
                       run["bytes_per_second"].get<double>());
      ++checked;
    }
    EXPECT_TRUE(found) << run.dump();
  }
  EXPECT_EQ(checked, 6u);
  // The aggregates of cpu_time are Google Benchmark's: the median of the repetitions' cpu_time.
  bool median_seen = false;
  for (const auto& out : written["benchmarks"]) {
    if (out["name"] == "BM_memcpy/8/manual_time_median") {
      median_seen = true;
      EXPECT_DOUBLE_EQ(out["cpu_time"].get<double>(), 828.24);
      EXPECT_DOUBLE_EQ(out["bytes_per_second"].get<double>(), 9852216.748768473);
    }
  }
  EXPECT_TRUE(median_seen);

  // Read back, the columns are the original ones, and none is added for what the writer fills
  // in (a report without columns stays without).
  const Report reread = parse_any_report(written.dump(), "g.json");
  ASSERT_EQ(reread.entries.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(reread.entries[i].sample_columns.size(), read.entries[i].sample_columns.size());
    for (std::size_t c = 0; c < read.entries[i].sample_columns.size(); ++c) {
      EXPECT_EQ(reread.entries[i].sample_columns[c].name, read.entries[i].sample_columns[c].name);
      EXPECT_EQ(reread.entries[i].sample_columns[c].values,
                read.entries[i].sample_columns[c].values);
    }
  }
  const Report plain =
      parse_any_report(to_google_benchmark_json(testing::sample_report()), "plain.json");
  for (const Entry& e : plain.entries)
    EXPECT_TRUE(e.sample_columns.empty()) << e.name;
}

TEST(GoogleBenchmarkJson, AMergeKeepsAColumnOnlyWhenEveryRunHasIt) {
  const Report read = parse_any_report(read_data("gbench_repetitions.json"), "gb.json");
  Report other = read;
  other.environment.created_utc = "2026-11-29T17:05:00+01:00";                     // another run
  other.entries[0].sample_columns.erase(other.entries[0].sample_columns.begin());  // cpu_time
  const Report merged = merge_reports({read, other}, {"a.json", "b.json"});
  ASSERT_EQ(merged.entries.size(), 2u);
  EXPECT_EQ(merged.entries[0].run_sizes, (std::vector<std::size_t>{3, 3}));
  ASSERT_EQ(merged.entries[0].sample_columns.size(), 2u);
  EXPECT_EQ(merged.entries[0].sample_columns[0].name, "iterations");
  EXPECT_EQ(merged.entries[0].sample_columns[0].values.size(), 6u);
  EXPECT_EQ(merged.entries[1].sample_columns.size(), 3u);
  EXPECT_EQ(merged.entries[1].sample_columns[0].values.size(), 6u);
}

TEST(GoogleBenchmarkReader, AggregatesAloneGiveTheMedianAndAWarning) {
  const Report r = parse_any_report(read_data("gbench_aggregates_only.json"), "gb.json");
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].samples, std::vector<double>{812});
  EXPECT_EQ(r.entries[1].samples, std::vector<double>{1250});
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(contains(r.warnings[0], "2 Google Benchmark benchmarks have only aggregates"))
      << r.warnings[0];
  EXPECT_TRUE(contains(r.warnings[0], "too few for kerntime compare")) << r.warnings[0];
}

TEST(GoogleBenchmarkReader, ReadsFilesOfOlderVersionsAndSaysWhenThereIsOneRepetition) {
  const Report r = parse_any_report(
      R"({"context": {"date": "2016-08-02 17:44:46", "num_cpus": 4},
          "benchmarks": [{"name": "BM_a", "iterations": 1000, "real_time": 10, "cpu_time": 10,
                          "time_unit": "ns"},
                         {"name": "BM_a_mean", "aggregate_name": "mean", "real_time": 11},
                         {"name": "BM_b", "iterations": 20, "real_time": 0.5, "cpu_time": 0.5,
                          "time_unit": "ms"}]})",
      "old.json");
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].name, "BM_a");  // the mean of old files' aggregates is BM_a's
  EXPECT_EQ(r.entries[0].samples, std::vector<double>{10});
  EXPECT_EQ(r.entries[1].samples, std::vector<double>{500'000});
  EXPECT_TRUE(any_warning(r, "2 Google Benchmark benchmarks have one repetition"));
}

TEST(GoogleBenchmarkReader, NamesTheFieldOfEveryMistake) {
  EXPECT_EQ(error_of(R"({"context": {}})"),
            "x.json: benchmarks: missing; a Google Benchmark file lists its runs in "
            "\"benchmarks\"");
  EXPECT_EQ(error_of(R"({"context": {}, "benchmarks": [{"name": "a", "real_time": "1"}]})"),
            "x.json: benchmarks[0].real_time: expected a finite number, got \"1\"");
  EXPECT_EQ(error_of(R"({"context": {}, "benchmarks": [{"real_time": 1}]})"),
            "x.json: benchmarks[0].name: missing; every run has a name");
  EXPECT_EQ(error_of(R"({"context": {}, "benchmarks": [{"name": "a", "real_time": -1}]})"),
            "x.json: benchmarks[0].real_time: expected a duration >= 0 ns, got -1");
  EXPECT_EQ(error_of(R"({"context": {}, "benchmarks": [{"name": "a"}]})"),
            "x.json: benchmarks[0].real_time: missing; every repetition has a real_time");
  EXPECT_EQ(error_of(R"({"context": {}, "benchmarks": [{"name": "a", "real_time": 1,
                                                         "time_unit": "min"}]})"),
            "x.json: benchmarks[0].time_unit: expected \"ns\", \"us\", \"ms\" or \"s\", got "
            "\"min\"");
  EXPECT_EQ(error_of(R"({"context": {}, "benchmarks": [7]})"),
            "x.json: benchmarks[0]: expected an object, got 7");
  EXPECT_EQ(error_of(R"({"context": {}, "benchmarks": [{"name": "a", "run_type": "other",
                                                         "real_time": 1}]})"),
            "x.json: benchmarks[0].run_type: expected \"iteration\" or \"aggregate\", got "
            "\"other\"");
  EXPECT_EQ(error_of(R"({"context": {}, "benchmarks": [{"name": "a", "real_time": 1e300,
                                                         "time_unit": "s"}]})"),
            "x.json: benchmarks[0].real_time: expected a finite duration, got 1e+300 (too large "
            "in ns)");
  EXPECT_EQ(error_of("{\"context\": {},\n \"benchmarks\": [{\"name\": \"a\",, }]}"),
            "x.json: line 2, column 30: invalid JSON: syntax error while parsing object key - "
            "unexpected ','; expected string literal");
}

}  // namespace
}  // namespace kerntime
