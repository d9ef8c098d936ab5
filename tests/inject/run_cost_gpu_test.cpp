// SPDX-License-Identifier: Apache-2.0
// What `kerntime run` does to cost a program less must not change what its report says, on the
// GPU with the real CUPTI: kernel names read once per pointer between module unloads, and
// checkpoints skipped while nothing new was recorded.
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

class RunCostGpu : public RunGpu {
 protected:
  testing::CommandResult run_cost_target(const std::string& options, const std::string& arguments) {
    return run_command("timeout 120 " + std::string{KERNTIME_CLI} + " run " + options + " -- " +
                       KERNTIME_RUN_COST_TARGET + " " + arguments);
  }
};

// Kernels A and B, names of the same length, each from a module loaded, launched 50 times and
// unloaded, 20 rounds in turn: CUPTI may give B's name the memory of A's. Every launch must
// count under its own name.
TEST_F(RunCostGpu, KernelsOfModulesUnloadedInTurnKeepTheirNames) {
  const std::string path = report_path("cost_modules");
  const auto result = run_cost_target("-o " + path, "modules 20 50");
  ASSERT_EQ(result.exit_status, 0) << result.err;
  const Report report = read_report_file(path);
  ASSERT_TRUE(report.trace.has_value());
  EXPECT_EQ(report.trace->counts.kernels, 2'000u);
  EXPECT_EQ(report.trace->kernel_summary.size(), 2u) << result.err;
  const std::string a = "cost_target_kernel_" + std::string(280, 'x') + "_a";
  const std::string b = "cost_target_kernel_" + std::string(280, 'x') + "_b";
  ASSERT_NE(kernel(report, a), nullptr) << result.err;
  ASSERT_NE(kernel(report, b), nullptr) << result.err;
  EXPECT_EQ(kernel(report, a)->instances, 1'000u);
  EXPECT_EQ(kernel(report, b)->instances, 1'000u);
}

// 300 kernels, then 4 s idle with a checkpoint every second (those after the first with the
// kernels find nothing new and are skipped), then SIGKILL: the last checkpoint written holds
// every kernel.
TEST_F(RunCostGpu, AProcessKilledAfterAnIdleStretchLeavesEveryKernelInItsLastCheckpoint) {
  const std::string path = report_path("cost_idle");
  const auto result = run_cost_target("--checkpoint 1s -o " + path, "idle 300 4");
  EXPECT_EQ(result.exit_status, 137) << result.err;  // 128 + SIGKILL, as the shell says
  const Report report = read_report_file(path);
  ASSERT_TRUE(report.trace.has_value());
  const std::string a = "cost_target_kernel_" + std::string(280, 'x') + "_a";
  ASSERT_NE(kernel(report, a), nullptr) << result.err;
  EXPECT_EQ(kernel(report, a)->instances, 300u);
  EXPECT_NE(warning(report, "this is its last checkpoint"), "") << result.err;
}

}  // namespace
}  // namespace kerntime
