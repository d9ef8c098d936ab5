// SPDX-License-Identifier: Apache-2.0
// `kerntime run` without a GPU: the command line, its exit statuses, the environment it gives
// the program, and a program that never starts CUDA.
#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>

#include "cli/run_environment.hpp"
#include "inject/run_recorder.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::run_command;

std::string kerntime_run(const std::string& rest) {
  return std::string{KERNTIME_CLI} + " run " + rest;
}

TEST(RunCli, ExitsWithTheProgramsStatus) {
  EXPECT_EQ(run_command(kerntime_run("-- true")).exit_status, 0);
  EXPECT_EQ(run_command(kerntime_run("-- sh -c 'exit 3'")).exit_status, 3);
  // A signal death reads as the shell reports it: 128 + N.
  EXPECT_EQ(run_command(kerntime_run("-- sh -c 'kill -TERM $$'")).exit_status, 143);
}

TEST(RunCli, ItsOwnFailuresExitTwoWithOneLine) {
  for (const std::string bad :
       {"-- /no/such/program", "--delay 2x -- true", "--capture-range sometimes -- true",
        "--kernel-filter '([' -- true", "--samples-per-kernel 0 -- true", ""}) {
    const auto result = run_command(kerntime_run(bad));
    EXPECT_EQ(result.exit_status, 2) << bad;
    EXPECT_EQ(testing::line_count(result.err), 1) << bad << ": " << result.err;
  }
  const auto other_tool =
      run_command("CUDA_INJECTION64_PATH=/opt/tool.so " + kerntime_run("-- true"));
  EXPECT_EQ(other_tool.exit_status, 2);
  EXPECT_NE(other_tool.err.find("/opt/tool.so"), std::string::npos) << other_tool.err;
}

TEST(RunCli, AProgramWithoutCudaWorkSaysSoAndStillWritesItsReport) {
  const std::string path = ::testing::TempDir() + "kerntime_run_no_cuda.json";
  const auto result = run_command(kerntime_run("-o " + path + " -- sh -c 'exit 0'"));
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_NE(result.err.find("no CUDA work was recorded"), std::string::npos) << result.err;
  const Report report = read_report_file(path);
  EXPECT_TRUE(report.entries.empty());
  ASSERT_FALSE(report.warnings.empty());
  EXPECT_NE(report.warnings.front().find("no CUDA work"), std::string::npos);
}

