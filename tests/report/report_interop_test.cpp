// SPDX-License-Identifier: Apache-2.0
// Other tools' JSON: a kerntime report through Google Benchmark JSON and back, Google
// Benchmark's and NVBench's own files (tests/report/data, modeled on what they write) read into
// reports, detection by content, comparisons across formats, and the messages of malformed
// files.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>
#include <kerntime/measurement_info.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>

#include "report/sample_report.hpp"
#include "support/error_message.hpp"

namespace kerntime {
namespace {

const std::string kData = KERNTIME_TEST_DATA_DIR "/data";

std::string read_data(const std::string& name) {
  std::ifstream in(kData + "/" + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string error_of(const std::string& text, const std::string& source = "x.json") {
  return testing::error_message([&] { parse_any_report(text, source); });
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool any_warning(const Report& report, const std::string& part) {
  for (const std::string& w : report.warnings) {
    if (contains(w, part)) return true;
  }
  return false;
}

// ---- detection ----

TEST(ReportFileFormat, IsToldByContent) {
  EXPECT_EQ(detect_report_format(to_json(testing::sample_report())), ReportFileFormat::kerntime);
  EXPECT_EQ(detect_report_format(read_data("gbench_repetitions.json")),
            ReportFileFormat::google_benchmark);
  EXPECT_EQ(detect_report_format(read_data("nvbench_summaries.json")), ReportFileFormat::nvbench);
  // A file of "benchmarks" alone is told by its first benchmark.
  EXPECT_EQ(detect_report_format(R"({"benchmarks": [{"name": "a", "real_time": 1}]})"),
            ReportFileFormat::google_benchmark);
  EXPECT_EQ(detect_report_format(R"({"benchmarks": [{"name": "a", "states": []}]})"),
            ReportFileFormat::nvbench);
  // Anything else goes to kerntime's reader, which says what is wrong.
  EXPECT_EQ(detect_report_format("not json"), ReportFileFormat::kerntime);
  EXPECT_EQ(detect_report_format(R"({"entries": []})"), ReportFileFormat::kerntime);
  EXPECT_EQ(error_of("[1, 2"),
            "x.json: line 1, column 6: invalid JSON: syntax error while "
            "parsing array - unexpected end of input; expected ']'");
  EXPECT_EQ(to_string(ReportFileFormat::nvbench), "NVBench JSON");
}

// ---- kerntime -> Google Benchmark JSON ----

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

// ---- NVBench ----

TEST(NvbenchReader, ReadsEachStateAndMeasurementWithItsDevice) {
  const Report r = parse_any_report(read_data("nvbench_summaries.json"), "nv.json");
  ASSERT_EQ(r.entries.size(), 4u);  // two states, cold and batch each; the skipped one left out
  EXPECT_EQ(r.entries[0].name, "copy/T=I32/Elements=4194304/cold");
  EXPECT_EQ(r.entries[0].timer, "nvbench-cold");
  EXPECT_EQ(r.entries[0].device, 0);
  // Summaries only: the median GPU time, in ns, and what compare judges from.
  EXPECT_EQ(r.entries[0].samples, std::vector<double>{1.8336e-05 * 1e9});
  ASSERT_TRUE(r.entries[0].summary_only.has_value());
  EXPECT_EQ(r.entries[0].summary_only->count, 5u);
  EXPECT_DOUBLE_EQ(r.entries[0].summary_only->mean, 1.8336000000000002e-05 * 1e9);
  ASSERT_TRUE(r.entries[0].summary_only->relative_stdev.has_value());
  EXPECT_DOUBLE_EQ(*r.entries[0].summary_only->relative_stdev, 0.002759404590024766);
  // A batch has a mean and a size, and no noise.
  ASSERT_TRUE(r.entries[1].summary_only.has_value());
  EXPECT_EQ(r.entries[1].summary_only->count, 12000u);
  EXPECT_FALSE(r.entries[1].summary_only->relative_stdev.has_value());
  // Through kerntime's JSON and back.
  const Report again = parse_any_report(to_json(r), "r.json");
  ASSERT_TRUE(again.entries[0].summary_only.has_value());
  EXPECT_EQ(again.entries[0].summary_only->count, 5u);
  EXPECT_DOUBLE_EQ(again.entries[0].summary_only->mean, r.entries[0].summary_only->mean);
  EXPECT_EQ(again.entries[0].summary_only->relative_stdev,
            r.entries[0].summary_only->relative_stdev);
  EXPECT_FALSE(again.entries[1].summary_only->relative_stdev.has_value());
  EXPECT_EQ(r.entries[1].name, "copy/T=I32/Elements=4194304/hot");
  EXPECT_EQ(r.entries[1].timer, "nvbench-batch");
  EXPECT_EQ(r.entries[1].samples, std::vector<double>{1.7921e-05 * 1e9});
  EXPECT_EQ(r.entries[2].name, "copy/T=F64/Elements=4194304/cold");
  EXPECT_EQ(r.entries[2].samples, std::vector<double>{((3.6288e-05 + 3.6320e-05) / 2) * 1e9});

  ASSERT_EQ(r.environment.devices.size(), 1u);
  const DeviceInfo& d = r.environment.devices[0];
  EXPECT_EQ(d.index, 0);
  EXPECT_EQ(d.name, "NVIDIA H200");
  EXPECT_EQ(d.compute_capability_major, 9);
  EXPECT_EQ(d.compute_capability_minor, 0);
  EXPECT_EQ(d.multiprocessor_count, 132);
  EXPECT_EQ(d.sm_clock_khz, 1'980'000);
  EXPECT_EQ(d.memory_clock_khz, 3'201'000);
  EXPECT_EQ(d.memory_bus_width_bits, 6144);
  EXPECT_EQ(d.l2_cache_bytes, 62914560u);
  EXPECT_TRUE(d.ecc_enabled);

  ASSERT_EQ(r.warnings.size(), 3u);
  EXPECT_TRUE(contains(r.warnings[0],
                       "2 NVBench measurements have summaries only (no --jsonbin "
                       "sample files)"))
      << r.warnings[0];
  EXPECT_TRUE(contains(r.warnings[1], "2 NVBench batch measurements")) << r.warnings[1];
  EXPECT_EQ(r.warnings[2],
            "1 NVBench states were skipped and are left out (first: copy Device=0 T=I8 "
            "Elements=2^22: Type not supported on this device.)");
}

TEST(NvbenchReader, ReadsTheSampleTimesOfJsonbinFiles) {
  ReportReadOptions options;
  options.nvbench_directory = kData;
  const Report r = parse_any_report(read_data("nvbench_jsonbin.json"), "nv.json", options);
  ASSERT_EQ(r.entries.size(), 4u);
  // Little-endian float32 seconds, as NVBench writes them.
  const std::vector<float> cold{1.8304e-05f, 1.8336e-05f, 1.8272e-05f, 1.8400e-05f, 1.8368e-05f};
  ASSERT_EQ(r.entries[0].samples.size(), cold.size());
  for (std::size_t i = 0; i < cold.size(); ++i) {
    EXPECT_EQ(r.entries[0].samples[i], static_cast<double>(cold[i]) * 1e9) << i;
  }
  EXPECT_EQ(r.entries[2].samples.size(), 4u);
  EXPECT_EQ(r.entries[1].samples.size(), 1u);  // batch: NVBench writes its mean only
  EXPECT_FALSE(any_warning(r, "summaries only"));
  EXPECT_TRUE(any_warning(r, "2 NVBench batch measurements"));

  // Without the folder (standard input), or when the files were not copied along, the
  // summaries stand in and the warning says why.
  const Report piped = parse_any_report(read_data("nvbench_jsonbin.json"), "<stdin>");
  EXPECT_EQ(piped.entries[0].samples.size(), 1u);
  EXPECT_TRUE(any_warning(piped, "are not read without the JSON file's folder"));
  options.nvbench_directory = kData + "/no-such-folder";
  const Report moved = parse_any_report(read_data("nvbench_jsonbin.json"), "nv.json", options);
  EXPECT_TRUE(any_warning(moved,
                          "2 --jsonbin sample files it names were not found in its "
                          "folder, the working directory or its FILE-bin folder"));
}

// NVBench before its PR #405 named the sample files relative to the working directory it ran
// in ("results/bench.json-bin/0.bin" for --jsonbin results/bench.json). Read from there, or
// from anywhere through the JSON's own bench.json-bin folder, the samples are found; a planted
// 10 % regression then fails the gate instead of passing on one summary sample a side.
TEST(NvbenchReader, OldStyleSampleFileNamesAreFoundWhereverTheyWereWritten) {
  namespace fs = std::filesystem;
  const fs::path run = fs::path{::testing::TempDir()} / "kerntime_old_nvbench";
  fs::remove_all(run);
  fs::create_directories(run / "results");
  fs::copy(kData + "/nvbench_jsonbin.json-bin", run / "results" / "bench.json-bin");
  std::string text = read_data("nvbench_jsonbin.json");
  for (std::size_t at = text.find("nvbench_jsonbin.json-bin/"); at != std::string::npos;
       at = text.find("nvbench_jsonbin.json-bin/", at)) {
    text.replace(at, std::string{"nvbench_jsonbin.json-bin/"}.size(), "results/bench.json-bin/");
  }
  ReportReadOptions options;
  options.nvbench_directory = (run / "results").string();
  options.nvbench_json_name = "bench.json";
  // From elsewhere: the JSON's bench.json-bin folder.
  const Report elsewhere = parse_any_report(text, "results/bench.json", options);
  EXPECT_EQ(elsewhere.entries[0].samples.size(), 5u);
  EXPECT_FALSE(any_warning(elsewhere, "summaries only"));
  // From the folder NVBench ran in, with the -bin folder renamed: the working directory.
  fs::rename(run / "results" / "bench.json-bin", run / "results" / "renamed-bin");
  fs::create_directories(run / "results" / "bench.json-bin");
  fs::copy(run / "results" / "renamed-bin", run / "results" / "bench.json-bin");
  const fs::path before = fs::current_path();
  fs::current_path(run);
  options.nvbench_json_name = "other.json";  // so that only the working directory can match
  const Report there = parse_any_report(text, "results/bench.json", options);
  fs::current_path(before);
  EXPECT_EQ(there.entries[0].samples.size(), 5u);
  EXPECT_FALSE(any_warning(there, "summaries only"));
  fs::remove_all(run);
}

TEST(NvbenchReader, SeveralDevicesAreToldApartByName) {
  const std::string two = R"({"meta": {}, "benchmarks": [{"name": "k", "devices": [0, 1],
      "states": [
        {"name": "Device=0", "device": 0, "axis_values": null, "summaries": [
          {"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64",
                                                     "value": "2e-06"}]}]},
        {"name": "Device=1", "device": 1, "axis_values": [{"name": "x", "type": "float64",
                                                           "value": "0.5"}], "summaries": [
          {"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64",
                                                     "value": "3e-06"}]}]}]}]})";
  const Report r = parse_any_report(two, "two.json");
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].name, "k/device=0/cold");
  EXPECT_EQ(r.entries[1].name, "k/device=1/x=0.5/cold");
  EXPECT_EQ(r.entries[1].device, 1);
  EXPECT_DOUBLE_EQ(r.entries[1].samples[0], 3000.0);
}

