// SPDX-License-Identifier: Apache-2.0
// The runner as a user runs it on a GPU: reports that kerntime reads, modes, devices.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/report_json.hpp>

#include "support/gpu_test.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::line_count;
using testing::run_command;

const std::string runner = KERNTIME_BENCH_FIXTURE;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class RunnerCliGpu : public testing::GpuTest {};

TEST_F(RunnerCliGpu, WritesAReportThatKerntimeReads) {
  const std::string json = ::testing::TempDir() + "runner_cli_gpu.json";
  const std::string md = ::testing::TempDir() + "runner_cli_gpu.md";
  const auto r = run_command(runner + " --filter 'spin/ns=20000|copy' --timeout 2 --quiet -o " +
                             json + " -o " + md);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;  // --quiet
  const Report report = read_report_file(json);
  ASSERT_EQ(report.entries.size(), 4u);
  EXPECT_EQ(report.entries[0].name, "spin/ns=20000/cold");
  EXPECT_EQ(report.entries[1].name, "spin/ns=20000/cold/events");
  EXPECT_EQ(report.entries[2].name, "copy/bytes=1048576/cold");
  EXPECT_EQ(report.entries[0].timer, "cupti-kernel");
  EXPECT_GE(report.entries[0].statistics.count, 20u);
  // A 20 us spin: CUPTI reads about 20.5 us.
  EXPECT_GT(report.entries[0].statistics.median, 20'000.0);
  EXPECT_LT(report.entries[0].statistics.median, 21'500.0);
  std::FILE* file = std::fopen(md.c_str(), "r");
  ASSERT_NE(file, nullptr);
  char first[16] = {};
  ASSERT_NE(std::fgets(first, sizeof first, file), nullptr);
  std::fclose(file);
  EXPECT_EQ(std::string{first}.rfind("| Benchmark", 0), 0u) << first;
}

TEST_F(RunnerCliGpu, GraphModeAndEventsOnlyAreNamedInTheResults) {
  const auto r =
      run_command(runner + " --filter spin/ns=2000 --mode graph --no-cupti --format csv");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "spin/ns=2000/graph,graph,0,")) << r.out;
  EXPECT_TRUE(contains(r.out, ",cuda-event-batch,")) << r.out;
}

// --processes 3: three children, each over every selected configuration, one report with three
// runs per entry (each child's samples a run of its own).
TEST_F(RunnerCliGpu, ThreeProcessesGiveThreeRunsPerEntry) {
  const std::string json = ::testing::TempDir() + "runner_cli_gpu_processes.json";
  const auto r = run_command(runner + " --filter 'spin|copy' --processes 3 --quiet -o " + json);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const Report report = read_report_file(json);
  ASSERT_EQ(report.entries.size(), 6u);  // 3 configurations, each with its /events entry
  EXPECT_EQ(report.entries[0].name, "spin/ns=2000/cold");
  for (const Entry& e : report.entries) {
    ASSERT_EQ(e.run_sizes.size(), 3u) << e.name;
    std::size_t total = 0;
    for (std::size_t n : e.run_sizes) {
      EXPECT_GE(n, 20u) << e.name;  // each process reaches the minimum sample count
      total += n;
    }
    EXPECT_EQ(total, e.samples.size()) << e.name;
  }
}

TEST_F(RunnerCliGpu, OneProcessIsOneRun) {
  const std::string json = ::testing::TempDir() + "runner_cli_gpu_one_process.json";
  const auto r = run_command(runner + " --filter 'spin/ns=2000$' --processes 1 --quiet -o " + json);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const Report report = read_report_file(json);
  ASSERT_EQ(report.entries.size(), 2u);
  EXPECT_TRUE(report.entries[0].run_sizes.empty());
}

// --profile: what Nsight Compute needs, one sample of each configuration with nothing of
// kerntime's own on the GPU.
TEST_F(RunnerCliGpu, ProfileTakesOneEventSamplePerConfiguration) {
  const std::string json = ::testing::TempDir() + "runner_cli_gpu_profile.json";
  const auto r =
      run_command(runner + " --filter 'spin/ns=20000/cold' --profile --quiet -o " + json);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const Report report = read_report_file(json);
  ASSERT_EQ(report.entries.size(), 2u);
  EXPECT_EQ(report.entries[0].name, "spin/ns=20000/cold");
  EXPECT_EQ(report.entries[0].timer, "cuda-event");
  ASSERT_EQ(report.entries[0].samples.size(), 1u);
  // Without the blocking kernel the event pair also holds the launch: at least the 20 us.
  EXPECT_GT(report.entries[0].samples[0], 20'000.0);
  bool said = false;
  for (const std::string& w : report.warnings)
    said = said || contains(w, "one sample per configuration (--run-once), no blocking kernel");
  EXPECT_TRUE(said);
}

// --repetitions with --random-interleaving: each configuration measured three times in a
// shuffled order, one run per entry, the seed printed and recorded.
TEST_F(RunnerCliGpu, RepetitionsInARandomOrderAreOneRunWithTheSeedRecorded) {
  const std::string json = ::testing::TempDir() + "runner_cli_gpu_interleaved.json";
  const auto r = run_command(runner +
                             " --filter 'spin|copy' --processes 1 --repetitions 3 "
                             "--random-interleaving --seed 11 -o " +
                             json);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "random interleaving with seed 11 (--seed 11 repeats it)")) << r.err;
  const Report report = read_report_file(json);
  ASSERT_EQ(report.entries.size(), 6u);
  for (const Entry& e : report.entries) {
    EXPECT_TRUE(e.run_sizes.empty()) << e.name;  // the repetitions of one process: one run
    EXPECT_GE(e.samples.size(), 60u) << e.name;  // each repetition at least 20 samples
  }
  bool recorded = false;
  for (const std::string& w : report.warnings)
    recorded = recorded || contains(w, "--random-interleaving --seed 11 repeats it");
  EXPECT_TRUE(recorded);
}

TEST_F(RunnerCliGpu, EveryProcessShufflesWithTheParentsSeed) {
  const std::string json = ::testing::TempDir() + "runner_cli_gpu_interleaved_processes.json";
  const auto r =
      run_command(runner + " --filter spin --processes 2 --random-interleaving -o " + json);
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;  // the seed, once, from the parent
  EXPECT_TRUE(contains(r.err, "random interleaving with seed ")) << r.err;
  const Report report = read_report_file(json);
  ASSERT_EQ(report.entries.size(), 4u);
  for (const Entry& e : report.entries)
    EXPECT_EQ(e.run_sizes.size(), 2u) << e.name;
}

TEST_F(RunnerCliGpu, AnInvisibleDeviceIsABadArgument) {
  const auto r = run_command(runner + " --filter spin --device 99");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "--device 99")) << r.err;
}

}  // namespace
}  // namespace kerntime
