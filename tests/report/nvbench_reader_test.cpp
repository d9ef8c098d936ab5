// SPDX-License-Identifier: Apache-2.0
// NVBench's JSON read into reports: each state and measurement with its device, the sample
// times of --jsonbin files wherever they were written, axis values as NVBench prints them, and
// the field every mistake names.
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

}  // namespace
}  // namespace kerntime
