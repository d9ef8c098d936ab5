// SPDX-License-Identifier: Apache-2.0
// A real Google Benchmark program (gbench_program/cpu_benchmarks.cpp) run as its users run it:
// its file compared with itself is `same` (CPU timers get no GPU allowance), two processes of it
// pass the gate with the allowance its hosts need, and kerntime report writes the file back with
// every repetition's iterations, cpu_time and counters.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"
#include "support/text_counts.hpp"

namespace kerntime {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::run_command;

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

using testing::count_lines_with;

class GoogleBenchmarkProgram : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::path{::testing::TempDir()} / "kerntime_gbench_program";
    fs::remove_all(folder_);
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }

  // One process of the program, its JSON to `name`.
  void run_program(const std::string& name) const {
    const CommandResult r =
        run_command("'" KERNTIME_GBENCH_PROGRAM
                    "' --benchmark_repetitions=40 --benchmark_min_time=0.05 "
                    "--benchmark_format=json --benchmark_out_format=json --benchmark_out='" +
                    (folder_ / name).string() + "' > /dev/null");
    ASSERT_EQ(r.exit_status, 0) << r.err;
  }

  CommandResult kerntime(const std::string& arguments) const {
    return run_command("cd '" + folder_.string() + "' && NO_COLOR= '" KERNTIME_EXECUTABLE "' " +
                       arguments);
  }

  fs::path folder_;
};

TEST_F(GoogleBenchmarkProgram, ItsFileComparedWithItselfIsSame) {
  run_program("a.json");
  const CommandResult r = kerntime("compare a.json a.json");
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  // Three benchmarks of forty repetitions, each `same`: CPU timers get no allowance, and forty
  // repetitions keep the interval of identical samples within the 5 % threshold on a busy
  // 2-core machine, where twenty left one at +-6.4 %.
  EXPECT_EQ(count_lines_with(r.out, " same "), 3) << r.out;
  EXPECT_NE(r.out.find("0 regressed, 0 improved, 3 same, 0 inconclusive"), std::string::npos)
      << r.out;
}

TEST_F(GoogleBenchmarkProgram, TwoProcessesOfTheSameBuildPassTheGateWithTheHostsAllowance) {
  run_program("a.json");
  run_program("b.json");
  // CPU timers get no allowance by default, and processes of this program moved by up to 8 %
  // on an H200 host and, now and then, past 5 % on a 2-core CI machine (docs/ci.md). With the
  // allowance docs/ci.md says such a host needs, the same build never fails the gate: each
  // benchmark is `same`, or `inconclusive` where the processes moved more than the interval
  // allows to call it the same.
  const CommandResult r = kerntime("compare a.json b.json --process-allowance 8%");
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 regressed, 0 improved"), std::string::npos) << r.out;
  EXPECT_EQ(count_lines_with(r.out, " same ") + count_lines_with(r.out, " inconclusive "), 3)
      << r.out;
  // Without it, what the note says about such hosts.
  const CommandResult plain = kerntime("compare a.json b.json");
  EXPECT_NE(plain.out.find("8.1% on an H200 host; --process-allowance 8% covers such a host"),
            std::string::npos)
      << plain.out;
}

TEST_F(GoogleBenchmarkProgram, ReportWritesBackIterationsCpuTimeAndCounters) {
  run_program("a.json");
  const CommandResult r = kerntime("report a.json --format gbench-json -o back.json");
  ASSERT_EQ(r.exit_status, 0) << r.out << r.err;
  const nlohmann::json original = read_json(folder_ / "a.json");
  const nlohmann::json back = read_json(folder_ / "back.json");
  std::size_t checked = 0;
  for (const auto& run : original["benchmarks"]) {
    if (run["run_type"] != "iteration") continue;
    const double to_ns = run["time_unit"] == "us" ? 1e3 : run["time_unit"] == "ms" ? 1e6 : 1.0;
    for (const auto& out : back["benchmarks"]) {
      if (out["run_type"] != "iteration" || out["run_name"] != run["run_name"] ||
          out["repetition_index"] != run["repetition_index"]) {
        continue;
      }
      SCOPED_TRACE(run.dump());
      EXPECT_EQ(out["iterations"], run["iterations"]);
      EXPECT_DOUBLE_EQ(out["real_time"].get<double>(), run["real_time"].get<double>() * to_ns);
      EXPECT_DOUBLE_EQ(out["cpu_time"].get<double>(), run["cpu_time"].get<double>() * to_ns);
      for (const char* counter : {"items_per_second", "elements", "rounds"}) {
        if (!run.contains(counter)) continue;
        ASSERT_TRUE(out.contains(counter)) << counter;
        EXPECT_DOUBLE_EQ(out[counter].get<double>(), run[counter].get<double>()) << counter;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 120u);  // 3 benchmarks x 40 repetitions
}

}  // namespace
}  // namespace kerntime