TEST(RunCli, AProgramWithoutCudaWorkKeepsItsOwnExitStatus) {
  const auto result = run_command(kerntime_run("-- sh -c 'exit 5'"));
  EXPECT_EQ(result.exit_status, 5);
  EXPECT_NE(result.err.find("kerntime run: no CUDA work was recorded (no process of the program "
                            "started CUDA with kerntime's library loaded"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(testing::line_count(result.err), 1) << result.err;
  EXPECT_EQ(run_command(kerntime_run("--no-last-launch -- sh -c 'kill -ABRT $$'")).exit_status,
            134);
}

TEST(RunCli, TheProgramSeesTheInjectionVariablesAndItsOwnArguments) {
  const auto result = run_command(
      kerntime_run("--capture-range nvtx:train --delay 1.5s --checkpoint 0 -- sh -c "
                   "'echo \"$CUDA_INJECTION64_PATH|$NVTX_INJECTION64_PATH|$KERNTIME_RUN_CAPTURE|"
                   "$KERNTIME_RUN_DELAY_NS|$KERNTIME_RUN_CHECKPOINT_MS|$0 $1\"' first second"));
  EXPECT_EQ(result.exit_status, 0) << result.err;
  const std::string line = result.out;
  EXPECT_NE(line.find("libkerntime_inject.so|"), std::string::npos) << line;
  EXPECT_NE(line.find("|nvtx:train|1500000000|0|first second"), std::string::npos) << line;
}

// Two `kerntime run` reports of the same program, one with a kernel 20 % slower: compare names
// that kernel and only that one.
TEST(RunCli, CompareOfTwoRunReportsNamesTheKernelThatSlowedDown) {
  const auto record = [](double slowdown, std::uint64_t seed) {
    inject::RunSettings settings;
    settings.output_directory = "/tmp";
    inject::RunRecorder recorder(settings);
    std::mt19937_64 random(seed);
    std::normal_distribution<double> noise(0.0, 20.0);
    trace::RecordBatch batch;
    std::uint64_t t = 1'000'000;
    for (int i = 0; i < 2000; ++i) {
      for (const auto& [name, ns] :
           {std::pair{"steady_gemm", 20'000.0}, std::pair{"slowed_norm", 4'000.0}}) {
        trace::RawKernel k;
        k.name = name;
        const double factor = std::string{name} == "slowed_norm" ? slowdown : 1.0;
        k.start_ns = t;
        k.end_ns = t + static_cast<std::uint64_t>(ns * factor + noise(random));
        t = k.end_ns + 1000;
        batch.kernels.push_back(k);
      }
    }
    recorder.append(std::move(batch));
    return recorder.report();
  };
  const std::string base = ::testing::TempDir() + "kerntime_run_base.json";
  const std::string slow = ::testing::TempDir() + "kerntime_run_slow.json";
  write_report_file(record(1.0, 1), base);
  write_report_file(record(1.2, 2), slow);
  const auto result =
      run_command(std::string{KERNTIME_CLI} + " compare " + base + " " + slow + " --format md");
  EXPECT_EQ(result.exit_status, 1) << result.out << result.err;
  std::string slowed_row, steady_row;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| slowed", 0) == 0) slowed_row = line;
    if (line.rfind("| steady", 0) == 0) steady_row = line;
  }
  EXPECT_NE(slowed_row.find("**regressed**"), std::string::npos) << result.out;
  EXPECT_NE(steady_row.find("| same |"), std::string::npos) << result.out;
}

TEST(RunEnvironment, SetsTheInjectionAndKeepsEverythingElse) {
  std::vector<std::string> current{"PATH=/bin", "CUDA_INJECTION64_PATH=", "KERNTIME_RUN_DIR=/old"};
  std::vector<char*> pointers;
  for (std::string& entry : current)
    pointers.push_back(entry.data());
  pointers.push_back(nullptr);
  cli::RunOptions options;
  options.duration = "10s";
  const auto env = cli::run_environment(pointers.data(), "/lib/inject.so", "/tmp/d", options);
  const auto has = [&](const std::string& entry) {
    return std::find(env.begin(), env.end(), entry) != env.end();
  };
  EXPECT_TRUE(has("PATH=/bin"));
  EXPECT_TRUE(has("CUDA_INJECTION64_PATH=/lib/inject.so"));
  EXPECT_TRUE(has("NVTX_INJECTION64_PATH=/lib/inject.so"));
  EXPECT_TRUE(has("KERNTIME_RUN_DIR=/tmp/d"));
  EXPECT_FALSE(has("KERNTIME_RUN_DIR=/old"));
  EXPECT_TRUE(has("KERNTIME_RUN_DURATION_NS=10000000000"));
  EXPECT_TRUE(has("KERNTIME_RUN_LAST_LAUNCH=1"));
  options.no_last_launch = true;
  const auto without = cli::run_environment(pointers.data(), "/lib/inject.so", "/tmp/d", options);
  EXPECT_NE(std::find(without.begin(), without.end(), "KERNTIME_RUN_LAST_LAUNCH=0"), without.end());
  EXPECT_TRUE(has("KERNTIME_RUN_ALL_API_CALLS=0"));
  options.all_api_calls = true;
  const auto every = cli::run_environment(pointers.data(), "/lib/inject.so", "/tmp/d", options);
  EXPECT_NE(std::find(every.begin(), every.end(), "KERNTIME_RUN_ALL_API_CALLS=1"), every.end());
  EXPECT_EQ(cli::parse_run_duration("--delay", "250ms"), 250'000'000u);
  EXPECT_EQ(cli::parse_run_duration("--delay", "1.5min"), 90'000'000'000u);
  EXPECT_THROW(cli::parse_run_duration("--delay", "-1s"), Error);
}

}  // namespace
}  // namespace kerntime
