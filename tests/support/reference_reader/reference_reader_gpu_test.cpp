// SPDX-License-Identifier: Apache-2.0
// The reference reader on a program with known kernels: exact counts, names, graph ids, and
// nothing lost when the process ends by _exit right after each kind of synchronize.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/gpu_test.hpp"
#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using kerntime::testing::CommandResult;
using kerntime::testing::run_command;

struct Line {
  std::uint64_t start = 0, end = 0;
  std::uint32_t device = 0, stream = 0, correlation = 0, graph = 0;
  std::string name;
};

struct Output {
  CommandResult result;
  std::map<int, std::vector<Line>> per_pid;  // every PREFIX.PID.tsv
};

class ReferenceReaderGpu : public kerntime::testing::GpuTest {
 protected:
  /// `reference_target MODE N` under the reader, and what it wrote.
  Output run(const std::string& mode, int n, bool with_prefix = true,
             const std::string& environment = "") {
    const fs::path dir = fs::path{::testing::TempDir()} / ("reference_reader_" + mode);
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string prefix = (dir / "ref").string();
    Output out;
    out.result = run_command(
        std::string{"CUDA_INJECTION64_PATH="} + KERNTIME_REFERENCE_READER +
        (with_prefix ? " KERNTIME_REFERENCE_OUT=" + prefix : " KERNTIME_REFERENCE_OUT=") + " " +
        environment + " timeout 120 " + KERNTIME_REFERENCE_TARGET + " " + mode + " " +
        std::to_string(n));
    for (const auto& file : fs::directory_iterator(dir)) {
      const std::string name = file.path().filename().string();
      int pid = 0;
      char tail[8] = {};
      if (std::sscanf(name.c_str(), "ref.%d.%4s", &pid, tail) != 2 || std::string{tail} != "tsv")
        continue;
      std::ifstream in{file.path()};
      std::vector<Line>& lines = out.per_pid[pid];
      for (std::string text; std::getline(in, text);) {
        std::istringstream fields{text};
        Line line;
        fields >> line.start >> line.end >> line.device >> line.stream >> line.correlation >>
            line.graph;
        fields.get();  // the tab before the name
        std::getline(fields, line.name);
        EXPECT_TRUE(fields.eof() || !fields.fail()) << text;
        lines.push_back(line);
      }
    }
    return out;
  }
};

std::map<std::string, int> counts(const std::vector<Line>& lines) {
  std::map<std::string, int> result;
  for (const Line& line : lines)
    ++result[line.name];
  return result;
}

// The lines of the one process, every one with real timestamps. A launch's correlation id is
// on its kernels only: one kernel per launch, or each kernel of a graph (`kernels_per_launch`).
const std::vector<Line>& only_process(const Output& out, int kernels_per_launch = 1) {
  static const std::vector<Line> none;
  EXPECT_EQ(out.per_pid.size(), 1u) << out.result.err;
  if (out.per_pid.empty()) return none;
  const std::vector<Line>& lines = out.per_pid.begin()->second;
  std::map<std::uint32_t, int> kernels_of_correlation;
  for (const Line& line : lines) {
    EXPECT_GT(line.start, 0u) << line.name;
    EXPECT_GT(line.end, line.start) << line.name;
    EXPECT_EQ(line.device, 0u);
    ++kernels_of_correlation[line.correlation];
  }
  for (const auto& [correlation, kernels] : kernels_of_correlation)
    EXPECT_EQ(kernels, kernels_per_launch) << "correlation id " << correlation;
  EXPECT_EQ(kernels_of_correlation.size() * static_cast<std::size_t>(kernels_per_launch),
            lines.size());
  return lines;
}

const std::string kAlpha = "reference_target_alpha(float*)";
const std::string kBeta = "reference_target_beta(float*)";

