// SPDX-License-Identifier: Apache-2.0
// The quickstart as a user runs it: without a GPU one line and kerntime's no-GPU status, also
// through `cmake --workflow --preset quickstart` (run_quickstart.cmake); with one, the table of
// every sample kernel timed by the engine, by a plain event pair and by a host clock.
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/gpu_status.hpp>

#include "support/gpu_test.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::line_count;
using testing::run_command;

const std::string quickstart = KERNTIME_QUICKSTART;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string run_script(const std::string& program) {
  return "'" KERNTIME_CMAKE "' -DQUICKSTART='" + program +
         "' -P '" KERNTIME_RUN_QUICKSTART_SCRIPT "'";
}

TEST(Quickstart, WithoutAGpuExitsWithTheNoGpuStatusAndOneLineNamingTheCause) {
  const auto r = run_command("CUDA_VISIBLE_DEVICES= " + quickstart);
  EXPECT_EQ(r.exit_status, kNoGpuExitStatus);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "quickstart: no NVIDIA driver found") ||
              contains(r.err, "quickstart: no CUDA device is visible"))
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// What the workflow's build step runs: without a GPU the quickstart's line is all it says, and
// the step succeeds, so ninja adds no failure block under it.
TEST(Quickstart, TheWorkflowStepEndsWithTheOneLineWithoutAGpu) {
  const auto r = run_command("CUDA_VISIBLE_DEVICES= " + run_script(quickstart));
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_EQ(line_count(r.out + r.err), 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "quickstart: ")) << r.err;
}

TEST(Quickstart, TheWorkflowStepFailsOnAnyOtherFailure) {
  const std::string failing = ::testing::TempDir() + "kerntime_failing_quickstart.sh";
  std::ofstream{failing} << "#!/bin/sh\necho 'quickstart: cudaMalloc failed' >&2\nexit 1\n";
  ASSERT_EQ(run_command("chmod +x '" + failing + "'").exit_status, 0);
  const auto r = run_command(run_script(failing));
  EXPECT_NE(r.exit_status, 0);
  EXPECT_TRUE(contains(r.err, "quickstart: cudaMalloc failed")) << r.err;
  EXPECT_TRUE(contains(r.err, "the quickstart failed (exit status 1)")) << r.err;
}

using QuickstartGpu = testing::GpuTest;

TEST_F(QuickstartGpu, TimesEverySampleKernelThreeWays) {
  const auto r = run_command(quickstart);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Kernel") && contains(r.out, "GPU time") &&
              contains(r.out, "Event pair") && contains(r.out, "Host enqueue"))
      << r.out;
  for (const char* name : {"empty", "spin/10us", "device_copy/64MiB", "vector_add/16Mi",
                           "saxpy/16Mi", "transpose_naive/4096^2", "transpose_tiled/4096^2",
                           "sgemm_naive/1024^3", "sgemm_tiled/2048^3", "reduce_sum/16Mi"}) {
    EXPECT_TRUE(contains(r.out, std::string{name} + " ")) << name << " missing:\n" << r.out;
  }
  // The engine's time comes from CUPTI here (nothing else holds it in the test).
  EXPECT_TRUE(contains(r.out, " cupti ")) << r.out;
  EXPECT_TRUE(contains(r.out, "TFLOP/s")) << r.out;
}

}  // namespace
}  // namespace kerntime
