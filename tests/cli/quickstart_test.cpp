// SPDX-License-Identifier: Apache-2.0
#include <string>

#include <gtest/gtest.h>

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

TEST(Quickstart, WithoutAGpuExitsNonZeroWithOneLineNamingTheCause) {
  const auto r = run_command("CUDA_VISIBLE_DEVICES= " + quickstart);
  EXPECT_NE(r.exit_status, 0);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "quickstart: no NVIDIA driver found") ||
              contains(r.err, "quickstart: no CUDA device is visible"))
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

using QuickstartGpu = testing::GpuTest;

TEST_F(QuickstartGpu, PrintsTheTableOfEverySampleKernel) {
  const auto r = run_command(quickstart);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  for (const char* name : {"empty", "spin/10us", "device_copy/64MiB", "vector_add/16Mi",
                           "saxpy/16Mi", "transpose_naive/4096^2", "transpose_tiled/4096^2",
                           "sgemm_naive/1024^3", "sgemm_tiled/2048^3", "reduce_sum/16Mi"}) {
    EXPECT_TRUE(contains(r.out, std::string{name} + " ")) << name << " missing:\n" << r.out;
  }
  EXPECT_TRUE(contains(r.out, "Median")) << r.out;
}

}  // namespace
}  // namespace kerntime
