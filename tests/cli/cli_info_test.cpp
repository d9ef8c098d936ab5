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

TEST(Cli, HelpIsACommandToo) {
  const auto top = run_command(cli + " help");
  EXPECT_EQ(top.exit_status, 0) << top.err;
  EXPECT_TRUE(contains(top.out, "Usage: kerntime [OPTIONS] SUBCOMMAND")) << top.out;
  const auto compare = run_command(cli + " help compare");
  EXPECT_EQ(compare.exit_status, 0) << compare.err;
  EXPECT_TRUE(contains(compare.out, "Usage: kerntime compare [OPTIONS] baseline candidate"))
      << compare.out;
}

// A slip in a command or option gets the known word that was meant, in one line.
TEST(Cli, DidYouMeanTheCommandOrOption) {
  const auto command = run_command(cli + " compar a.json b.json");
  EXPECT_EQ(command.exit_status, 2);
  EXPECT_EQ(line_count(command.err), 1) << command.err;
  EXPECT_TRUE(contains(command.err,
                       "unknown command 'compar'; did you mean 'compare'? The "
                       "commands are info, calibrate, compare, report, run, and help."))
      << command.err;
  const auto option = run_command(cli + " compare a.json b.json --treshold 5%");
  EXPECT_EQ(option.exit_status, 2);
  EXPECT_EQ(line_count(option.err), 1) << option.err;
  EXPECT_TRUE(contains(option.err, "unknown option '--treshold'; did you mean '--threshold'?"))
      << option.err;
  const auto far = run_command(cli + " report a.json --zzzz");
  EXPECT_TRUE(contains(far.err, "unknown option '--zzzz'. Run 'kerntime help'")) << far.err;
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
