// SPDX-License-Identifier: Apache-2.0
// `kerntime run` on programs that meet a GPU fault: whether they return an error code and exit,
// carry on, abort, or raise (PyTorch, CuPy, JAX), the summary and the report name the CUDA
// error, its device, the call that returned it and its thread, and the kernel that faulted (or
// the kernels running, when CUPTI cannot tell) with its stream, launching thread and NVTX range;
// and no other CUPTI client is blamed for what the fault lost.
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
    {"carry_on", "misaligned_address", 0, "cudaErrorMisalignedAddress (716, ",
     "misaligned_address_kernel("},
    {"carry_on", "device_assert", 0, "cudaErrorAssert (710, ", "device_assert_kernel("},
    {"carry_on", "trap", 0, "cudaErrorLaunchFailure (719, ", "trap_kernel("},
    {"abort", "illegal_address", 134, "cudaErrorIllegalAddress (700, ", "illegal_address_kernel("},
    {"abort", "misaligned_address", 134, "cudaErrorMisalignedAddress (716, ",
     "misaligned_address_kernel("},
    {"abort", "device_assert", 134, "cudaErrorAssert (710, ", "device_assert_kernel("},
    {"abort", "trap", 134, "cudaErrorLaunchFailure (719, ", "trap_kernel("},
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
using RunFaultBusyGpu = testing::GpuTest;

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
  // The ten kernels before it finished before the synchronization that preceded the fault, whose
  // flush handed their records over (sync_flush_pacer.hpp): a fault does not take them.
  const std::size_t recorded = work != nullptr ? work->instances : 0;
  std::printf("%s %s: %zu of 10 kernels before the fault recorded with times\n%s\n", c.end, c.kind,
              recorded, faulted.c_str());
  EXPECT_EQ(recorded, 10u) << result.err;
}

INSTANTIATE_TEST_SUITE_P(Ends, RunFaultGpu, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string{info.param.end} + "_" + info.param.kind;
                         });

// Four kernels running when the fault surfaces, none synchronized since: CUPTI cannot tell which
// faulted, so the report names them all, oldest first, each with its stream, thread and range.
TEST_F(RunFaultBusyGpu, SeveralKernelsRunningAreAllNamedWithTheFaultingOneAmongThem) {
  const std::string path = ::testing::TempDir() + "kerntime_run_fault_busy.json";
  std::remove(path.c_str());
  const auto result = run_command("timeout 120 " + std::string{KERNTIME_CLI} + " run -o " + path +
                                  " -- " + KERNTIME_FAULT_TARGET + " busy illegal_address 10");
  ASSERT_EQ(result.exit_status, 3) << result.out << result.err;
  const std::string stream = printed(result.out, "stream");
  const std::string thread = printed(result.out, "thread");
  const Report report = read_report_file(path);
  ASSERT_FALSE(report.warnings.empty()) << result.err;
  EXPECT_EQ(report.warnings.front().rfind("the GPU faulted: cudaErrorIllegalAddress (700, ", 0), 0u)
      << report.warnings.front();
  const std::string running = warning_with(report,
                                           "the fault is in one of 4 kernels running on "
                                           "device 0 (");
  ASSERT_NE(running, "") << result.err;
  EXPECT_NE(running.find("CUPTI cannot tell which"), std::string::npos) << running;
  // Oldest first: the three work kernels, then the one that faulted, each where it ran.
  const std::string where = " on device 0, stream " + stream + ", from thread " + thread + " (";
  std::size_t at = 0;
  for (const char* kernel : {"fault_target_work(", "fault_target_work(", "fault_target_work(",
                             "illegal_address_kernel("}) {
    at = running.find(kernel, at);
    ASSERT_NE(at, std::string::npos) << kernel << " in " << running;
    EXPECT_EQ(running.compare(running.find(')', at) + 1, where.size(), where), 0)
        << running.substr(at);
    at += 1;
  }
  EXPECT_EQ(warning_with(report, "the kernel that faulted: "), "") << running;
  EXPECT_TRUE(testing::prints_warning(result.err, running)) << result.err;
  std::printf("%s\n", running.c_str());
}

