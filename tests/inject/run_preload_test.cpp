// SPDX-License-Identifier: Apache-2.0
// How `kerntime run` reaches the ends that run no atexit handler, without a GPU: the program's
// environment preloads libkerntime_preload.so (ahead of the program's own preloads), every
// process of the program gets it, and a second report of one pid (after an exec) gets a name of
// its own instead of replacing the first.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/run_environment.hpp"
#include "inject/shard_name.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

std::vector<std::string> environment_with(std::vector<std::string> current,
                                          const std::string& preload) {
  std::vector<char*> pointers;
  for (std::string& entry : current)
    pointers.push_back(entry.data());
  pointers.push_back(nullptr);
  return cli::run_environment(pointers.data(), "/lib/inject.so", "/tmp/d", cli::RunOptions{},
                              preload);
}

std::string preloads(const std::vector<std::string>& env) {
  for (const std::string& entry : env) {
    if (entry.rfind("LD_PRELOAD=", 0) == 0) return entry.substr(11);
  }
  return "(none)";
}

TEST(RunPreload, TheEnvironmentPreloadsKerntimesLibraryFirst) {
  EXPECT_EQ(preloads(environment_with({"PATH=/bin"}, "/lib/libkerntime_preload.so")),
            "/lib/libkerntime_preload.so");
  // The program's own preloads stay, after it, whichever separator they used; a nested
  // `kerntime run` does not preload it twice.
  EXPECT_EQ(preloads(environment_with({"LD_PRELOAD=/a.so /b.so:/lib/libkerntime_preload.so"},
                                      "/lib/libkerntime_preload.so")),
            "/lib/libkerntime_preload.so:/a.so:/b.so");
  // Without the library, the program's variable is left as it was.
  EXPECT_EQ(preloads(environment_with({"LD_PRELOAD=/a.so"}, "")), "/a.so");
  EXPECT_EQ(preloads(environment_with({"PATH=/bin"}, "")), "(none)");
}

TEST(RunPreload, EveryProcessOfTheProgramGetsIt) {
  const auto result = testing::run_command(std::string{KERNTIME_CLI} +
                                           " run -- sh -c 'sh -c \"echo $LD_PRELOAD\"'");
  EXPECT_EQ(result.exit_status, 0) << result.err;
  EXPECT_NE(result.out.find("libkerntime_preload.so"), std::string::npos) << result.out;
  EXPECT_EQ(result.err.find("is missing"), std::string::npos) << result.err;
}

TEST(RunPreload, AProgramWithoutCudaLeavesThroughExitAndExecUnchanged) {
  const std::string run = std::string{KERNTIME_CLI} + " run -- ";
  EXPECT_EQ(testing::run_command(run + "sh -c 'exec sh -c \"exit 6\"'").exit_status, 6);
  EXPECT_EQ(
      testing::run_command(run + "python3 -c 'import os; os.execv(\"/bin/sh\", [\"sh\", \"-c\", "
                                 "\"exit 7\"])'")
          .exit_status,
      7);
  const auto python = testing::run_command(run + "python3 -c 'import os; os._exit(3)'");
  EXPECT_EQ(python.exit_status, 3) << python.err;
}

TEST(RunPreload, ASecondReportOfTheSamePidGetsANameOfItsOwn) {
  std::set<std::string> taken;
  const auto exists = [&](const std::string& path) { return taken.count(path) != 0; };
  EXPECT_EQ(inject::unused_report_path("/d", "host.pid7.json", exists), "/d/host.pid7.json");
  taken.insert("/d/host.pid7.json");
  EXPECT_EQ(inject::unused_report_path("/d", "host.pid7.json", exists), "/d/host.pid7.2.json");
  taken.insert("/d/host.pid7.2.json");
  EXPECT_EQ(inject::unused_report_path("/d", "host.pid7.json", exists), "/d/host.pid7.3.json");
  EXPECT_EQ(inject::unused_report_path("/d", "host.rank1.pid8.json", exists),
            "/d/host.rank1.pid8.json");
}

// A profiler the program starts (torch.profiler's Kineto) asks CUPTI for the subscriber slot
// that `kerntime run` holds: CUPTI refuses it, and the preload passes the call on unchanged and
// counts it, naming the library of the first refused call. That library's libcupti may be in
// the global scope, or in the library's own (Python's extension modules load so).
TEST(RunPreload, CuptiSubscribeIsPassedOnAndItsRefusalsCounted) {
  for (const char* scope : {"local", "global"}) {
    const std::string probe =
        std::string{KERNTIME_SUBSCRIBER_PROBE} + " " + KERNTIME_SUBSCRIBER_MODULE + " " + scope;
    const auto bare = testing::run_command(probe);
    ASSERT_EQ(bare.exit_status, 0) << bare.err;
    EXPECT_EQ(bare.out, "results 0 39 39\nno preload\n") << scope;
    // The sanitizers' runtimes want to be loaded first; the preload is plain libc code.
    const auto preloaded = testing::run_command(
        "ASAN_OPTIONS=\"${ASAN_OPTIONS}:verify_asan_link_order=0\" LD_PRELOAD=" +
        std::string{KERNTIME_PRELOAD} + " " + probe);
    ASSERT_EQ(preloaded.exit_status, 0) << preloaded.err;
    EXPECT_EQ(preloaded.out, "results 0 39 39\nrefused 2\nfirst caller " +
                                 std::string{KERNTIME_SUBSCRIBER_MODULE} + "\n")
        << scope;
  }
}

}  // namespace
}  // namespace kerntime