// Float64 axis values read as NVBench prints them ("{:0.5g}"), whether the file wrote a string
// or a number; other types keep their text.
TEST(NvbenchReader, Float64AxisValuesReadAsNvbenchPrintsThem) {
  const std::string text = R"({"meta": {}, "benchmarks": [{"name": "sleep", "devices": [0],
      "states": [
        {"name": "a", "device": 0, "axis_values": [
          {"name": "Duration", "type": "float64", "value": "0.00030000000000000003"},
          {"name": "Scale", "type": "float64", "value": 1.2345678},
          {"name": "Tag", "type": "string", "value": "0.10000000000000001"}], "summaries": [
          {"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64",
                                                     "value": "2e-06"}]}]}]}]})";
  const Report r = parse_any_report(text, "sleep.json");
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].name, "sleep/Duration=0.0003/Scale=1.2346/Tag=0.10000000000000001/cold");
}

TEST(NvbenchReader, NamesTheFieldOfEveryMistake) {
  const auto state = [](const std::string& summaries) {
    return R"({"meta": {}, "benchmarks": [{"name": "k", "states": [{"summaries": [)" + summaries +
           "]}]}]}";
  };
  EXPECT_EQ(error_of(R"({"meta": {}})"),
            "x.json: benchmarks: missing; an NVBench file lists its benchmarks in \"benchmarks\"");
  EXPECT_EQ(error_of(state(R"({"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value",
                                                                           "value": "fast"}]})")),
            "x.json: benchmarks[0].states[0].summaries[0].data[0].value: expected a number, got "
            "\"fast\"");
  EXPECT_EQ(error_of(state(R"({"data": []})")),
            "x.json: benchmarks[0].states[0].summaries[0].tag: missing; every summary has a tag");
  EXPECT_EQ(error_of(state(R"({"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value",
                                                                           "value": "-1e-6"}]})")),
            "x.json: benchmarks[0].states[0].summaries[0].data[0].value: expected a finite "
            "number >= 0, got \"-1e-6\"");
  EXPECT_EQ(error_of(R"({"meta": {}, "benchmarks": [{"states": []}]})"),
            "x.json: benchmarks[0].name: missing; every benchmark has a name");
  EXPECT_EQ(error_of(R"({"meta": {}, "devices": [{"id": -2}], "benchmarks": []})"),
            "x.json: devices[0].id: expected an integer from 0 to 2147483647, got -2");
}

