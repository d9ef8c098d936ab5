// SPDX-License-Identifier: Apache-2.0
// `kerntime report` and `kerntime compare` with other tools' files, as a user runs them: Google
// Benchmark JSON written and read back, NVBench files (with their --jsonbin samples beside
// them) read, and the nsys-style summaries of a report's trace section.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::CommandResult;
using testing::run_command;

const std::string kData = KERNTIME_TEST_DATA_DIR "/data";
const std::string kGolden = KERNTIME_TEST_DATA_DIR "/golden";

CommandResult kerntime(const std::string& arguments) {
  return run_command("cd '" + kData + "' && NO_COLOR= '" KERNTIME_EXECUTABLE "' " + arguments);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "kerntime_interop_" + name;
}

TEST(InteropCli, GoogleBenchmarkJsonWrittenByReportReadsBackInCompare) {
  // A kerntime report against its Google Benchmark JSON gives every verdict and figure that the
  // report against itself gives: the same samples and timers came back.
  const std::string base = "'" KERNTIME_TEST_DATA_DIR "/../compare/data/base.json'";
  const std::string exported = temp_path("base_gbench.json");
  const CommandResult written =
      kerntime("report " + base + " --format gbench-json -o '" + exported + "'");
  ASSERT_EQ(written.exit_status, 0) << written.err;
  const CommandResult compared = kerntime("compare " + base + " '" + exported + "' --format json");
  EXPECT_EQ(compared.exit_status, 0) << compared.out << compared.err;
  const CommandResult itself = kerntime("compare " + base + " " + base + " --format json");
  ASSERT_EQ(itself.exit_status, 0) << itself.err;
  const auto across = nlohmann::json::parse(compared.out);
  const auto same = nlohmann::json::parse(itself.out);
  EXPECT_EQ(across["entries"], same["entries"]);
  EXPECT_EQ(across["summary"], same["summary"]);
  EXPECT_EQ(across["summary"]["same"], 2);

  // Google Benchmark's own file: its three repetitions per benchmark are the samples.
  const std::string again = temp_path("gbench.json");
  ASSERT_EQ(kerntime("report gbench_repetitions.json --format gbench-json -o '" + again + "'")
                .exit_status,
            0);
  const auto json = nlohmann::json::parse(std::ifstream(again));
  EXPECT_EQ(json["benchmarks"].size(), 2u * (3 + 4));
  const CommandResult gbench = kerntime("compare gbench_repetitions.json '" + again + "'");
  EXPECT_EQ(gbench.exit_status, 0) << gbench.out << gbench.err;
  EXPECT_TRUE(contains(gbench.out, "too few samples (3 baseline, 3 candidate)")) << gbench.out;
}

TEST(InteropCli, AggregatesOnlyIsForGoogleBenchmarkJson) {
  const CommandResult r = kerntime("report gbench_repetitions.json --aggregates-only");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "--aggregates-only applies to --format gbench-json only")) << r.err;
  const CommandResult ok =
      kerntime("report gbench_repetitions.json --format gbench-json --aggregates-only");
  ASSERT_EQ(ok.exit_status, 0) << ok.err;
  EXPECT_EQ(nlohmann::json::parse(ok.out)["benchmarks"].size(), 2u * 4);
}

TEST(InteropCli, NvbenchFilesAreReadWithTheirSampleFiles) {
  const CommandResult r = kerntime("report nvbench_jsonbin.json --format csv");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "copy/T=I32/Elements=4194304/cold,nvbench-cold,0,5,")) << r.out;
  // From standard input the sample files cannot be found: the summaries stand in.
  const CommandResult piped = kerntime("report - < nvbench_jsonbin.json");
  ASSERT_EQ(piped.exit_status, 0) << piped.err;
  EXPECT_TRUE(contains(piped.out, "are not read without the JSON file's folder")) << piped.out;
  const CommandResult same = kerntime("compare nvbench_jsonbin.json nvbench_jsonbin.json");
  EXPECT_EQ(same.exit_status, 0) << same.out << same.err;
}

