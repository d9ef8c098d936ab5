// SPDX-License-Identifier: Apache-2.0
// examples/trace_app as a user runs it where no GPU can be used: one line naming the cause.
#include <string>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

TEST(TraceApp, WithoutAGpuExitsWithTheNoGpuStatusAndOneLineNamingTheCause) {
  const auto r = testing::run_command("CUDA_VISIBLE_DEVICES= " + std::string{KERNTIME_TRACE_APP} +
                                      " /nonexistent-dir/trace.json");
  EXPECT_EQ(r.exit_status, 2);  // kerntime::kNoGpuExitStatus, as every kerntime program
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  EXPECT_TRUE(r.err.find("trace_app: no NVIDIA driver found") != std::string::npos ||
              r.err.find("trace_app: no CUDA device is visible") != std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace
}  // namespace kerntime