TEST(NvbenchReader, ADurationTooLargeInNanosecondsIsWordedAsGoogleBenchmarkSays) {
  // 1e300 s is a double, 1e309 ns is not; both readers say so in the same words.
  const std::string nvbench = error_of(R"({"meta": {}, "benchmarks": [{"name": "k", "states": [
      {"summaries": [{"tag": "nv/cold/time/gpu/median", "data": [
        {"name": "value", "type": "float64", "value": "1e300"}]}]}]}]})");
  EXPECT_EQ(nvbench,
            "x.json: benchmarks[0].states[0].summaries[0].data[0].value: expected a finite "
            "duration, got \"1e300\" (too large in ns)");
  const std::string gbench = error_of(R"({"context": {}, "benchmarks": [{"name": "a",
      "real_time": 1e300, "time_unit": "s"}]})");
  EXPECT_EQ(gbench,
            "x.json: benchmarks[0].real_time: expected a finite duration, got 1e+300 (too large "
            "in ns)");
  const auto reason = [](const std::string& message) {
    return message.substr(message.find(": expected"),
                          message.find(", got") - message.find(": expected"));
  };
  EXPECT_EQ(reason(nvbench), reason(gbench));
}

TEST(NvbenchReader, RefusesASampleFileOfTheWrongSize) {
  const std::string dir = ::testing::TempDir() + "kerntime_nvbench_short";
  std::filesystem::create_directories(dir + "/r.json-bin");
  std::ofstream(dir + "/r.json-bin/0.bin", std::ios::binary) << "abcdef";  // 6 bytes
  const std::string json = R"({"meta": {}, "benchmarks": [{"name": "k", "states": [{"summaries": [
      {"tag": "nv/json/bin:nv/cold/sample_times", "data": [
        {"name": "filename", "type": "string", "value": "r.json-bin/0.bin"},
        {"name": "size", "type": "int64", "value": "2"}]}]}]}]})";
  ReportReadOptions options;
  options.nvbench_directory = dir;
  try {
    parse_any_report(json, "r.json", options);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string{error.what()},
              dir +
                  "/r.json-bin/0.bin: holds 6 bytes, but r.json "
                  "(benchmarks[0].states[0].summaries[0]) says 2 float32 samples (8 bytes)");
  }
}