TEST(InteropCli, AnNvbenchFileCannotMakeReportPrintAnotherFile) {
  // Issue 25: a JSON naming "../secret" as its sample file made `report --format json` print
  // the secret's bytes as samples. The secret: two float32 values, 0x41424344 and 0x45464748.
  const std::string root = temp_path("disclosure");
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root + "/upload");
  std::ofstream(root + "/secret", std::ios::binary) << "DCBAHGFE";
  std::ofstream(root + "/upload/bench.json")
      << R"({"meta": {}, "benchmarks": [{"name": "k", "states": [{"summaries": [
           {"tag": "nv/cold/time/gpu/median", "data": [{"name": "value", "value": "1e-6"}]},
           {"tag": "nv/json/bin:nv/cold/sample_times", "data": [
             {"name": "filename", "type": "string", "value": "../secret"},
             {"name": "size", "type": "int64", "value": "2"}]}]}]}]})";
  const CommandResult r = kerntime("report '" + root + "/upload/bench.json' --format json");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  ASSERT_EQ(json["entries"].size(), 1u);
  EXPECT_EQ(json["entries"][0]["samples"], nlohmann::json::parse("[1000.0]"));
  ASSERT_EQ(json["warnings"].size(), 2u) << json["warnings"];
  EXPECT_EQ(json["warnings"][0],
            "NVBench sample file \"../secret\" of entry \"k/cold\" lies outside the folder of " +
                root + "/upload/bench.json; refused, NVBench's summaries stand in");
  std::filesystem::remove_all(root);
}

TEST(InteropCli, AMalformedFileIsExitStatusTwoWithOneLine) {
  const std::string bad = temp_path("bad_gbench.json");
  std::ofstream(bad) << R"({"context": {}, "benchmarks": [{"name": "a", "real_time": "x"}]})";
  const CommandResult r = kerntime("report '" + bad + "'");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err, "kerntime: " + bad +
                       ": benchmarks[0].real_time: expected a finite number, got "
                       "\"x\"\n");
}

TEST(InteropCli, TraceSummariesOfAReport) {
  const std::string report = "'" + kGolden + "/report_with_trace.json'";
  const CommandResult api = kerntime("report " + report + " --trace-summary cuda_api_sum");
  ASSERT_EQ(api.exit_status, 0) << api.err;
  EXPECT_TRUE(contains(api.out, " ** CUDA API Summary (cuda_api_sum):\n\nTime (%)")) << api.out;
  EXPECT_TRUE(contains(api.out, "warning: the report lists 2 of 5 API calls")) << api.out;

  const CommandResult all = kerntime("report " + report + " --trace-summary all --format json");
  ASSERT_EQ(all.exit_status, 0) << all.err;
  const auto json = nlohmann::json::parse(all.out);
  for (const char* name : {"cuda_gpu_kern_sum", "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum",
                           "cuda_api_sum", "cuda_kern_exec_sum"}) {
    EXPECT_TRUE(json.contains(name)) << name;
  }
  EXPECT_EQ(json["cuda_gpu_mem_size_sum"]["operations"][0]["operation"],
            "[CUDA memcpy Host-to-Device]");
  EXPECT_EQ(json["cuda_gpu_mem_size_sum"]["operations"][0]["total_bytes"], 8 << 20);

  const CommandResult md =
      kerntime("report " + report + " --trace-summary cuda_kern_exec_sum --format md");
  ASSERT_EQ(md.exit_status, 0) << md.err;
  EXPECT_TRUE(contains(md.out, "### CUDA Kernel Launch & Exec Time Summary (cuda_kern_exec_sum)"))
      << md.out;

  const CommandResult csv = kerntime("report " + report +
                                     " --trace-summary cuda_api_sum --trace-summary "
                                     "cuda_gpu_mem_time_sum --format csv");
  EXPECT_EQ(csv.exit_status, 2);
  EXPECT_TRUE(contains(csv.err, "--format csv holds one table")) << csv.err;
  const CommandResult unknown = kerntime("report " + report + " --trace-summary cuda_gpu_trace");
  EXPECT_EQ(unknown.exit_status, 2);
  EXPECT_TRUE(contains(unknown.err, "unknown trace summary \"cuda_gpu_trace\"")) << unknown.err;
  const CommandResult none = kerntime("report gbench_repetitions.json --trace-summary all");
  EXPECT_EQ(none.exit_status, 2);
  EXPECT_TRUE(contains(none.err, "the report has no trace section")) << none.err;
}

}  // namespace
}  // namespace kerntime