struct PythonFault {
  const char* name;     // the test's
  const char* package;  // its name in a message
  const char* script;
  const char* kernel;  // the faulting kernel's name, as the report starts it
  bool alone;          // it was the only kernel running (else one of several, named with it)
};

void PrintTo(const PythonFault& c, std::ostream* out) {
  *out << c.name;
}

const PythonFault kPythonFaults[] = {
    {"PyTorch", "PyTorch", KERNTIME_TORCH_FAULT, "illegal_address_kernel(", true},
    {"CuPy", "CuPy", KERNTIME_CUPY_FAULT, "cupy_illegal_address_kernel", true},
    // XLA's own kernels of the step after the fault may still count as running.
    {"JAX", "JAX", KERNTIME_JAX_FAULT, "illegal_address_kernel(", false},
};

class RunPythonFaultGpu : public testing::GpuTest,
                          public ::testing::WithParamInterface<PythonFault> {};

// The observed case: a synchronization (PyTorch, CuPy) or JAX's next computation raises, the
// program does not catch it, and the process ends through Python's exit. The report names the
// faulting kernel anyway, with its stream, thread and NVTX range.
TEST_P(RunPythonFaultGpu, AnExceptionStillNamesTheKernelItsStreamThreadAndRange) {
  const PythonFault& c = GetParam();
  const std::string path = ::testing::TempDir() + "kerntime_run_" + c.name + "_fault.json";
  std::remove(path.c_str());
  const auto result =
      run_command("timeout 300 " + std::string{KERNTIME_CLI} + " run -o " + path + " -- " +
                  testing::python_interpreter() + " " + c.script + " " + KERNTIME_FAULT_LAUNCHER);
  KERNTIME_NEED_PACKAGE(result, c.package);
  // The uncaught exception: Python exits 1 (a framework's own teardown after a fault may abort).
  ASSERT_TRUE(result.exit_status == 1 || result.exit_status == 134) << result.out << result.err;
  EXPECT_NE(result.err.find("Error"), std::string::npos) << result.err;
  EXPECT_EQ(result.out.find("not reached"), std::string::npos) << result.out;
  const std::string stream = printed(result.out, "stream");
  const std::string thread = printed(result.out, "thread");
  ASSERT_FALSE(stream.empty() || thread.empty()) << result.out;
  const Report report = read_report_file(path);
  ASSERT_FALSE(report.warnings.empty()) << result.err;
  const std::string& headline = report.warnings.front();
  EXPECT_EQ(headline.rfind("the GPU faulted: cudaErrorIllegalAddress (700, an illegal memory "
                           "access was encountered) on device 0; ",
                           0),
            0u)
      << headline;
  // The program's thread met the fault first, unless the framework's own threads wait on its
  // work (XLA polls its events): then the launch line below still names the program's thread.
  if (c.alone) {
    EXPECT_NE(headline.find(" to thread " + thread + " ("), std::string::npos) << headline;
  }
  const std::string named =
      c.alone ? warning_with(report, "the kernel that faulted: ") : warning_with(report, c.kernel);
  ASSERT_NE(named, "") << result.err;
  const auto at = named.find(c.kernel);
  ASSERT_NE(at, std::string::npos) << named;
  const std::string after = named.substr(at);
  EXPECT_NE(after.find(" on device 0, stream " + stream + ", from thread " + thread + " ("),
            std::string::npos)
      << after;
  EXPECT_NE(after.find(", inside NVTX range \"step\""), std::string::npos) << after;
  EXPECT_TRUE(testing::prints_warning(result.err, named)) << result.err;
  EXPECT_EQ(result.err.find("another CUPTI client"), std::string::npos) << result.err;
  std::printf("%s\n%s\n", headline.c_str(), named.c_str());
}

INSTANTIATE_TEST_SUITE_P(Frameworks, RunPythonFaultGpu, ::testing::ValuesIn(kPythonFaults),
                         [](const auto& info) { return std::string{info.param.name}; });

}  // namespace
}  // namespace kerntime