// ---- comparisons across formats ----

TEST(InteropCompare, AReportAndItsGoogleBenchmarkJsonAreTheSame) {
  const Report report = testing::sample_report();
  const Report read = parse_any_report(to_google_benchmark_json(report), "g.json");
  CompareOptions options;
  const Comparison comparison = compare(report, read, options);
  ASSERT_TRUE(comparison.usable()) << comparison.unusable_reason;
  EXPECT_FALSE(comparison.failed());
  for (const EntryComparison& e : comparison.entries) {
    if (e.name == "empty") continue;  // no samples: not written
    EXPECT_NE(e.verdict, Verdict::regressed) << e.name;
    EXPECT_NE(e.verdict, Verdict::improved) << e.name;
  }
}

TEST(InteropCompare, NvbenchRunsCompareWithEachOtherButNotWithAnotherTimer) {
  ReportReadOptions options;
  options.nvbench_directory = kData;
  const Report nvbench = parse_any_report(read_data("nvbench_jsonbin.json"), "nv.json", options);
  Report slower = nvbench;
  for (double& sample : slower.entries[0].samples)
    sample *= 1.5;
  slower.entries[0].statistics = compute_statistics(slower.entries[0].samples);
  const Comparison comparison = compare(nvbench, slower, CompareOptions{});
  ASSERT_TRUE(comparison.usable()) << comparison.unusable_reason;
  EXPECT_EQ(comparison.entries[0].name, "copy/T=I32/Elements=4194304/cold");
  EXPECT_EQ(comparison.entries[0].verdict, Verdict::regressed);

  // The same names measured by kerntime's cuda-event timer are another measurement.
  Report kerntime = nvbench;
  for (Entry& e : kerntime.entries)
    e.timer = "cuda-event";
  const Comparison across = compare(nvbench, kerntime, CompareOptions{});
  EXPECT_FALSE(across.usable());
  EXPECT_TRUE(contains(across.unusable_reason, "another timer")) << across.unusable_reason;
}

}  // namespace
}  // namespace kerntime

