// SPDX-License-Identifier: Apache-2.0
// The gate on NVBench histories, run as a CI job runs it (issue 29): a pair of `--json` files
// of summaries only, and an old-style `--jsonbin` pair whose sample files are named relative to
// the working directory. A planted 10 % regression fails the gate (exit 1); identical files pass.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/nvbench_sample_file.hpp"
#include "support/run_command.hpp"
#include "support/text_counts.hpp"

namespace kerntime {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::run_command;

// Written by NVBench 0.1.0 (`--json`, no `--jsonbin`) on an H200: cold summaries with sample
// size, mean, median, min and relative stdev; batch means.
const std::string kSummaries = KERNTIME_TEST_DATA_DIR "/../report/data/nvbench_summaries.json";

CommandResult kerntime_in(const fs::path& folder, const std::string& arguments) {
  return run_command("cd '" + folder.string() + "' && NO_COLOR= '" KERNTIME_EXECUTABLE "' " +
                     arguments);
}

using testing::count_lines_with;

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// NVBench's numbers are strings of seconds; "%.17g" keeps a planted factor exact enough.
std::string seconds_text(double seconds) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", seconds);
  return buffer;
}

// The same file with every cold GPU time (mean, median, min, max) times `factor`; the noise,
// a ratio, stays.
nlohmann::json with_cold_times_scaled(nlohmann::json root, double factor) {
  for (auto& benchmark : root["benchmarks"]) {
    for (auto& state : benchmark["states"]) {
      if (!state.contains("summaries") || state["summaries"].is_null()) continue;
      for (auto& summary : state["summaries"]) {
        const std::string tag = summary["tag"];
        if (tag.rfind("nv/cold/time/gpu/", 0) != 0 || tag.find("stdev") != std::string::npos) {
          continue;
        }
        for (auto& datum : summary["data"]) {
          if (datum["name"] != "value") continue;
          datum["value"] = seconds_text(std::stod(datum["value"].get<std::string>()) * factor);
        }
      }
    }
  }
  return root;
}

class NvbenchGate : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::path{::testing::TempDir()} / (std::string{"kerntime_nvbench_gate_"} + test->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(NvbenchGate, SummaryOnlyJsonPairIsJudgedAndAPlantedRegressionFails) {
  const nlohmann::json base = read_json(kSummaries);
  write_text(root_ / "ref.json", base.dump(2));
  write_text(root_ / "same.json", base.dump(2));
  write_text(root_ / "slower.json", with_cold_times_scaled(base, 1.10).dump(2));

  const CommandResult same = kerntime_in(root_, "compare ref.json same.json");
  EXPECT_EQ(same.exit_status, 0) << same.out << same.err;
  // Both cold entries are decided from NVBench's summaries; the batch means have no noise.
  EXPECT_EQ(count_lines_with(same.out, "/cold  "), 2) << same.out;
  EXPECT_EQ(count_lines_with(same.out, " same "), 2) << same.out;
  EXPECT_EQ(count_lines_with(same.out, "nvbench_compare.py: SAME"), 2) << same.out;
  EXPECT_NE(same.out.find("0 regressed, 0 improved, 2 same, 2 inconclusive"), std::string::npos)
      << same.out;

  const CommandResult slower = kerntime_in(root_, "compare ref.json slower.json");
  EXPECT_EQ(slower.exit_status, 1) << slower.out << slower.err;
  EXPECT_NE(slower.out.find("2 regressed"), std::string::npos) << slower.out;
  EXPECT_NE(slower.out.find("means 10.0% slower (NVBench's summaries: 5 and 5 samples"),
            std::string::npos)
      << slower.out;
  EXPECT_EQ(count_lines_with(slower.out, "nvbench_compare.py: SLOW"), 2) << slower.out;
  // The JUnit view fails them too.
  const CommandResult junit = kerntime_in(root_, "compare ref.json slower.json --format junit");
  EXPECT_EQ(junit.exit_status, 1);
  EXPECT_EQ(count_lines_with(junit.out, "<failure type=\"regressed\""), 2) << junit.out;
}

// 200 cold samples around `seconds`, spread +-1 % in a fixed pattern.
std::vector<float> samples_around(double seconds) {
  std::vector<float> out;
  for (int i = 0; i < 200; ++i) {
    out.push_back(static_cast<float>(seconds * (1.0 + 0.01 * ((i * 37 % 200) / 100.0 - 1.0))));
  }
  return out;
}

// An NVBench JSON of releases before PR #405: `--jsonbin results/NAME.json` run in the working
// directory names its sample file "results/NAME.json-bin/0.bin", relative to that directory,
// not to the JSON's folder.
std::string old_style_jsonbin(const std::string& name, double median_seconds) {
  return R"({"meta": {"version": {"nvbench": {"string": "0.1.0"}}}, "devices": [],
  "benchmarks": [{"name": "reduce", "devices": [0], "axes": null, "states": [
    {"name": "Device=0", "device": 0, "axis_values": null, "summaries": [
      {"tag": "nv/cold/sample_size", "data": [{"name": "value", "type": "int64", "value": "200"}]},
      {"tag": "nv/cold/time/gpu/median", "data": [{"name": "value", "type": "float64",
        "value": ")" +
         seconds_text(median_seconds) + R"("}]},
      {"tag": "nv/json/bin:nv/cold/sample_times", "data": [
        {"name": "filename", "type": "string", "value": "results/)" +
         name + R"(.json-bin/0.bin"},
        {"name": "size", "type": "int64", "value": "200"}]}]}]}]})";
}

TEST_F(NvbenchGate, OldStyleJsonbinPairFindsItsSamplesAndAPlantedRegressionFails) {
  const fs::path work = root_ / "work";
  testing::write_nvbench_samples(work / "results/ref.json-bin/0.bin", samples_around(20e-6));
  testing::write_nvbench_samples(work / "results/same.json-bin/0.bin", samples_around(20e-6));
  testing::write_nvbench_samples(work / "results/slower.json-bin/0.bin", samples_around(22e-6));
  write_text(work / "results/ref.json", old_style_jsonbin("ref", 20e-6));
  write_text(work / "results/same.json", old_style_jsonbin("same", 20e-6));
  write_text(work / "results/slower.json", old_style_jsonbin("slower", 22e-6));

  const CommandResult same = kerntime_in(work, "compare results/ref.json results/same.json");
  EXPECT_EQ(same.exit_status, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("0 regressed, 0 improved, 1 same"), std::string::npos) << same.out;
  // The samples were found: no entry stands on a summary.
  EXPECT_EQ(same.err.find("summaries only"), std::string::npos) << same.err;
  EXPECT_EQ(same.out.find("summaries only"), std::string::npos) << same.out;

  const CommandResult slower = kerntime_in(work, "compare results/ref.json results/slower.json");
  EXPECT_EQ(slower.exit_status, 1) << slower.out << slower.err;
  EXPECT_NE(slower.out.find("1 regressed"), std::string::npos) << slower.out;
  EXPECT_NE(slower.out.find("median 10.0% slower"), std::string::npos) << slower.out;

  // From another directory the files are still found under the JSON's own `<json>-bin/`.
  const CommandResult elsewhere =
      kerntime_in(root_, "compare work/results/ref.json work/results/slower.json");
  EXPECT_EQ(elsewhere.exit_status, 1) << elsewhere.out << elsewhere.err;
  EXPECT_NE(elsewhere.out.find("1 regressed"), std::string::npos) << elsewhere.out;
}

}  // namespace
}  // namespace kerntime
