// SPDX-License-Identifier: Apache-2.0
// Helper processes that start CUDA and launch nothing (torch.compile's workers): listed once in
// the summary, not warned about one by one, when another process of the run did the work. The
// reports are made by the injection library's own code, so its wording and the command's
// detection cannot drift apart.
#include "cli/idle_processes.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/report_json.hpp>

#include "inject/end_of_process.hpp"
#include "inject/run_recorder.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::run_command;

// A process's final report as the injection library writes it: `kernels` kernels recorded.
Report process_report(const std::string& label, int kernels) {
  inject::RunSettings settings;
  settings.output_directory = "/tmp";
  inject::RunRecorder recorder(settings);
  trace::RecordBatch batch;
  for (int i = 0; i < kernels; ++i) {
    trace::RawKernel k;
    k.name = "work_kernel";
    k.start_ns = 1000 + static_cast<std::uint64_t>(i) * 100;
    k.end_ns = k.start_ns + 50;
    batch.kernels.push_back(k);
  }
  recorder.append(std::move(batch));
  Report report = recorder.report();
  report.environment.host_name = "gpu1 " + label;
  inject::ProcessEnd end;
  inject::RecordAccount account;
  account.launches = static_cast<std::uint64_t>(kernels);
  account.kernel_records = account.launches;
  end.records = account;
  inject::add_end_warnings(report, end);
  return report;
}

int occurrences(const std::string& text, const std::string& part) {
  int count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++count;
  return count;
}

TEST(IdleProcesses, HelpersWithoutGpuWorkAreListedNotWarnedAbout) {
  std::vector<Report> reports{process_report("pid 3069 (python)", 5),
                              process_report("pid 3070 (python)", 0),
                              process_report("pid 3071 (pt_compile)", 0)};
  ASSERT_EQ(reports[1].warnings.size(), 1u);  // the library's own sentence
  const cli::IdleProcesses idle =
      cli::take_idle_processes(reports, {"gpu1.pid3069", "gpu1.pid3070", "gpu1.pid3071"});
  EXPECT_EQ(idle.labels, (std::vector<std::string>{"pid 3070 (python)", "pid 3071 (pt_compile)"}));
  EXPECT_FALSE(idle.all);
  EXPECT_TRUE(reports[1].warnings.empty());
  EXPECT_TRUE(reports[2].warnings.empty());
  EXPECT_EQ(cli::idle_processes_text(idle),
            "2 processes started CUDA and launched no GPU work: pid 3070 (python), pid 3071 "
            "(pt_compile)");
}

TEST(IdleProcesses, WhenNoProcessDidWorkOneWarningNamesThemAll) {
  std::vector<Report> reports{process_report("pid 10 (a)", 0), process_report("pid 11 (b)", 0)};
  const cli::IdleProcesses idle = cli::take_idle_processes(reports, {"h.pid10", "h.pid11"});
  EXPECT_TRUE(idle.all);
  EXPECT_EQ(cli::idle_processes_text(idle),
            "no CUDA work was recorded: 2 processes started CUDA but launched no kernel, copy "
            "or memset: pid 10 (a), pid 11 (b)");
}

TEST(IdleProcesses, OneProcessKeepsItsOwnWarningAndALabelFallsBackToItsFile) {
  std::vector<Report> one{process_report("pid 10 (a)", 0)};
  EXPECT_TRUE(cli::take_idle_processes(one, {"h.pid10"}).labels.empty());
  EXPECT_EQ(one[0].warnings.size(), 1u);

  std::vector<Report> reports{process_report("pid 1 (a)", 3), process_report("", 0)};
  reports[1].environment.host_name = "oldhost";  // a report without the process label
  const cli::IdleProcesses idle = cli::take_idle_processes(reports, {"h.pid1", "oldhost.pid2"});
  EXPECT_EQ(idle.labels, std::vector<std::string>{"oldhost.pid2"});
}

// The command end to end: the "program" drops three process reports where the injection library
// would have written them.
TEST(IdleProcesses, TheSummarySaysItOnceOnOneLine) {
  const std::string dir = ::testing::TempDir();
  write_report_file(process_report("pid 3069 (python)", 5), dir + "kerntime_idle_work.json");
  write_report_file(process_report("pid 3070 (python)", 0), dir + "kerntime_idle_a.json");
  write_report_file(process_report("pid 3071 (python)", 0), dir + "kerntime_idle_b.json");
  const std::string merged = dir + "kerntime_idle_merged.json";
  const auto result = run_command(
      std::string{KERNTIME_CLI} + " run -o " + merged + " -- sh -c 'cp " + dir +
      "kerntime_idle_work.json \"$KERNTIME_RUN_DIR/gpu1.pid3069.$KERNTIME_RUN_ID.json\"; cp " +
      dir + "kerntime_idle_a.json \"$KERNTIME_RUN_DIR/gpu1.pid3070.$KERNTIME_RUN_ID.json\"; cp " +
      dir + "kerntime_idle_b.json \"$KERNTIME_RUN_DIR/gpu1.pid3071.$KERNTIME_RUN_ID.json\"'");
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_EQ(occurrences(result.err,
                        "kerntime run: 2 processes started CUDA and launched no GPU "
                        "work: pid 3070 (python), pid 3071 (python)\n"),
            1)
      << result.err;
  EXPECT_EQ(result.err.find("no CUDA work was recorded"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("pid3070"), std::string::npos) << result.err;  // no warning of it
  EXPECT_EQ(result.err.find("pid3071"), std::string::npos) << result.err;
  for (const std::string& warning : read_report_file(merged).warnings)
    EXPECT_EQ(warning.find("no CUDA work"), std::string::npos) << warning;

  // --format json keeps standard error one JSON document.
  const auto json =
      run_command(std::string{KERNTIME_CLI} + " run --format json -- sh -c 'cp " + dir +
                  "kerntime_idle_work.json \"$KERNTIME_RUN_DIR/h.pid1.json\"; cp " + dir +
                  "kerntime_idle_a.json \"$KERNTIME_RUN_DIR/h.pid2.json\"'");
  EXPECT_EQ(json.err.find("launched no GPU work"), std::string::npos) << json.err;
}

}  // namespace
}  // namespace kerntime
