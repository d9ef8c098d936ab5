// SPDX-License-Identifier: Apache-2.0
// `kerntime report` run as a user runs it: repeated runs merged, bad merges and inputs refused
// with exit status 2 naming the file, devices and FIFOs without a writer, the trace section
// kept or said to be dropped, and how the engine measured each entry.
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "support/readable_text.hpp"

namespace kerntime {
namespace {

using namespace cli_test;

TEST(ReportCli, ReportMergesRepeatedRuns) {
  CommandResult r = kerntime("report base.json rerun.json --format json");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["entries"].size(), 4u);
  EXPECT_EQ(j["entries"][0]["name"], "saxpy");
  EXPECT_EQ(j["entries"][0]["samples"].size(), 60u);
  EXPECT_EQ(j["entries"][3]["samples"].size(), 30u);  // retired_kernel: only in base.json

  r = kerntime("report minimal.json --format csv");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "saxpy")) << r.out;
  for (const char* format : {"table", "md"}) {
    EXPECT_EQ(kerntime(std::string("report base.json --format ") + format).exit_status, 0);
  }
  const std::string path = temp_path("merged.json");
  EXPECT_EQ(
      kerntime("report base.json rerun.json --output '" + path + "' --format json").exit_status, 0);
  EXPECT_EQ(kerntime("compare base.json '" + path + "'").exit_status, 0);
}

TEST(ReportCli, ReportKeepsEachFileAsARun) {
  const std::string path = temp_path("runs.json");
  CommandResult r = kerntime("report base.json rerun.json --format json -o '" + path + "'");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read_file(path));
  EXPECT_EQ(j["entries"][0]["runs"], nlohmann::json::array({30, 30}));
  EXPECT_FALSE(j["entries"][3].contains("runs"));  // retired_kernel: one run, written as before
  // A baseline of runs compared with one run works (2 + 1 runs: one degree of freedom, so the
  // verdict is cautious), and the reason says that the counts differ.
  r = kerntime("compare '" + path + "' slower.json");
  EXPECT_NE(r.exit_status, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "run counts differ: 2 baseline, 1 candidate")) << r.out;
}

TEST(ReportCli, ReportRefusesBadMerges) {
  CommandResult r = kerntime("report base.json base.json --format json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err, "kerntime: base.json is given twice; each report can be merged only once.\n");
  r = kerntime("report base.json ./base.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "./base.json is given twice")) << r.err;
  const std::string copy = temp_path("copy_of_base.json");
  std::ofstream(copy) << read_file(kData + "/base.json");
  r = kerntime("report base.json '" + copy + "'");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "has the same content as base.json")) << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  r = kerntime("report base.json other_gpu.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err.rfind("kerntime: other_gpu.json was measured on another GPU than base.json: "
                        "GPU differs",
                        0),
            0u)
      << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
}

TEST(ReportCli, ReportErrorsExitTwo) {
  CommandResult r = kerntime("report base.json malformed.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "malformed.json: entries[1].samples[2]")) << r.err;
  EXPECT_EQ(kerntime("report").exit_status, 2);
  EXPECT_EQ(kerntime("report base.json --format xml").exit_status, 2);
  r = kerntime("report --help");
  EXPECT_EQ(r.exit_status, 0);
  EXPECT_TRUE(contains(r.out, "each file becomes\none run (process)")) << r.out;
}

// Report arguments are bounded, and devices are refused: /dev/zero used to read until
// std::bad_alloc. A FIFO is read (tests/cli/cli_files_test.cpp), but one without a writer, which
// blocked forever, fails at once.
TEST(ReportCli, DevicesAndFifosWithoutAWriterAreRefusedNamingTheFile) {
  CommandResult r = kerntime("report /dev/zero");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err,
            "kerntime: /dev/zero: cannot read report: it is a character device, not a regular "
            "file\n");
  const std::string fifo = temp_path("fifo");
  std::remove(fifo.c_str());
  ASSERT_EQ(run_command("mkfifo '" + fifo + "'").exit_status, 0);
  r = kerntime("compare base.json '" + fifo + "'");
  std::remove(fifo.c_str());
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "nothing was written to the pipe (it is a FIFO without a writer"))
      << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  // A link to a report and standard input still work.
  const std::string link = temp_path("link.json");
  std::remove(link.c_str());
  ASSERT_EQ(run_command("ln -s '" + kData + "/base.json' '" + link + "'").exit_status, 0);
  EXPECT_EQ(kerntime("compare base.json '" + link + "'").exit_status, 0);
  EXPECT_EQ(kerntime("report - < base.json").exit_status, 0);
  std::remove(link.c_str());
}

// Option values out of range are usage errors that name the option and the value: --min-change
// 1e308s used to reach format_duration with infinity, --min-samples past long long was clamped.

