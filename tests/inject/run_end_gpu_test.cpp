// SPDX-License-Identifier: Apache-2.0
// `kerntime run` on the GPU when a process ends badly or has company: an abort after a launch,
// a kernel fault and the abort that follows it, a segmentation fault, a process that starts
// CUDA and does nothing, another CUPTI client started by the program, and a kerntime::Tracer
// in the program. The report is never silently empty or silently short.
#include <string>

#include <gtest/gtest.h>

#include <kerntime/report.hpp>
#include <kerntime/report_json.hpp>

#include "run_gpu_support.hpp"

namespace kerntime {
namespace {

using testing::kernel;
using testing::run_command;
using testing::RunGpu;
using testing::warning;

const KernelSummary* kernel_containing(const Report& report, const std::string& text) {
  for (const KernelSummary& row : report.trace->kernel_summary) {
    if (row.name.find(text) != std::string::npos) return &row;
  }
  return nullptr;
}

TEST_F(RunGpu, AnAbortNamesTheLastKernelLaunchedAndSaysRecordsMayBeMissing) {
  const std::string path = report_path("abort");
  const auto result = run("-o " + path, "abort 50");
  ASSERT_EQ(result.exit_status, 134) << result.err;  // 128 + SIGABRT, as the shell says
  const Report report = read_report_file(path);
  EXPECT_NE(warning(report, "the process was ended by signal 6 (SIGABRT)"), "") << result.err;
  const std::string last = warning(report, "the last kernel it launched: ");
  EXPECT_NE(last.find("the last kernel it launched: run_target_beta(float*) on device 0, the "
                      "default stream, from thread "),
            std::string::npos)
      << last;
  EXPECT_NE(last.find("(kerntime_run_ta)"), std::string::npos) << last;  // the main thread
  // The final report came after the signal, with CUPTI's last records: nothing is missing.
  EXPECT_NE(warning(report, "CUPTI was asked for its last records after the signal"), "")
      << result.err;
  ASSERT_NE(kernel(report, "run_target_alpha"), nullptr) << result.err;
  EXPECT_EQ(kernel(report, "run_target_alpha")->instances, 50u);
  ASSERT_NE(kernel(report, "run_target_beta"), nullptr) << result.err;
  EXPECT_EQ(kernel(report, "run_target_beta")->instances, 1u);
  EXPECT_NE(result.err.find("the last kernel it launched: run_target_beta"), std::string::npos)
      << result.err;
}

TEST_F(RunGpu, AKernelFaultAndTheAbortAfterItNameTheFaultingKernel) {
  const std::string path = report_path("fault");
  const auto result = run("-o " + path, "fault 10");
  ASSERT_EQ(result.exit_status, 134) << result.err;
  EXPECT_NE(result.err.find("run_target: after run_target_fault:"), std::string::npos)
      << result.err;
  const Report report = read_report_file(path);
  EXPECT_NE(warning(report, "the process was ended by signal 6 (SIGABRT)"), "") << result.err;
  const std::string last = warning(report, "the last kernel it launched: ");
  EXPECT_NE(last.find("the last kernel it launched: run_target_fault(float*) on device 0"),
            std::string::npos)
      << last;
  // The fault itself comes first: the error, the call that returned it, the kernel that faulted.
  ASSERT_FALSE(report.warnings.empty());
  EXPECT_EQ(report.warnings.front().rfind("the GPU faulted: cudaErrorIllegalAddress (700, an "
                                          "illegal memory access was encountered) on device 0; "
                                          "cudaDeviceSynchronize returned it first, to thread ",
                                          0),
            0u)
      << report.warnings.front();
  EXPECT_NE(warning(report,
                    "the kernel that faulted: run_target_fault(float*) on device 0, the "
                    "default stream, from thread "),
            "")
      << result.err;
  EXPECT_EQ(warning(report, "another CUPTI client"), "") << result.err;
  const KernelSummary* alpha = kernel(report, "run_target_alpha");
  std::printf("alpha kernels recorded after the fault: %zu of 10\n",
              alpha != nullptr ? alpha->instances : std::size_t{0});
}

TEST_F(RunGpu, ASegmentationFaultNamesTheLastKernelLaunched) {
  const std::string path = report_path("segv");
  const auto result = run("-o " + path, "segv 5");
  ASSERT_EQ(result.exit_status, 139) << result.err;  // 128 + SIGSEGV
  const Report report = read_report_file(path);
  EXPECT_NE(warning(report, "the process was ended by signal 11 (SIGSEGV)"), "") << result.err;
  EXPECT_NE(warning(report, "the last kernel it launched: run_target_beta(float*)"), "")
      << result.err;
  ASSERT_NE(kernel(report, "run_target_alpha"), nullptr) << result.err;
  EXPECT_EQ(kernel(report, "run_target_alpha")->instances, 5u);
}

TEST_F(RunGpu, WithoutTheLastLaunchTheCrashReportSaysItIsNotKnown) {
  const std::string path = report_path("abort_unwatched");
  const auto result = run("--no-last-launch -o " + path, "abort 5");
  ASSERT_EQ(result.exit_status, 134) << result.err;
  const Report report = read_report_file(path);
  EXPECT_NE(warning(report, "the last kernel it launched is not known"), "") << result.err;
  ASSERT_NE(kernel(report, "run_target_alpha"), nullptr) << result.err;
  EXPECT_EQ(kernel(report, "run_target_alpha")->instances, 5u);
}

TEST_F(RunGpu, AProcessThatStartsCudaAndDoesNothingSaysSoWithItsStatus) {
  const std::string path = report_path("idle");
  const auto result = run("-o " + path, "idle 3");
  EXPECT_EQ(result.exit_status, 3) << result.err;
  const Report report = read_report_file(path);
  EXPECT_NE(warning(report,
                    "no CUDA work was recorded: the process started CUDA but launched no "
                    "kernel, copy or memset"),
            "")
      << result.err;
  EXPECT_NE(result.err.find("no CUDA work was recorded"), std::string::npos) << result.err;
}

// The other client registers its activity buffers while the program runs, as torch.profiler
// does: from then on CUPTI gives it the records. kerntime counts the launches all along, so the
// report says how many records it did not get, and who likely took them.
TEST_F(RunGpu, AnotherCuptiClientStartedByTheProgramIsNeverSilent) {
  const std::string path = report_path("other_client");
  const auto result = run("-o " + path, "other_client 100 " + std::string{KERNTIME_OTHER_CLIENT});
  ASSERT_EQ(result.exit_status, 0) << result.err;
  EXPECT_NE(result.out.find("other client kernel records: "), std::string::npos) << result.out;
  const Report report = read_report_file(path);
  EXPECT_LT(report.trace->counts.kernels, 200u);
  const std::string missing = warning(report, "CUPTI saw 200 kernel launches but delivered ");
  EXPECT_NE(missing.find("another CUPTI client in this process received the others"),
            std::string::npos)
      << missing << "\n"
      << result.err;
  EXPECT_NE(result.err.find("CUPTI saw 200 kernel launches"), std::string::npos) << result.err;
  std::printf("%s| %s\n", result.out.c_str(), missing.c_str());
}

// A program tracing itself while kerntime run traces it: whichever subscribes first to CUPTI
// gets the records, and the other says so.
TEST_F(RunGpu, AKerntimeTracerInTheProgramAfterCudaStartedLeavesTheRecordsToKerntimeRun) {
  const std::string path = report_path("tracer_after");
  const auto result = run_command("timeout 120 " + std::string{KERNTIME_CLI} + " run -o " + path +
                                  " -- " + KERNTIME_RUN_TRACER_TARGET + " after 20");
  ASSERT_EQ(result.exit_status, 0) << result.out << result.err;
  const Report report = read_report_file(path);
  const KernelSummary* spin = kernel_containing(report, "spin");
  ASSERT_NE(spin, nullptr) << result.err;
  EXPECT_EQ(spin->instances, 20u);
  EXPECT_NE(result.out.find("tracer unavailable, 0 kernels; CUPTI is held by"), std::string::npos)
      << result.out;
  std::printf("%s", result.out.c_str());
}

TEST_F(RunGpu, AKerntimeTracerInTheProgramBeforeCudaStartedIsNeverSilent) {
  const std::string path = report_path("tracer_before");
  const auto result = run_command("timeout 120 " + std::string{KERNTIME_CLI} + " run -o " + path +
                                  " -- " + KERNTIME_RUN_TRACER_TARGET + " before 20");
  ASSERT_EQ(result.exit_status, 0) << result.out << result.err;
  const Report report = read_report_file(path);
  const KernelSummary* spin = kernel_containing(report, "spin");
  if (spin != nullptr) {
    EXPECT_EQ(spin->instances, 20u);
    EXPECT_NE(result.out.find("tracer unavailable"), std::string::npos) << result.out;
  } else {
    // The program's Tracer took CUPTI first: kerntime run says it recorded nothing, and why.
    EXPECT_NE(warning(report, "CUPTI is held by"), "") << result.err;
    EXPECT_NE(result.out.find("tracer active, 20 kernels"), std::string::npos) << result.out;
  }
  std::printf("kerntime run %s the records; the program: %s",
              spin != nullptr ? "got" : "did not get", result.out.c_str());
}

}  // namespace
}  // namespace kerntime