namespace kerntime {
namespace {

// What kerntime or a CI system writes beside reports is named as what it is, not "not JSON".
TEST(ReportFileFormat, CsvAndXmlAreNamedAsSuch) {
  const auto message = [](const std::string& text, const std::string& source) {
    try {
      parse_any_report(text, source);
    } catch (const Error& e) {
      return std::string{e.what()};
    }
    return std::string{"no error"};
  };
  EXPECT_EQ(message("name,timer,samples,median_ns\nk,cupti-kernel,20,2600\n", "out.csv"),
            "out.csv is CSV (such as kerntime report --format csv writes?), which keeps no "
            "samples and cannot be read back; give a report in JSON: kerntime's, Google "
            "Benchmark's or NVBench's");
  EXPECT_EQ(message("\xEF\xBB\xBF  <?xml version=\"1.0\"?>\n<testsuites/>\n", "result.xml"),
            "result.xml is XML (a JUnit file such as kerntime compare --format junit writes?), "
            "not a report; give a report in JSON: kerntime's, Google Benchmark's or NVBench's");
  // JSON, even broken JSON, is left to the JSON reader.
  EXPECT_EQ(message("{\"schema\": ", "cut.json").find("is CSV"), std::string::npos);
}

}  // namespace
}  // namespace kerntime