// `kerntime report --format json` used to drop the trace section of its input, even for one file.
TEST(ReportCli, ReportJsonKeepsTheTraceSection) {
  const std::string golden = KERNTIME_TEST_DATA_DIR "/../report/golden/report_with_trace.json";
  const CommandResult r = kerntime("report '" + golden + "' --format json");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const nlohmann::json out = nlohmann::json::parse(r.out);
  const nlohmann::json in = nlohmann::json::parse(read_file(golden));
  ASSERT_TRUE(out.contains("trace")) << r.out.substr(0, 500);
  EXPECT_EQ(out["trace"], in["trace"]);
}

TEST(ReportCli, ReportShowsHowTheEngineMeasuredEachEntry) {
  const CommandResult table = kerntime("report '" + kEngineReport + "'");
  ASSERT_EQ(table.exit_status, 0) << table.err;
  EXPECT_TRUE(contains(table.out, "How the benchmark engine measured each entry:")) << table.out;
  EXPECT_TRUE(contains(table.out, "device_copy/bytes=67108864/cold      cold  cupti-kernel"))
      << table.out;
  EXPECT_TRUE(contains(table.out, "608.0 ns (cache)")) << table.out;
  EXPECT_TRUE(contains(table.out, "3909.0   79.5%")) << table.out;
  // The sort's elements and counters, read from the file: items/s and segments/s at its median
  // of 812.5 us, bytes/elem as declared.
  EXPECT_TRUE(contains(table.out, "TFLOP/s  Items/s  segments/s  bytes/elem  Stop")) << table.out;
  EXPECT_TRUE(contains(table.out, "-   1.291G      40.33M           4  stable")) << table.out;
  const CommandResult csv = kerntime("report '" + kEngineReport + "' --format csv");
  ASSERT_EQ(csv.exit_status, 0) << csv.err;
  EXPECT_TRUE(contains(csv.out, ",kernel_fixed_cost_source,")) << csv.out;
  EXPECT_TRUE(contains(csv.out, ",work_elements,items_per_s,segments/s,bytes/elem\n")) << csv.out;
  const CommandResult json = kerntime("report '" + kEngineReport + "' --format json");
  ASSERT_EQ(json.exit_status, 0) << json.err;
  const nlohmann::json out = nlohmann::json::parse(json.out);
  const nlohmann::json in = nlohmann::json::parse(read_file(kEngineReport));
  EXPECT_EQ(out["entries"][0]["measurement"], in["entries"][0]["measurement"]);
  EXPECT_FALSE(out["entries"][1].contains("measurement"));  // the /events twin
}

TEST(ReportCli, ReportSaysWhenMergingDropsTraceSections) {
  const std::string golden = KERNTIME_TEST_DATA_DIR "/../report/golden/report_with_trace.json";
  nlohmann::json report = nlohmann::json::parse(read_file(golden));
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& entry : report["entries"]) {
    if (!entry["samples"].empty()) entries.push_back(entry);  // a run needs samples to merge
  }
  report["entries"] = entries;
  const std::string first = temp_path("traced1.json");
  const std::string second = temp_path("traced2.json");
  std::ofstream(first) << report.dump();
  report["environment"]["created_utc"] = "2026-01-01T00:00:00Z";
  for (auto& entry : report["entries"]) {
    for (auto& sample : entry["samples"])
      sample = sample.get<double>() * 1.01;
  }
  std::ofstream(second) << report.dump();
  const std::string untraced = temp_path("untraced.json");
  report.erase("trace");
  report["environment"]["created_utc"] = "2026-01-02T00:00:00Z";
  std::ofstream(untraced) << report.dump();

  const std::string out = temp_path("traced_merged.json");
  CommandResult r =
      kerntime("report '" + first + "' '" + second + "' --format json -o '" + out + "'");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("kerntime report: warning: dropped the trace sections of ", 0), 0u)
      << r.err;
  EXPECT_TRUE(contains(r.err, "traced1.json")) << r.err;
  EXPECT_TRUE(contains(r.err, "traced2.json")) << r.err;
  EXPECT_TRUE(contains(r.err, "share no clock")) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(read_file(out)).contains("trace"));
  // Shown with the table too; one file keeps its trace and says nothing.
  r = kerntime("report '" + first + "' '" + second + "'");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  r = kerntime("report '" + first + "' --format json");
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(nlohmann::json::parse(r.out).contains("trace"));
  // Only a file with a trace section is named.
  r = kerntime("report '" + first + "' '" + untraced + "' --format json");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "dropped the trace section of ")) << r.err;
  EXPECT_FALSE(contains(r.err, "untraced.json")) << r.err;
}

}  // namespace
}  // namespace kerntime
