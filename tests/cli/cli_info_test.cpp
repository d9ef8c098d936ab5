// SPDX-License-Identifier: Apache-2.0
// The kerntime command as a user runs it: exit status, stdout and the one-line reason.
#include <string>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <kerntime/gpu_status.hpp>
#include <kerntime/version.hpp>

#include "support/gpu_test.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::line_count;
using testing::run_command;

const std::string cli = KERNTIME_CLI;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Cli, HelpListsInfoAndExitsZero) {
  const auto r = run_command(cli + " --help");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "info")) << r.out;
}

TEST(Cli, VersionPrintsTheVersionCudaAndCupti) {
  const auto r = run_command(cli + " --version");
  EXPECT_EQ(r.exit_status, 0);
  EXPECT_TRUE(contains(r.out, std::string{"kerntime "} + kVersion + "\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "\nCUDA runtime ")) << r.out;
  EXPECT_TRUE(contains(r.out, "(built with " + cuda_version_string(CUDART_VERSION) + ")")) << r.out;
  EXPECT_TRUE(contains(r.out, "\nCUPTI ")) << r.out;  // its version, or why it does not load
}

TEST(Cli, NoSubcommandIsBadUsageInOneLine) {
  const auto r = run_command(cli);
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "kerntime: ")) << r.err;
}

TEST(Cli, UnknownSubcommandIsBadUsage) {
  const auto r = run_command(cli + " frobnicate");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "frobnicate")) << r.err;
}

TEST(Cli, InfoWithoutAGpuExplainsAndExitsTwo) {
  // An empty CUDA_VISIBLE_DEVICES hides every GPU: "no device" on a GPU machine, "no driver"
  // on a machine without one. Either way: versions printed, one line of cause on stderr.
  const auto r = run_command("CUDA_VISIBLE_DEVICES= " + cli + " info");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "kerntime: no NVIDIA driver found") ||
              contains(r.err, "kerntime: no CUDA device is visible"))
      << r.err;
  EXPECT_TRUE(contains(r.out, "runtime      CUDA ")) << r.out;
  EXPECT_TRUE(contains(r.out, "CUPTI        ")) << r.out;
}

using CliGpuTest = testing::GpuTest;

TEST_F(CliGpuTest, InfoDescribesTheDevices) {
  const auto r = run_command(cli + " info");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "compute capability")) << r.out;
  EXPECT_TRUE(contains(r.out, "L2 cache")) << r.out;
  EXPECT_TRUE(contains(r.out, "supports CUDA up to")) << r.out;
  EXPECT_TRUE(contains(r.out, "CUPTI        loads")) << r.out;
  EXPECT_TRUE(contains(r.out, "tracing      free: a kerntime::Tracer records kernels here"))
      << r.out;
}

// A tool that holds CUPTI's subscription (the test's client, as Nsight or compute-sanitizer
// would): info says who in words a user knows, and what to do.
TEST_F(CliGpuTest, InfoSaysWhatHoldsCuptiAndWhatToDo) {
  const auto r = run_command("CUDA_INJECTION64_PATH='" KERNTIME_OTHER_CLIENT
                             "' KERNTIME_OTHER_CLIENT_SUBSCRIBES=1 " +
                             cli + " info");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "tracing      off: CUPTI is held by ")) << r.out;
  EXPECT_FALSE(contains(r.out, "<not provided>")) << r.out;
  EXPECT_TRUE(contains(r.out, "To trace with kerntime, run the program without that tool"))
      << r.out;
}

}  // namespace
}  // namespace kerntime
