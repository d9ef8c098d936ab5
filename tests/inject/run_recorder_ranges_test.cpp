// SPDX-License-Identifier: Apache-2.0
// `kerntime run`'s recorder on NVTX ranges: ranges as entries, nesting, kernels counted once
// per open range with the innermost owning them, tags or launch-noted ranges arriving in any
// order, overwritten slots, the cap on nestings, and a path's text.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/report_json.hpp>

#include "inject/run_recorder.hpp"
#include "recorder_records.hpp"

namespace kerntime::inject {
namespace {

using recorder_test::kernel;
using recorder_test::row;
using recorder_test::settings;

TEST(RunRecorder, NvtxRangesAreEntriesAndTagTheirKernels) {
  RunRecorder recorder(settings());
  const std::uint64_t step = recorder.range_id("", "step");
  EXPECT_EQ(recorder.range_id("", "step"), step);
  const std::uint64_t other = recorder.range_id("mydomain", "step");
  EXPECT_NE(other, step);
  recorder.add_range(step, 100, 600);
  recorder.add_range(step, 1000, 1300);
  recorder.add_range(other, 100, 200);
  trace::RecordBatch records;
  records.scope_tags.push_back({41, recorder.range_path(0, step)});
  records.kernels.push_back(kernel("k", 200, 50, 41));
  records.kernels.push_back(kernel("k", 300, 50, 42));
  recorder.append(std::move(records));
  const Report report = recorder.report();
  const Entry* range = report.find("nvtx:step");
  ASSERT_NE(range, nullptr);
  EXPECT_EQ(range->samples, (std::vector<double>{500, 300}));
  EXPECT_EQ(range->timer, "nvtx-range");
  ASSERT_NE(report.find("nvtx:mydomain:step"), nullptr);
  ASSERT_EQ(report.trace->kernels.size(), 2u);
  EXPECT_EQ(report.trace->kernels[0].scope_name, "nvtx:step");
  EXPECT_EQ(report.trace->kernels[1].scope_name, "");
}

const RangeSummary* range_row(const Report& report, const std::string& name) {
  for (const RangeSummary& r : report.trace->range_summary) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

// "step" inside "outer", "step" inside "step" (recursion), "step" alone, and a kernel in no
// range: every range counts a kernel launched inside it once, the innermost owns it.
TEST(RunRecorder, NestedRangesCountTheirKernelsOnceEachAndTheInnermostOwnsThem) {
  RunRecorder recorder(settings());
  const std::uint64_t outer = recorder.range_id("", "outer");
  const std::uint64_t step = recorder.range_id("", "step");
  const std::uint64_t load = recorder.range_id("io", "load");
  recorder.range_id("", "never");  // named, never closed, no kernel: no row
  const std::uint64_t in_outer = recorder.range_path(0, outer);
  const std::uint64_t step_in_outer = recorder.range_path(in_outer, step);
  EXPECT_EQ(recorder.range_path(in_outer, step), step_in_outer);
  const std::uint64_t step_in_step = recorder.range_path(step_in_outer, step);
  const std::uint64_t step_alone = recorder.range_path(0, step);
  EXPECT_NE(step_alone, step_in_outer);
  EXPECT_EQ(recorder.range_path(0, 99), 0u);  // no such range
  recorder.add_range(outer, 0, 10'000);
  recorder.add_range(step, 100, 600);
  recorder.add_range(step, 700, 1'000);
  recorder.add_range(load, 2'000, 2'400);

  trace::RecordBatch records;
  records.scope_tags = {{1, step_in_outer}, {2, in_outer}, {3, step_in_step}, {4, step_alone}};
  records.kernels.push_back(kernel("k", 200, 10, 1));
  records.kernels.push_back(kernel("k", 300, 20, 2));
  records.kernels.push_back(kernel("k", 400, 40, 3));
  records.kernels.push_back(kernel("k", 500, 80, 4));
  records.kernels.push_back(kernel("k", 600, 160, 5));
  recorder.append(std::move(records));
  const Report report = recorder.report();

  ASSERT_EQ(report.trace->range_summary.size(), 3u);
  EXPECT_EQ(report.trace->range_summary[0].name, "outer");  // order of first opening
  const RangeSummary* o = range_row(report, "outer");
  EXPECT_EQ(o->instances, 1u);
  EXPECT_EQ(o->total_ns, 10'000u);
  EXPECT_EQ(o->kernels, 3u);
  EXPECT_EQ(o->kernel_time_ns, 70u);
  EXPECT_EQ(o->self_kernels, 1u);
  EXPECT_EQ(o->self_kernel_time_ns, 20u);
  const RangeSummary* s = range_row(report, "step");
  EXPECT_EQ(s->instances, 2u);
  EXPECT_EQ(s->total_ns, 800u);
  EXPECT_DOUBLE_EQ(s->median_ns, 400.0);
  EXPECT_EQ(s->kernels, 3u);  // the recursive one once
  EXPECT_EQ(s->kernel_time_ns, 130u);
  EXPECT_EQ(s->self_kernels, 3u);
  EXPECT_EQ(s->self_kernel_time_ns, 130u);
  const RangeSummary* l = range_row(report, "load");
  EXPECT_EQ(l->domain, "io");
  EXPECT_EQ(l->kernels, 0u);
  // The timeline's kernels carry their innermost range.
  ASSERT_EQ(report.trace->kernels.size(), 5u);
  EXPECT_EQ(report.trace->kernels[0].scope_name, "nvtx:step");
  EXPECT_EQ(report.trace->kernels[1].scope_name, "nvtx:outer");
  EXPECT_EQ(report.trace->kernels[4].scope_name, "");
  // It reads back.
  const Report again = parse_report(to_json(report), "recorded");
  ASSERT_EQ(again.trace->range_summary.size(), 3u);
  EXPECT_EQ(again.trace->range_summary[1].kernel_time_ns, 130u);
}

// CUPTI delivers its buffers in no order: a kernel can come before the tag of its launch, and a
// graph launch's kernels on both sides of it.
TEST(RunRecorder, AKernelThatArrivesBeforeItsTagStillCountsForItsRanges) {
  RunRecorder recorder(settings());
  const std::uint64_t step = recorder.range_path(0, recorder.range_id("", "step"));
  recorder.add_range(1, 0, 5'000);
  trace::RecordBatch kernels_first;
  kernels_first.kernels.push_back(kernel("k", 100, 10, 1));
  trace::RawKernel node = kernel("node", 200, 20, 2);
  node.graph_id = 7;
  kernels_first.kernels.push_back(node);
  kernels_first.kernels.push_back(kernel("outside", 300, 40, 3));  // never tagged
  recorder.append(std::move(kernels_first));
  trace::RecordBatch tags;
  tags.scope_tags = {{1, step}, {2, step}};
  recorder.append(std::move(tags));
  trace::RecordBatch later;
  node.start_ns = 400;
  node.end_ns = 480;
  later.kernels.push_back(node);  // the same graph launch's next kernel
  recorder.append(std::move(later));
  const Report report = recorder.report();
  ASSERT_EQ(report.trace->range_summary.size(), 1u);
  EXPECT_EQ(report.trace->range_summary[0].kernels, 3u);
  EXPECT_EQ(report.trace->range_summary[0].kernel_time_ns, 110u);
  EXPECT_EQ(report.trace->range_summary[0].self_kernels, 3u);
}

// The ranges of the tests below: "outer" (0 to 10 us, once) around "step" (100 to 900 ns).
struct OuterAndStep {
  std::uint64_t in_outer = 0;       // the path of "outer" alone
  std::uint64_t step_in_outer = 0;  // the path of "step" inside "outer"
};

OuterAndStep outer_and_step(RunRecorder& recorder) {
  const std::uint64_t outer = recorder.range_id("", "outer");
  const std::uint64_t step = recorder.range_id("", "step");
  OuterAndStep paths;
  paths.in_outer = recorder.range_path(0, outer);
  paths.step_in_outer = recorder.range_path(paths.in_outer, step);
  recorder.add_range(outer, 0, 10'000);
  recorder.add_range(step, 100, 900);
  return paths;
}

// kerntime run's default: the launch callback notes each launch's ranges, and no external
// correlation record comes. Every kernel, a graph launch's too, counts for the ranges its launch
// was made in, and the timeline's kernels carry them.
TEST(RunRecorder, RangesNotedAtLaunchAttributeKernelsWithoutCuptiTags) {
  RunRecorder recorder(settings());
  LaunchRanges launches;
  recorder.tag_from_launches(&launches);
  const auto [in_outer, step_in_outer] = outer_and_step(recorder);
  launches.note(1, step_in_outer);
  launches.note(2, in_outer);
  launches.note(3, 0);              // outside every range
  launches.note(4, step_in_outer);  // a graph launch: two kernels
  trace::RecordBatch records;
  records.kernels.push_back(kernel("k", 200, 10, 1));
  records.kernels.push_back(kernel("k", 300, 20, 2));
  records.kernels.push_back(kernel("k", 400, 40, 3));
  trace::RawKernel node = kernel("node", 500, 80, 4);
  node.graph_id = 7;
  records.kernels.push_back(node);
  node.start_ns = 600;
  node.end_ns = 760;
  records.kernels.push_back(node);
  recorder.append(std::move(records));
  const Report report = recorder.report();
  const RangeSummary* o = range_row(report, "outer");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->kernels, 4u);
  EXPECT_EQ(o->kernel_time_ns, 10u + 20u + 80u + 160u);
  EXPECT_EQ(o->self_kernels, 1u);
  EXPECT_EQ(o->self_kernel_time_ns, 20u);
  const RangeSummary* s = range_row(report, "step");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kernels, 3u);
  EXPECT_EQ(s->self_kernel_time_ns, 250u);
  ASSERT_EQ(report.trace->kernels.size(), 5u);
  EXPECT_EQ(report.trace->kernels[0].scope_name, "nvtx:step");
  EXPECT_EQ(report.trace->kernels[1].scope_name, "nvtx:outer");
  EXPECT_EQ(report.trace->kernels[2].scope_name, "");
  EXPECT_EQ(report.trace->kernels[4].scope_name, "nvtx:step");
  for (const std::string& warning : report.warnings)
    EXPECT_EQ(warning.find("NVTX"), std::string::npos) << warning;

  // A later buffer's kernels carry theirs too.
  launches.note(9, step_in_outer);
  trace::RecordBatch later;
  later.kernels.push_back(kernel("k", 1'000, 10, 9));
  recorder.append(std::move(later));
  const Report again = recorder.report();
  ASSERT_EQ(again.trace->kernels.size(), 6u);
  EXPECT_EQ(again.trace->kernels[5].scope_name, "nvtx:step");
}

// Copies and memsets find their ranges as kernels do: the result callback notes each one's call
// by its correlation id (ApiResult::Kind::copy_called), and the timeline's copies carry them. The
// range table counts kernels only.
TEST(RunRecorder, CopiesAndMemsetsCarryTheRangesNotedAtTheirCall) {
  RunRecorder recorder(settings());
  LaunchRanges launches;
  recorder.tag_from_launches(&launches);
  const auto [in_outer, step_in_outer] = outer_and_step(recorder);
  launches.note(1, step_in_outer);  // a copy inside "step"
  launches.note(2, in_outer);       // a memset inside "outer" only; 3: a copy outside both
  trace::RecordBatch records;
  trace::RawMemcpy copy;
  copy.start_ns = 200;
  copy.end_ns = 260;
  copy.correlation_id = 1;
  copy.kind = MemcpyKind::device_to_host;
  copy.bytes = 4096;
  records.memcpys.push_back(copy);
  copy.start_ns = 11'000;
  copy.end_ns = 11'050;
  copy.correlation_id = 3;
  records.memcpys.push_back(copy);
  trace::RawMemset memset;
  memset.start_ns = 300;
  memset.end_ns = 310;
  memset.correlation_id = 2;
  memset.bytes = 4096;
  records.memsets.push_back(memset);
  records.kernels.push_back(kernel("k", 400, 10, 4));
  recorder.append(std::move(records));
  const Report report = recorder.report();
  ASSERT_EQ(report.trace->memcpys.size(), 2u);
  EXPECT_EQ(report.trace->memcpys[0].scope_name, "nvtx:step");
  EXPECT_EQ(report.trace->memcpys[1].scope_name, "");
  ASSERT_EQ(report.trace->memsets.size(), 1u);
  EXPECT_EQ(report.trace->memsets[0].scope_name, "nvtx:outer");
  for (const RangeSummary& range : report.trace->range_summary)
    EXPECT_EQ(range.kernels, 0u) << range.name;
}

// A record that comes more than LaunchRanges::kSlots CUDA calls after its launch finds its slot
// taken: it counts for no range, and the report says how many may have been lost.
TEST(RunRecorder, AKernelWhoseNotedRangesWereOverwrittenIsCountedAndSaid) {
  RunRecorder recorder(settings());
  LaunchRanges launches;
  recorder.tag_from_launches(&launches);
  const std::uint64_t step = recorder.range_path(0, recorder.range_id("", "step"));
  recorder.add_range(1, 0, 5'000);
  launches.note(5, step);
  EXPECT_EQ(launches.path_of(5), step);
  EXPECT_FALSE(launches.forgotten(5));
  const auto later = static_cast<std::uint32_t>(5 + LaunchRanges::kSlots);
  launches.note(later, step);  // the same slot
  EXPECT_EQ(launches.path_of(5), 0u);
  EXPECT_TRUE(launches.forgotten(5));
  // A slot that holds an earlier launch's ranges took nothing from a later one.
  EXPECT_FALSE(launches.forgotten(static_cast<std::uint32_t>(later + LaunchRanges::kSlots)));
  EXPECT_FALSE(launches.forgotten(6));  // an empty slot
  trace::RecordBatch records;
  records.kernels.push_back(kernel("k", 100, 10, 5));
  records.kernels.push_back(kernel("k", 200, 10, later));
  recorder.append(std::move(records));
  const Report report = recorder.report();
  const RangeSummary* s = range_row(report, "step");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kernels, 1u);
  const std::string said =
      "up to 1 kernels reached kerntime more than 1048576 CUDA calls after "
      "their launch: the NVTX ranges they ran under are unknown";
  EXPECT_EQ(std::count_if(report.warnings.begin(), report.warnings.end(),
                          [&](const std::string& w) { return w.find(said) == 0; }),
            1);
}

TEST(RunRecorder, RangeNestingsPastTheCapCountForTheRangeAloneAndSaySo) {
  RunRecorder recorder(settings());
  const std::uint64_t deep = recorder.range_id("", "deep");
  const std::uint64_t leaf = recorder.range_id("", "leaf");
  std::uint64_t path = 0;
  for (std::size_t i = 0; i < RunRecorder::kMaxRangePaths; ++i)
    path = recorder.range_path(path, deep);
  const std::uint64_t folded = recorder.range_path(path, leaf);
  EXPECT_EQ(folded, RunRecorder::kMaxRangePaths + 1);  // the leaf alone, made past the cap
  EXPECT_EQ(recorder.range_path(path, leaf), folded);
  trace::RecordBatch records;
  records.scope_tags = {{7, folded}};
  records.kernels.push_back(kernel("k", 100, 30, 7));
  recorder.append(std::move(records));
  const Report report = recorder.report(false);
  const RangeSummary* l = range_row(report, "leaf");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->self_kernels, 1u);
  const RangeSummary* d = range_row(report, "deep");
  EXPECT_EQ(d, nullptr);  // no instance closed, no kernel
  EXPECT_NE(std::find_if(report.warnings.begin(), report.warnings.end(),
                         [](const std::string& w) {
                           return w.find("2 NVTX range openings came after 65536") !=
                                  std::string::npos;
                         }),
            report.warnings.end());
}

// A fault or an in-flight launch names the NVTX ranges open when it was launched.
TEST(RunRecorder, NamesTheRangesOfAPathOutermostFirst) {
  RunRecorder recorder(settings());
  const std::uint64_t outer = recorder.range_id("", "outer");
  const std::uint64_t load = recorder.range_id("io", "load");
  const std::uint64_t in_outer = recorder.range_path(0, outer);
  const std::uint64_t load_in_outer = recorder.range_path(in_outer, load);
  EXPECT_EQ(recorder.range_path_text(0), "");
  EXPECT_EQ(recorder.range_path_text(999), "");
  EXPECT_EQ(recorder.range_path_text(in_outer), "range \"outer\"");
  EXPECT_EQ(recorder.range_path_text(load_in_outer), "ranges \"outer\" > \"io:load\"");
}

}  // namespace
}  // namespace kerntime::inject
