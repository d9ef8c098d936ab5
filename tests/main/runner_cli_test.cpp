// SPDX-License-Identifier: Apache-2.0
// The runner as a user runs it: help, list and bad arguments, on any machine.
#include <string>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::line_count;
using testing::run_command;

const std::string runner = KERNTIME_BENCH_FIXTURE;
// No GPU for the runner: --help and --list must not need one.
const std::string no_gpu = "CUDA_VISIBLE_DEVICES= ";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(RunnerCli, HelpWorksWithoutAGpu) {
  const auto r = run_command(no_gpu + runner + " --help");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "--axis")) << r.out;
  EXPECT_TRUE(contains(r.out, "Exit status")) << r.out;
}

TEST(RunnerCli, ListShowsAxesAndConfigurationsWithoutAGpu) {
  const auto r = run_command(no_gpu + runner + " --list");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "[0] spin (2 configurations)\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  ns [int]: 2000,20000")) << r.out;
  EXPECT_TRUE(contains(r.out, "  bytes [pow2]: 1048576")) << r.out;
  EXPECT_TRUE(contains(r.out, "  tagged/variant=b/f=0.5\n")) << r.out;
}

TEST(RunnerCli, ListAppliesFilterAndAxes) {
  const auto r = run_command(no_gpu + runner + " --list --filter spin --axis ns=1:3");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "  spin/ns=3\n")) << r.out;
  EXPECT_FALSE(contains(r.out, "copy")) << r.out;
  EXPECT_FALSE(contains(r.out, "spin/ns=2000")) << r.out;
}

TEST(RunnerCli, ListShowsTypeAxesAndTheirConfigurations) {
  const auto r = run_command(no_gpu + runner + " --list -b typed");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "[3] typed (6 configurations)\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  T [type]: float,int8,double\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  typed/T=int8/n=4096\n")) << r.out;
  EXPECT_FALSE(contains(r.out, "spin")) << r.out;
}

TEST(RunnerCli, ListShowsTheValuesThatRunAfterNvbenchStyleAxes) {
  const auto r = run_command(no_gpu + runner + " --list -b 3 -a 'T=[F64,I8]' -a " +
                             "'n[pow2]=[4:6:2]' -b spin -a ns=7");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  // Each -a belongs to the -b before it.
  EXPECT_TRUE(contains(r.out, "  ns [int]: 7\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  T [type]: double,int8\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  n [pow2]: 16,64\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  typed/T=double/n=16\n")) << r.out;
  // Before any -b, an -a applies to every benchmark with that axis.
  const auto spin = run_command(no_gpu + runner + " --list -a 'ns=[5:15:5]'");
  EXPECT_EQ(spin.exit_status, 0) << spin.err;
  EXPECT_TRUE(contains(spin.out, "  ns [int]: 5,10,15\n")) << spin.out;  // not 2000,20000
}

TEST(RunnerCli, ListAndRunAgreeOnAFilterThatMatchesNothing) {
  for (const char* args : {" --list --filter nomatch", " --filter nomatch"}) {
    const auto r = run_command(no_gpu + runner + args);
    EXPECT_EQ(r.exit_status, 2) << args;
    EXPECT_EQ(line_count(r.err), 1) << args << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "no configuration matches --filter 'nomatch'")) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(RunnerCli, ANameCopiedFromAReportMatches) {
  auto r = run_command(no_gpu + runner + " --list --filter 'spin/ns=2000/cold'");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "configurations:\n  spin/ns=2000\n")) << r.out;
  r = run_command(no_gpu + runner + " --list --mode hot --filter 'spin/ns=2000/hot$'");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  r = run_command(no_gpu + runner + " --list -d 0,1 --filter 'spin/ns=2000/cold/device=1'");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "  spin/ns=2000\n")) << r.out;
}

TEST(RunnerCli, BadArgumentsExitTwoWithOneLine) {
  for (const char* args :
       {" --bogus", " --mode lukewarm", " --axis nope=1", " --filter '('", " --axis ns=x",
        " --filter nothing-matches", " --format yaml", " --processes 0", " --kerntime-worker=0",
        " -d -1", " --list -b nope", " --list -b 9", " --list -a T=half", " --list -b copy -a ns=1",
        " --list -a ns=1 -b typed", " --throttle-threshold 120", " --seed 1"}) {
    const auto r = run_command(no_gpu + runner + args);
    EXPECT_EQ(r.exit_status, 2) << args << ": " << r.err;
    EXPECT_EQ(line_count(r.err), 1) << args << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "fixture_benchmarks: ")) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(RunnerCli, RunningWithoutAGpuSaysWhyInOneLine) {
  // Default --processes: the parent says it once, before it starts any child.
  const auto r = run_command(no_gpu + runner + " --filter spin");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "no NVIDIA driver found") ||
              contains(r.err, "no CUDA device is visible"))
      << r.err;
}

}  // namespace
}  // namespace kerntime
