// SPDX-License-Identifier: Apache-2.0
// "No usable GPU" reads the same from every program kerntime ships: exit status
// kerntime::kNoGpuExitStatus and one line on standard error, "<program>: <cause>" (docs/ci.md,
// "Exit status of kerntime's programs"). CUDA_VISIBLE_DEVICES= hides every GPU, so this runs on
// a GPU machine too.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/gpu_status.hpp>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

struct Program {
  std::string name;          ///< how its message starts
  std::string command;       ///< the executable and its arguments
  bool prints_info = false;  ///< kerntime info prints what it found on standard output
};

std::vector<Program> programs() {
  return {{"kerntime", "'" KERNTIME_CLI "' info", true},
          {"sample_benchmarks", "'" KERNTIME_SAMPLE_BENCHMARKS "' --processes 1"},
          {"sample_benchmarks", "'" KERNTIME_SAMPLE_BENCHMARKS "'"},
          {"quickstart", "'" KERNTIME_QUICKSTART "'"},
          {"bench_accuracy", "'" KERNTIME_BENCH_ACCURACY "'"},
          {"scope_overhead", "'" KERNTIME_SCOPE_OVERHEAD "'"},
          {"trace_app", "'" KERNTIME_TRACE_APP "' /dev/null"},
          {"trace_bench", "'" KERNTIME_TRACE_BENCH "'"}};
}

bool names_the_cause(const std::string& line) {
  return line.find("no NVIDIA driver found") != std::string::npos ||
         line.find("no CUDA device is visible") != std::string::npos;
}

TEST(NoGpuStatus, EveryProgramExitsWithTheSameStatusAndOneLine) {
  EXPECT_EQ(kNoGpuExitStatus, 2);  // what docs/ci.md promises
  for (const Program& p : programs()) {
    SCOPED_TRACE(p.command);
    const testing::CommandResult r = testing::run_command("CUDA_VISIBLE_DEVICES= " + p.command);
    EXPECT_EQ(r.exit_status, kNoGpuExitStatus) << r.err;
    EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind(p.name + ": ", 0), 0u) << r.err;
    EXPECT_TRUE(names_the_cause(r.err)) << r.err;
    if (!p.prints_info) {
      EXPECT_EQ(r.out, "") << r.out;
    }
  }
}

}  // namespace
}  // namespace kerntime
