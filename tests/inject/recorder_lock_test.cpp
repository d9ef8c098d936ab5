// SPDX-License-Identifier: Apache-2.0
// A checkpoint must not stall the program: RunRecorder::report() holds the lock that a program
// thread closing an NVTX range (and the CUPTI reader thread) takes only while it copies, not
// while it computes every name's statistics (a sort of its samples each).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "inject/run_recorder.hpp"

namespace kerntime::inject {
namespace {

using Clock = std::chrono::steady_clock;

TEST(RunRecorderLock, AReportHoldsTheLockOnlyToCopy) {
  RunSettings settings;
  settings.output_directory = "/tmp";
  settings.samples_per_kernel = 100'000;
  RunRecorder recorder(settings);
  std::vector<std::string> names;
  for (int i = 0; i < 20; ++i)
    names.push_back("kernel_" + std::to_string(i));
  std::uint64_t t = 1'000;
  for (int round = 0; round < 100; ++round) {
    trace::RecordBatch batch;
    for (int i = 0; i < 20'000; ++i) {
      trace::RawKernel kernel;
      kernel.name = names[static_cast<std::size_t>(i) % names.size()].c_str();
      kernel.start_ns = t;
      kernel.end_ns = t + 1000 + static_cast<std::uint64_t>((i * 7919) % 5000);
      t = kernel.end_ns + 10;
      batch.kernels.push_back(kernel);
    }
    recorder.append(std::move(batch));
  }
  const std::uint64_t range = recorder.range_id("", "step");
  recorder.add_range(range, 0, 100);
  std::atomic<bool> reporting{true};
  std::atomic<double> longest_ms{0.0};
  std::thread program{[&] {
    std::uint64_t now = 1'000;
    while (reporting.load()) {
      const auto start = Clock::now();
      recorder.add_range(range, now, now + 100);
      const double waited = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      longest_ms.store(std::max(longest_ms.load(), waited));
      now += 200;
    }
  }};
  const auto start = Clock::now();
  const Report report = recorder.report(false);
  const double built_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  reporting.store(false);
  program.join();
  ASSERT_EQ(report.entries.size(), 21u);  // 20 kernels and the range
  EXPECT_EQ(report.entries[0].samples.size(), 100'000u);
  // Before: the program waited for the whole report (the statistics of 2,000,000 samples).
  EXPECT_LT(longest_ms.load(), built_ms / 3) << "report built in " << built_ms << " ms";
  // The exact median of a kernel whose every duration is kept, as the statistics say.
  EXPECT_EQ(report.trace->kernel_summary[0].median_ns, report.entries[0].statistics.median);
}

}  // namespace
}  // namespace kerntime::inject