TEST_F(ReferenceReaderGpu, CountsAndNamesEveryKernelOfAProcessThatReturnsFromMain) {
  const Output out = run("launch", 500);
  ASSERT_EQ(out.result.exit_status, 0) << out.result.err;
  const std::vector<Line>& lines = only_process(out);
  EXPECT_EQ(counts(lines), (std::map<std::string, int>{{kAlpha, 500}, {kBeta, 1000}}));
  for (const Line& line : lines)
    EXPECT_EQ(line.graph, 0u);
}

TEST_F(ReferenceReaderGpu, DriverApiLaunchesKeepTheirUnmangledName) {
  const Output out = run("driver", 300);
  ASSERT_EQ(out.result.exit_status, 0) << out.result.err;
  EXPECT_EQ(counts(only_process(out)),
            (std::map<std::string, int>{{"reference_target_driver", 300}}));
}

TEST_F(ReferenceReaderGpu, GraphReplaysGiveEachKernelWithTheGraphsId) {
  const Output out = run("graph", 200);
  ASSERT_EQ(out.result.exit_status, 0) << out.result.err;
  const std::vector<Line>& lines = only_process(out, 3);  // alpha, beta, beta per replay
  EXPECT_EQ(counts(lines), (std::map<std::string, int>{{kAlpha, 200}, {kBeta, 400}}));
  std::set<std::uint32_t> graphs;
  for (const Line& line : lines)
    graphs.insert(line.graph);
  EXPECT_EQ(graphs.size(), 1u);
  EXPECT_NE(*graphs.begin(), 0u);
}

// Each kind of synchronize flushes, so an _exit right after it loses nothing.
TEST_F(ReferenceReaderGpu, NothingIsLostByAnExitRightAfterASynchronize) {
  const struct {
    const char* mode;
    int status;
  } cases[] = {{"stream_exit", 3}, {"event_exit", 4}, {"device_exit", 5}, {"ctx_exit", 6}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.mode);
    const Output out = run(c.mode, 2000);
    EXPECT_EQ(out.result.exit_status, c.status) << out.result.err;
    EXPECT_EQ(counts(only_process(out)),
              (std::map<std::string, int>{{kAlpha, 2000}, {kBeta, 4000}}));
  }
}

// The flush at a synchronize is what keeps them: without it (for cost measurements), the
// records of a buffer CUPTI has not filled are lost by the _exit.
TEST_F(ReferenceReaderGpu, WithoutTheFlushAtSynchronizeAnExitLosesRecords) {
  const Output out = run("stream_exit", 2000, true, "KERNTIME_REFERENCE_FLUSH_AT_SYNC=0");
  EXPECT_EQ(out.result.exit_status, 3) << out.result.err;
  ASSERT_EQ(out.per_pid.size(), 1u) << out.result.err;  // the file exists, from cuInit on
  EXPECT_LT(out.per_pid.begin()->second.size(), 6000u);
}

TEST_F(ReferenceReaderGpu, WithoutTheFlushAtSynchronizeANormalExitKeepsEverything) {
  const Output out = run("launch", 500, true, "KERNTIME_REFERENCE_FLUSH_AT_SYNC=0");
  ASSERT_EQ(out.result.exit_status, 0) << out.result.err;
  EXPECT_EQ(counts(only_process(out)), (std::map<std::string, int>{{kAlpha, 500}, {kBeta, 1000}}));
}

TEST_F(ReferenceReaderGpu, AForkChildThatExitsWritesNothing) {
  const Output out = run("fork", 100);
  ASSERT_EQ(out.result.exit_status, 0) << out.result.err;
  EXPECT_EQ(counts(only_process(out)), (std::map<std::string, int>{{kAlpha, 100}, {kBeta, 200}}));
}

TEST_F(ReferenceReaderGpu, WithoutAnOutputPrefixItSaysSoAndTheProgramRuns) {
  const Output out = run("launch", 10, false);
  EXPECT_EQ(out.result.exit_status, 0) << out.result.err;
  EXPECT_NE(out.result.err.find("set KERNTIME_REFERENCE_OUT"), std::string::npos) << out.result.err;
  EXPECT_TRUE(out.per_pid.empty());
}

}  // namespace
