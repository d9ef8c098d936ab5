// SPDX-License-Identifier: Apache-2.0
// `kerntime run`'s diagnoses are true: work still running when a SIGTERM stops the program is
// called in flight and named, not put down to another CUPTI client; "another CUPTI client" is
// said exactly when one received records (torch.profiler inside the program); helper processes
// that start CUDA and launch nothing are listed once, not warned about.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/report.hpp>
#include <kerntime/report_json.hpp>

#include "run_gpu_support.hpp"
#include "run_python.hpp"

namespace kerntime {
namespace {

using testing::printed;
using testing::run_command;
using testing::RunGpu;
using testing::warning;

int occurrences(const std::string& text, const std::string& part) {
  int count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++count;
  return count;
}

// Starts `command` (writing "ready" to its output, or creating the file `ready`), waits for it,
// sends `kerntime run` SIGTERM, and returns the output with "status=N" appended.
testing::CommandResult stopped_by_sigterm(const std::string& command, const std::string& ready,
                                          bool ready_is_file) {
  const std::string out = ::testing::TempDir() + "kerntime_run_sigterm.out";
  std::remove(out.c_str());
  std::remove(ready.c_str());
  const std::string wait_for = ready_is_file ? "[ -e " + ready + " ]" : "grep -q ready " + out;
  return run_command("(" + command + " >" + out + " 2>&1 & pid=$!; i=0; while ! " + wait_for +
                     " && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done; kill -TERM $pid; "
                     "wait $pid; echo status=$?; cat " +
                     out + ")");
}

// Two threads keep launching while the signal's report is written: the launches made after the
// final synchronization began have no record yet. They are in flight, and say so with the
// kernel and thread; no CUPTI client is blamed.
TEST_F(RunGpu, LaunchesStillGoingAtASigtermAreInFlightNotAnotherClient) {
  const std::string path = report_path("busy");
  const auto result = stopped_by_sigterm(
      std::string{KERNTIME_CLI} + " run -o " + path + " -- " + KERNTIME_RUN_TARGET + " busy", "",
      false);
  EXPECT_NE(result.out.find("status=143"), std::string::npos) << result.out;
  const Report report = read_report_file(path);
  EXPECT_NE(warning(report, "the process was stopped by signal 15 (SIGTERM)"), "") << result.out;
  EXPECT_EQ(warning(report, "another CUPTI client"), "") << result.out;
  EXPECT_EQ(result.out.find("another CUPTI client"), std::string::npos) << result.out;
  const std::string in_flight = warning(report, "CUPTI saw ");
  EXPECT_NE(in_flight.find("launched after kerntime's final synchronization began"),
            std::string::npos)
      << in_flight << "\n"
      << result.out;
  EXPECT_NE(in_flight.find("run_target_busy(long long) on device 0, stream 0x"), std::string::npos)
      << in_flight;
  EXPECT_NE(in_flight.find("inside NVTX range \"step\""), std::string::npos) << in_flight;
  std::printf("%s\n", in_flight.c_str());
}

// The observed false diagnosis: a PyTorch training step stopped by SIGTERM, no profiler.
TEST_F(RunGpu, APyTorchStepStoppedBySigtermBlamesNoOtherClient) {
  const std::string path = report_path("torch_sigterm");
  const std::string ready = ::testing::TempDir() + "kerntime_run_torch_sigterm.ready";
  const auto result = stopped_by_sigterm(std::string{KERNTIME_CLI} + " run -o " + path + " -- " +
                                             testing::python_interpreter() + " " +
                                             KERNTIME_TEST_PROGRAMS + "/torch_sigterm.py " + ready,
                                         ready, true);
  if (result.out.find("status=77") != std::string::npos ||
      result.out.find("status=78") != std::string::npos) {
    testing::CommandResult missing;
    missing.exit_status = result.out.find("status=77") != std::string::npos ? 77 : 78;
    KERNTIME_NEED_TORCH(missing);
  }
  EXPECT_NE(result.out.find("status=143"), std::string::npos) << result.out;
  const Report report = read_report_file(path);
  EXPECT_NE(warning(report, "signal 15 (SIGTERM)"), "") << result.out;
  EXPECT_EQ(warning(report, "another CUPTI client"), "") << result.out;
  EXPECT_EQ(result.out.find("another CUPTI client"), std::string::npos) << result.out;
  // Work still running is called that, with the last kernels launched.
  const std::string missing = warning(report, "CUPTI saw ");
  if (!missing.empty()) {
    EXPECT_NE(missing.find("still in flight when the last records were read; the last"),
              std::string::npos)
        << missing;
  }
  std::printf("%s\n", missing.empty() ? "every launch had its record" : missing.c_str());
}

// torch.profiler inside the program: CUPTI gives activity records to one client. Whichever got
// them, the report says so truly and names the profiler: if it received kernels, kerntime's
// report names it as the client that took them; if kerntime kept every record (it holds CUPTI's
// subscriber slot, and PyTorch's Kineto, refused it, starts without CUDA activities), no other
// client is claimed, and the report says the profiler was refused and recorded no GPU activity.
TEST_F(RunGpu, TorchProfilerInsideTheProgramIsNamedExactlyWhenItTookRecords) {
  const std::string path = report_path("torch_profiler");
  const auto result = run_command("timeout 300 " + std::string{KERNTIME_CLI} + " run -o " + path +
                                  " -- " + testing::python_interpreter() + " " +
                                  KERNTIME_TEST_PROGRAMS + "/torch_profiler.py");
  KERNTIME_NEED_TORCH(result);
  ASSERT_EQ(result.exit_status, 0) << result.out << result.err;
  const std::string got = printed(result.out, "profiler cuda kernels:");
  ASSERT_FALSE(got.empty()) << result.out;
  const Report report = read_report_file(path);
  const std::string claim = warning(report, "another CUPTI client");
  if (std::stoul(got) > 0) {
    EXPECT_NE(claim.find("(likely PyTorch's profiler"), std::string::npos) << claim << "\n"
                                                                           << result.err;
    EXPECT_NE(result.err.find("another CUPTI client in this process received the others (likely "
                              "PyTorch's profiler"),
              std::string::npos)
        << result.err;
  } else {
    EXPECT_EQ(claim, "") << result.err;
    EXPECT_EQ(warning(report, "CUPTI saw "), "") << result.err;
    EXPECT_GE(report.trace->counts.kernels, 60u) << result.err;
    const std::string refused = warning(report, "for its subscriber slot and was refused");
    // (A run of several processes starts each process's warning with its name.)
    EXPECT_NE(refused.find("PyTorch's profiler (torch.profiler, Kineto) in this process asked "
                           "CUPTI for its subscriber slot and was refused"),
              std::string::npos)
        << refused << "\n"
        << result.err;
    EXPECT_NE(refused.find("so that client recorded no GPU activity"), std::string::npos)
        << refused;
    EXPECT_TRUE(testing::prints_warning(result.err, refused)) << result.err;
  }
  std::printf("torch.profiler got %s CUDA kernels; kerntime %llu; %s\n", got.c_str(),
              static_cast<unsigned long long>(report.trace->counts.kernels),
              claim.empty() ? warning(report, "was refused").c_str() : claim.c_str());
}

// torch.compile's workers start CUDA and launch nothing: one line lists them, not a warning each.
TEST_F(RunGpu, HelperProcessesWithoutGpuWorkAreListedOnceNotWarnedAbout) {
  const std::string path = report_path("idle_helpers");
  const auto result = run("-o " + path, "with_idle_helpers 20");
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_EQ(occurrences(result.err,
                        "kerntime run: 2 processes started CUDA and launched no GPU "
                        "work: pid "),
            1)
      << result.err;
  EXPECT_EQ(occurrences(result.err, "(kerntime_run_ta)"), 2) << result.err;
  EXPECT_EQ(result.err.find("no CUDA work was recorded"), std::string::npos) << result.err;
  const Report report = read_report_file(path);
  EXPECT_EQ(warning(report, "no CUDA work"), "");
  ASSERT_NE(testing::kernel(report, "run_target_alpha"), nullptr) << result.err;
  EXPECT_EQ(testing::kernel(report, "run_target_alpha")->instances, 20u);
}

}  // namespace
}  // namespace kerntime
