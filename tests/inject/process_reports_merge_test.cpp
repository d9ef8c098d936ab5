// SPDX-License-Identifier: Apache-2.0
// The merge of `kerntime run`'s per-process reports: each process a run, summaries exact.
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/report_transforms.hpp>
#include <kerntime/statistics.hpp>

#include "inject/run_recorder.hpp"
#include "recorder_records.hpp"

namespace kerntime::inject {
namespace {

using recorder_test::kernel;
using recorder_test::row;
using recorder_test::settings;

TEST(MergeProcessReports, EachProcessIsARunAndKernelSummariesCombineExactly) {
  RunRecorder first(settings());
  RunRecorder second(settings());
  trace::RecordBatch a;
  trace::RecordBatch b;
  for (int i = 0; i < 10; ++i)
    a.kernels.push_back(kernel("k", 1000 + i * 100, 10 + i));
  for (int i = 0; i < 30; ++i)
    b.kernels.push_back(kernel("k", 1000 + i * 100, 50 + i));
  first.append(std::move(a));
  second.append(std::move(b));
  const Report merged = merge_process_reports({first.report(), second.report()}, {"p1", "p2"});
  ASSERT_EQ(merged.entries.size(), 1u);
  EXPECT_EQ(merged.entries[0].run_count(), 2u);
  EXPECT_EQ(merged.entries[0].samples.size(), 40u);
  const KernelSummary& k = merged.trace->kernel_summary.at(0);
  EXPECT_EQ(k.instances, 40u);
  EXPECT_EQ(k.total_ns, 145u + 1935u);
  EXPECT_EQ(k.min_ns, 10u);
  EXPECT_EQ(k.max_ns, 79u);
  // Pooled standard deviation equals the one of all 40 durations.
  std::vector<double> all;
  for (int i = 0; i < 10; ++i)
    all.push_back(10 + i);
  for (int i = 0; i < 30; ++i)
    all.push_back(50 + i);
  const Statistics exact = compute_statistics(all);
  ASSERT_TRUE(k.stddev_ns);
  EXPECT_NEAR(*k.stddev_ns, *exact.stddev, 1e-9);
  EXPECT_DOUBLE_EQ(k.median_ns, exact.median);
  EXPECT_EQ(merged.trace->kernels.size(), 40u);
  EXPECT_EQ(merged.trace->counts.kernels, 40u);
}

}  // namespace
}  // namespace kerntime::inject
