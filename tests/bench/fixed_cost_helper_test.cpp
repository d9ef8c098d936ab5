// SPDX-License-Identifier: Apache-2.0
// The calibration process, without a GPU: a script stands in for `kerntime calibrate`, so that
// what the engine runs, passes and reads back is checked here.
#include "bench/fixed_cost_helper.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>

#include <gtest/gtest.h>

namespace kerntime::bench {
namespace {

// A stand-in command that writes its arguments and environment beside itself, then `body`.
std::string fake_command(const std::string& name, const std::string& body) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream script{path};
  script << "#!/bin/sh\n"
         << "echo \"$@\" > '" << path << ".args'\n"
         << "env > '" << path << ".env'\n"
         << body << "\n";
  script.close();
  chmod(path.c_str(), 0755);
  return path;
}

std::string read(const std::string& path) {
  std::ifstream in{path};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class FixedCostHelper : public ::testing::Test {
 protected:
  void TearDown() override {
    ::unsetenv("KERNTIME_CLI");
    ::unsetenv("KERNTIME_NO_CALIBRATION_PROCESS");
    ::unsetenv("KERNTIME_CALIBRATION_PROCESS");
    ::unsetenv("CUDA_INJECTION64_PATH");
  }
};

TEST_F(FixedCostHelper, ReadsTheValueTheCommandPrints) {
  const std::string command = fake_command("kerntime_ok", "echo 'a line first'; echo 608.0");
  ::setenv("KERNTIME_CLI", command.c_str(), 1);
  ::setenv("CUDA_INJECTION64_PATH", "/opt/tool/libinject.so", 1);
  const HelperResult r = fixed_cost_from_helper("0000:01:00.0");
  ASSERT_TRUE(r.ns.has_value()) << r.problem;
  EXPECT_EQ(*r.ns, 608.0);
  EXPECT_EQ(read(command + ".args"), "calibrate --pci-bus-id 0000:01:00.0 --value-only\n");
  // The helper gets CUPTI of its own: the tool's injection is not passed on, and it is marked.
  const std::string env = read(command + ".env");
  EXPECT_EQ(env.find("CUDA_INJECTION64_PATH"), std::string::npos) << env;
  EXPECT_NE(env.find("KERNTIME_CALIBRATION_PROCESS=1"), std::string::npos) << env;
}

TEST_F(FixedCostHelper, AFailingCommandGivesItsLastLine) {
  const std::string command =
      fake_command("kerntime_fails",
                   "echo 'kerntime calibrate: needs CUPTI, which is not available' >&2; exit 2");
  ::setenv("KERNTIME_CLI", command.c_str(), 1);
  const HelperResult r = fixed_cost_from_helper("0000:02:00.0");
  EXPECT_FALSE(r.ns.has_value());
  EXPECT_NE(r.problem.find("calibrate failed: kerntime calibrate: needs CUPTI"), std::string::npos)
      << r.problem;
  // A GPU whose calibration process failed is not tried again in this process.
  std::remove((command + ".args").c_str());
  const HelperResult again = fixed_cost_from_helper("0000:02:00.0");
  EXPECT_FALSE(again.ns.has_value());
  EXPECT_EQ(again.problem, r.problem + " (tried once in this process)");
  EXPECT_EQ(read(command + ".args"), "");  // not run
}

TEST_F(FixedCostHelper, AnImplausibleValueIsNotTaken) {
  const std::string command = fake_command("kerntime_odd", "echo 1e9");
  ::setenv("KERNTIME_CLI", command.c_str(), 1);
  EXPECT_FALSE(fixed_cost_from_helper("0000:03:00.0").ns.has_value());
}

TEST_F(FixedCostHelper, NeverInsideAHelperNorWhenTurnedOff) {
  const std::string command = fake_command("kerntime_never", "echo 608.0");
  ::setenv("KERNTIME_CLI", command.c_str(), 1);
  ::setenv("KERNTIME_CALIBRATION_PROCESS", "1", 1);
  HelperResult r = fixed_cost_from_helper("0000:19:00.0");
  EXPECT_FALSE(r.ns.has_value());
  EXPECT_EQ(r.problem, "this is a calibration process already");
  ::unsetenv("KERNTIME_CALIBRATION_PROCESS");
  ::setenv("KERNTIME_NO_CALIBRATION_PROCESS", "1", 1);
  r = fixed_cost_from_helper("0000:19:00.0");
  EXPECT_FALSE(r.ns.has_value());
  EXPECT_EQ(r.problem, "KERNTIME_NO_CALIBRATION_PROCESS is set");
}

TEST_F(FixedCostHelper, AMissingCommandIsSaid) {
  ::setenv("KERNTIME_CLI", "/nonexistent/kerntime", 1);
  EXPECT_EQ(helper_command(), "");
  const HelperResult r = fixed_cost_from_helper("0000:05:00.0");
  EXPECT_FALSE(r.ns.has_value());
  EXPECT_NE(r.problem.find("set KERNTIME_CLI"), std::string::npos) << r.problem;
}

TEST(FixedCostHelperOutput, TheLastLineIsTheValue) {
  EXPECT_EQ(parse_helper_output("608.0\n"), 608.0);
  EXPECT_EQ(parse_helper_output("noise\n576.5\n\n"), 576.5);
  EXPECT_FALSE(parse_helper_output("").has_value());
  EXPECT_FALSE(parse_helper_output("608 ns\n").has_value());
  EXPECT_FALSE(parse_helper_output("-3\n").has_value());
  EXPECT_FALSE(parse_helper_output("nan\n").has_value());
}

TEST(FixedCostHelperEnvironment, DropsInjectionsAndMarksTheHelper) {
  const std::vector<std::string> out =
      helper_environment({"PATH=/bin", "CUDA_INJECTION64_PATH=/x.so", "NVTX_INJECTION64_PATH=/y.so",
                          "KERNTIME_CALIBRATION_PROCESS=0", "HOME=/root"});
  EXPECT_EQ(
      out, (std::vector<std::string>{"PATH=/bin", "HOME=/root", "KERNTIME_CALIBRATION_PROCESS=1"}));
}

}  // namespace
}  // namespace kerntime::bench
