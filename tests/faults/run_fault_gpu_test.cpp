// SPDX-License-Identifier: Apache-2.0
// `kerntime run` on programs that meet a GPU fault: whether they return an error code and exit,
// carry on, abort, or raise (PyTorch), the summary and the report name the CUDA error, its
// device, the call that returned it and its thread, and the kernel that faulted with its stream,
// launching thread and NVTX range; and no other CUPTI client is blamed for what the fault lost.
#include <cstdio>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/report.hpp>
#include <kerntime/report_json.hpp>

#include "inject/run_python.hpp"
#include "support/gpu_test.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::printed;
using testing::run_command;

struct Case {
  const char* end;  // fault_target's END
  const char* kind;
  int exit_status;
  const char* error;  // the headline's error, with its number and meaning
  const char* kernel;
};

const Case kCases[] = {
    {"return", "illegal_address", 3,
     "cudaErrorIllegalAddress (700, an illegal memory access was encountered)",
     "illegal_address_kernel("},
    {"return", "misaligned_address", 3,
     "cudaErrorMisalignedAddress (716, a misaligned address was accessed)",
     "misaligned_address_kernel("},
    {"return", "device_assert", 3, "cudaErrorAssert (710, a device-side assert triggered)",
     "device_assert_kernel("},
    {"return", "trap", 3, "cudaErrorLaunchFailure (719, ", "trap_kernel("},
    {"carry_on", "illegal_address", 0, "cudaErrorIllegalAddress (700, ", "illegal_address_kernel("},
    {"abort", "illegal_address", 134, "cudaErrorIllegalAddress (700, ", "illegal_address_kernel("},
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.end << " " << c.kind;
}

std::string warning_with(const Report& report, const std::string& text) {
  for (const std::string& w : report.warnings) {
    if (w.find(text) != std::string::npos) return w;
  }
  return {};
}

class RunFaultGpu : public testing::GpuTest, public ::testing::WithParamInterface<Case> {};

TEST_P(RunFaultGpu, TheSummaryAndTheReportNameTheFaultAndTheKernelThatFaulted) {
  const Case& c = GetParam();
  const std::string path =
      ::testing::TempDir() + "kerntime_run_fault_" + c.end + "_" + c.kind + ".json";
  std::remove(path.c_str());
  const auto result =
      run_command("timeout 120 " + std::string{KERNTIME_CLI} + " run -o " + path + " -- " +
                  KERNTIME_FAULT_TARGET + " " + c.end + " " + c.kind + " 10");
  ASSERT_EQ(result.exit_status, c.exit_status) << result.out << result.err;
  const std::string stream = printed(result.out, "stream");
  const std::string thread = printed(result.out, "thread");
  ASSERT_FALSE(stream.empty() || thread.empty()) << result.out;
  const Report report = read_report_file(path);

  // First the error, its device, the call that returned it and to whom.
  ASSERT_FALSE(report.warnings.empty()) << result.err;
  const std::string& headline = report.warnings.front();
  EXPECT_EQ(headline.rfind(std::string{"the GPU faulted: "} + c.error, 0), 0u) << headline;
  EXPECT_NE(headline.find(" on device 0; cudaStreamSynchronize returned it first, to thread " +
                          thread + " ("),
            std::string::npos)
      << headline;
  // Then the kernel: the only one running since the stream's synchronization.
  const std::string faulted = warning_with(report, "the kernel that faulted: ");
  EXPECT_NE(faulted.find(c.kernel), std::string::npos) << faulted << "\n" << result.err;
  EXPECT_NE(faulted.find(" on device 0, stream " + stream + ", from thread " + thread + " ("),
            std::string::npos)
      << faulted;
  EXPECT_NE(faulted.find(", inside NVTX range \"step\", its launch 11 "), std::string::npos)
      << faulted;
  EXPECT_NE(faulted.find("it was the only kernel running on device 0"), std::string::npos)
      << faulted;
  // The summary says the same, and no other CUPTI client is blamed for what the fault lost.
  EXPECT_TRUE(testing::prints_warning(result.err, headline)) << result.err;
  EXPECT_TRUE(testing::prints_warning(result.err, faulted)) << result.err;
  EXPECT_EQ(result.err.find("another CUPTI client"), std::string::npos) << result.err;
  const KernelSummary* work = nullptr;
  for (const KernelSummary& row : report.trace->kernel_summary) {
    if (row.name.find("fault_target_work") != std::string::npos) work = &row;
  }
  std::printf("%s %s: %zu of 10 kernels before the fault recorded with times\n%s\n", c.end, c.kind,
              work != nullptr ? work->instances : std::size_t{0}, faulted.c_str());
}

INSTANTIATE_TEST_SUITE_P(Ends, RunFaultGpu, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string{info.param.end} + "_" + info.param.kind;
                         });

class RunTorchFaultGpu : public testing::GpuTest {};

// The observed case: torch.cuda.synchronize() raises, the program does not catch it, and the
// process ends through Python's exit. The report names the faulting kernel anyway.
TEST_F(RunTorchFaultGpu, AnExceptionFromTorchStillNamesTheKernelItsStreamThreadAndRange) {
  const std::string path = ::testing::TempDir() + "kerntime_run_torch_fault.json";
  std::remove(path.c_str());
  const auto result = run_command("timeout 300 " + std::string{KERNTIME_CLI} + " run -o " + path +
                                  " -- " + testing::python_interpreter() + " " +
                                  KERNTIME_TORCH_FAULT + " " + KERNTIME_FAULT_LAUNCHER);
  KERNTIME_NEED_TORCH(result);
  // The uncaught exception: Python exits 1 (PyTorch's own teardown after a fault may abort).
  ASSERT_TRUE(result.exit_status == 1 || result.exit_status == 134) << result.out << result.err;
  EXPECT_NE(result.err.find("Error"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("illegal memory access"), std::string::npos) << result.err;
  EXPECT_EQ(result.out.find("not reached"), std::string::npos) << result.out;
  const std::string stream = printed(result.out, "stream");
  const std::string thread = printed(result.out, "thread");
  const Report report = read_report_file(path);
  ASSERT_FALSE(report.warnings.empty()) << result.err;
  const std::string& headline = report.warnings.front();
  EXPECT_EQ(headline.rfind("the GPU faulted: cudaErrorIllegalAddress (700, an illegal memory "
                           "access was encountered) on device 0; ",
                           0),
            0u)
      << headline;
  EXPECT_NE(headline.find(" returned it first, to thread " + thread + " ("), std::string::npos)
      << headline;
  const std::string faulted = warning_with(report, "the kernel that faulted: ");
  EXPECT_NE(faulted.find("illegal_address_kernel("), std::string::npos) << faulted << result.err;
  EXPECT_NE(faulted.find(" on device 0, stream " + stream + ", from thread " + thread + " ("),
            std::string::npos)
      << faulted;
  EXPECT_NE(faulted.find(", inside NVTX range \"step\""), std::string::npos) << faulted;
  EXPECT_TRUE(testing::prints_warning(result.err, faulted)) << result.err;
  EXPECT_EQ(result.err.find("another CUPTI client"), std::string::npos) << result.err;
  std::printf("%s\n%s\n", headline.c_str(), faulted.c_str());
}

}  // namespace
}  // namespace kerntime
