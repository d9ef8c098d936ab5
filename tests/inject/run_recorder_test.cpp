// SPDX-License-Identifier: Apache-2.0
// `kerntime run`'s recorder on synthetic records: exact counts in bounded memory, the capture
// windows, the kernel filter, NVTX ranges, and the merge of per-process reports.
#include "inject/run_recorder.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>

#include "inject/capture_windows.hpp"
#include "inject/kernel_aggregate.hpp"
#include "inject/run_settings.hpp"
#include "recorded_run.hpp"
#include "support/golden.hpp"

namespace kerntime::inject {
namespace {

trace::RawKernel kernel(const char* name, std::uint64_t start, std::uint64_t duration,
                        std::uint32_t correlation = 0) {
  trace::RawKernel k;
  k.name = name;
  k.start_ns = start;
  k.end_ns = start + duration;
  k.correlation_id = correlation;
  k.grid = {1, 1, 1};
  k.block = {32, 1, 1};
  return k;
}

RunSettings settings() {
  RunSettings s;
  s.output_directory = "/tmp";
  return s;
}

const KernelSummary* row(const Report& report, const std::string& name) {
  for (const KernelSummary& r : report.trace->kernel_summary) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

TEST(DurationAggregate, ExactTotalsAndAUniformSampleOfBoundedSize) {
  DurationAggregate aggregate(1000);
  std::mt19937_64 random(7);
  std::lognormal_distribution<double> duration(8.0, 0.5);
  double total = 0.0, low = 1e300, high = 0.0;
  std::vector<double> all;
  for (int i = 0; i < 200'000; ++i) {
    const double d = std::round(duration(random));
    aggregate.add(d);
    all.push_back(d);
    total += d;
    low = std::min(low, d);
    high = std::max(high, d);
  }
  EXPECT_EQ(aggregate.count(), 200'000u);
  EXPECT_DOUBLE_EQ(aggregate.total_ns(), total);
  EXPECT_EQ(aggregate.min_ns(), low);
  EXPECT_EQ(aggregate.max_ns(), high);
  EXPECT_EQ(aggregate.kept().size(), 1000u);
  // The median of all 200,000 from the sketch: within its 0.5 % relative accuracy.
  std::sort(all.begin(), all.end());
  const double exact_median = quantile_sorted(all, 0.5);
  EXPECT_NEAR(aggregate.median_ns(), exact_median, exact_median * 0.005);
  EXPECT_FALSE(aggregate.complete());
  // A uniform sample of a log-normal: its median is near exp(8) = 2981 ns.
  std::vector<double> kept = aggregate.kept();
  std::sort(kept.begin(), kept.end());
  EXPECT_NEAR(quantile_sorted(kept, 0.5), 2981.0, 2981.0 * 0.05);
  EXPECT_NEAR(aggregate.stddev_ns(), 2981.0 * std::sqrt((std::exp(0.25) - 1) * std::exp(0.25)),
              120.0);
}

TEST(DurationAggregate, KeepsEveryDurationBelowItsCapacity) {
  DurationAggregate aggregate(10);
  for (int i = 1; i <= 10; ++i)
    aggregate.add(i);
  EXPECT_TRUE(aggregate.complete());
  EXPECT_EQ(aggregate.kept(), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_DOUBLE_EQ(aggregate.mean_ns(), 5.5);
}

TEST(RunRecorder, CountsEveryKernelExactlyAndKeepsSamplesAndRecordsBounded) {
  RunSettings s = settings();
  s.samples_per_kernel = 100;
  s.timeline_records = 50;
  RunRecorder recorder(s);
  static const char* alpha = "_Z5alphaPf";
  static const char* beta = "beta_c_name";
  for (int batch = 0; batch < 10; ++batch) {
    trace::RecordBatch records;
    for (int i = 0; i < 1000; ++i) {
      const std::uint64_t t = 1'000'000 + (batch * 1000 + i) * 10'000ull;
      records.kernels.push_back(kernel(i % 4 == 0 ? beta : alpha, t, 1000 + i % 7));
    }
    recorder.append(std::move(records));
  }
  const Report report = recorder.report();
  ASSERT_TRUE(report.trace);
  const KernelSummary* a = row(report, "alpha(float*)");
  const KernelSummary* b = row(report, "beta_c_name");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->instances, 7500u);
  EXPECT_EQ(b->instances, 2500u);
  EXPECT_EQ(report.trace->counts.kernels, 10'000u);
  EXPECT_EQ(report.trace->kernels.size(), 50u);
  EXPECT_EQ(report.trace->omitted_records, 10'000u - 50u);
  ASSERT_EQ(report.entries.size(), 2u);
  EXPECT_EQ(report.entries[0].name, "alpha(float*)");  // largest total first
  EXPECT_EQ(report.entries[0].samples.size(), 100u);
  EXPECT_EQ(report.entries[0].timer, "cupti-kernel");
  EXPECT_EQ(a->min_ns, 1000u);
  EXPECT_EQ(a->max_ns, 1006u);
  // The samples are a uniform sample of 7,500 and 2,500: the report says so, in one line.
  EXPECT_NE(std::find(report.warnings.begin(), report.warnings.end(),
                      "2 kernels ran more than --samples-per-kernel (100) times: their samples are "
                      "uniform random subsets; counts, totals, min and max are exact (alpha, "
                      "beta_c_name)"),
            report.warnings.end())
      << ::testing::PrintToString(report.warnings);
  // What it writes reads back.
  const Report again = parse_report(to_json(report), "recorded");
  EXPECT_EQ(again.trace->kernel_summary.front().instances, 7500u);
}

// PyTorch runs hundreds of kernels past the limit, with names of 500 characters: one warning
// says how many, naming the first three by their short names.
TEST(RunRecorder, KernelsPastTheSampleLimitMakeOneWarningWithShortNames) {
  RunSettings s = settings();
  s.samples_per_kernel = 10;
  static const std::vector<std::string> names = {
      "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_"
      "6detail5ArrayIPcLi1E"
      "EEEEviT0_T1_",
      "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEENS_"
      "6detail5ArrayIPc"
      "Li3EEEEEviT0_T1_",
      "triton_poi_fused_add_0",
      "_Z5gammaPf",
      "_Z5deltaPf",
      "_Z4rarePf"};
  RunRecorder recorder(s);
  trace::RecordBatch records;
  std::uint64_t t = 1'000'000;
  for (std::size_t k = 0; k < names.size(); ++k) {
    // Larger totals first, so the order of the rows is the order of `names`; the last kernel
    // stays under the limit.
    const int runs = k + 1 == names.size() ? 5 : 20;
    for (int i = 0; i < runs; ++i) {
      records.kernels.push_back(kernel(names[k].c_str(), t, 1000 * (10 - k)));
      t += 100'000;
    }
  }
  recorder.append(std::move(records));
  const Report report = recorder.report();
  std::vector<std::string> limit;
  for (const std::string& w : report.warnings) {
    if (w.find("--samples-per-kernel") != std::string::npos) limit.push_back(w);
  }
  // Both elementwise kernels shorten alike and are named once; delta is the one left over.
  ASSERT_EQ(limit, std::vector<std::string>{
                       "5 kernels ran more than --samples-per-kernel (10) times: their samples are "
                       "uniform random subsets; counts, totals, min and max are exact "
                       "(at::native::vectorized_elementwise_kernel<…>, triton_poi_fused_add_0, "
                       "gamma, and 1 more)"});
  // The report's entries keep the whole names.
  EXPECT_EQ(report.entries.front().name,
            "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
            "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
            "at::detail::Array<char*, 1>)");
}

TEST(RunRecorder, KernelFilterAndCaptureWindowsDecideWhatCounts) {
  RunSettings s = settings();
  s.kernel_filter = "^keep";
  s.capture = CaptureRange::profiler_api;
  RunRecorder recorder(s);
  recorder.windows().open(2000);
  recorder.windows().close(3000);
  trace::RecordBatch records;
  records.kernels.push_back(kernel("keep_me", 1000, 10));  // before the window
  records.kernels.push_back(kernel("keep_me", 2000, 10));  // inside
  records.kernels.push_back(kernel("keep_me", 2999, 10));  // inside
  records.kernels.push_back(kernel("drop_me", 2500, 10));  // filtered
  records.kernels.push_back(kernel("keep_me", 3000, 10));  // after
  recorder.append(std::move(records));
  const Report report = recorder.report();
  ASSERT_NE(row(report, "keep_me"), nullptr);
  EXPECT_EQ(row(report, "keep_me")->instances, 2u);
  EXPECT_EQ(row(report, "drop_me"), nullptr);
  EXPECT_EQ(report.trace->counts.kernels, 2u);
}

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

// kerntime run's default: the launch callback notes each launch's ranges, and no external
// correlation record comes. Every kernel, a graph launch's too, counts for the ranges its launch
// was made in, and the timeline's kernels carry them.
TEST(RunRecorder, RangesNotedAtLaunchAttributeKernelsWithoutCuptiTags) {
  RunRecorder recorder(settings());
  LaunchRanges launches;
  recorder.tag_from_launches(&launches);
  const std::uint64_t outer = recorder.range_id("", "outer");
  const std::uint64_t step = recorder.range_id("", "step");
  const std::uint64_t in_outer = recorder.range_path(0, outer);
  const std::uint64_t step_in_outer = recorder.range_path(in_outer, step);
  recorder.add_range(outer, 0, 10'000);
  recorder.add_range(step, 100, 900);
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

// Once API records are switched off, the timeline's kernels past them have no launch record:
// the report says why once, not as a record CUPTI lost.
TEST(RunRecorder, ApiRecordsSwitchedOffAreSaidInsteadOfKernelsWithoutLaunchRecords) {
  const auto launch_record_warnings = [](const Report& report) {
    return std::count_if(report.warnings.begin(), report.warnings.end(), [](const std::string& w) {
      return w.rfind("no launch API record for ", 0) == 0;
    });
  };
  RunRecorder recorder(settings());
  trace::RecordBatch records;
  records.kernels.push_back(kernel("k", 100, 10, 1));
  recorder.append(std::move(records));
  EXPECT_EQ(launch_record_warnings(recorder.report()), 1);
  const std::uint64_t before = recorder.version();
  recorder.api_records_stopped(2'000);
  EXPECT_NE(recorder.version(), before);
  const Report report = recorder.report();
  EXPECT_EQ(launch_record_warnings(report), 0);
  EXPECT_EQ(std::count(report.warnings.begin(), report.warnings.end(),
                       "API call records were kept for the program's first 2000 launches, then "
                       "switched off to spare it their cost: \"API calls\" counts those, and the "
                       "timeline's later kernels have no launch arrow or thread (--all-api-calls "
                       "records every call)"),
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

TEST(RunRecorder, KnowsEachContextsDeviceFromItsKernels) {
  RunRecorder recorder(settings());
  EXPECT_EQ(recorder.device_of_context(5), -1);
  trace::RecordBatch records;
  trace::RawKernel on_two = kernel("k", 100, 10);
  on_two.context = 5;
  on_two.device = 2;
  trace::RawKernel on_zero = kernel("k", 200, 10);
  on_zero.context = 1;
  on_zero.device = 0;
  records.kernels = {on_two, on_zero, on_two};
  recorder.append(std::move(records));
  EXPECT_EQ(recorder.device_of_context(5), 2);
  EXPECT_EQ(recorder.device_of_context(1), 0);
  EXPECT_EQ(recorder.device_of_context(6), -1);
}

// With the unload count CUPTI keeps, the recorder reads a kernel's name once per pointer, not on
// every record; after an unload it reads each pointer again.
TEST(RunRecorder, AKernelNamePointerIsReadOncePerUnloadCount) {
  RunRecorder recorder(settings());
  std::atomic<std::uint64_t> unloads{0};
  recorder.trust_name_pointers(&unloads);
  char name[16] = "first";
  const auto one_kernel = [&](std::uint64_t start) {
    trace::RecordBatch records;
    records.kernels.push_back(kernel(name, start, 10));
    recorder.append(std::move(records));
  };
  one_kernel(100);
  std::snprintf(name, sizeof(name), "%s", "second");  // not read: the same pointer
  one_kernel(200);
  unloads.store(1);
  one_kernel(300);  // read again
  const Report report = recorder.report(false);
  ASSERT_NE(row(report, "first"), nullptr);
  EXPECT_EQ(row(report, "first")->instances, 2u);
  ASSERT_NE(row(report, "second"), nullptr);
  EXPECT_EQ(row(report, "second")->instances, 1u);
}

// CUPTI reuses a freed name's memory, at the same address, for the next module's kernel: the
// records of kernels launched before an unload and delivered after it count under the names
// kept at their launch, in the summary and on the timeline.
TEST(RunRecorder, KernelsDeliveredAfterTheirModulesUnloadKeepTheirNames) {
  RunRecorder recorder(settings());
  std::atomic<std::uint64_t> unloads{0};
  LaunchNames names;
  recorder.trust_name_pointers(&unloads);
  recorder.restore_names_from(&names);
  char memory[16] = "kernel_a";
  names.note(1, memory);
  names.note(2, memory);
  names.keep_before_unload();
  unloads.store(1);
  std::snprintf(memory, sizeof(memory), "%s", "kernel_b");
  names.note(3, memory);
  names.keep_before_unload();
  unloads.store(2);
  std::snprintf(memory, sizeof(memory), "%s", "kernel_a");
  names.note(4, memory);
  trace::RecordBatch records;  // one batch, after both unloads
  records.kernels = {kernel(memory, 100, 10, 1), kernel(memory, 200, 10, 2),
                     kernel(memory, 300, 10, 3), kernel(memory, 400, 10, 4)};
  recorder.append(std::move(records));
  const Report report = recorder.report(true);
  ASSERT_NE(row(report, "kernel_a"), nullptr);
  EXPECT_EQ(row(report, "kernel_a")->instances, 3u);
  ASSERT_NE(row(report, "kernel_b"), nullptr);
  EXPECT_EQ(row(report, "kernel_b")->instances, 1u);
  ASSERT_TRUE(report.trace.has_value());
  std::size_t b_on_timeline = 0;
  for (const auto& k : report.trace->kernels)
    b_on_timeline += k.name == "kernel_b" ? 1 : 0;
  EXPECT_EQ(b_on_timeline, 1u);
}

// Once the timeline lists all it may, the reader only counts API calls, copies and memsets
// (RecordBatch::counted_*), and the recorder leaves the batch's memory to the reader.
TEST(RunRecorder, OnceTheTimelineIsFullOtherRecordsAreCountedAndTheBatchKeepsItsMemory) {
  RunSettings s = settings();
  s.timeline_records = 2;
  RunRecorder recorder(s);
  EXPECT_FALSE(recorder.timeline_full());
  trace::RecordBatch first;
  first.kernels = {kernel("k", 100, 10, 1), kernel("k", 200, 10, 2), kernel("k", 300, 10, 3)};
  first.api_calls.resize(2);
  first.memcpys.resize(1);
  recorder.append(std::move(first));
  EXPECT_TRUE(recorder.timeline_full());

  trace::RecordBatch second;
  second.kernels = {kernel("k", 400, 10, 4), kernel("k", 500, 10, 5)};
  second.counted_api_calls = 5;
  second.counted_memcpys = 2;
  second.counted_memsets = 1;
  second.unknown_records = 1;
  const trace::RawKernel* memory = second.kernels.data();
  recorder.append(std::move(second));
  EXPECT_EQ(second.kernels.data(), memory);  // NOLINT(bugprone-use-after-move): left to reuse

  const Report report = recorder.report();
  EXPECT_EQ(report.trace->counts.kernels, 5u);
  EXPECT_EQ(report.trace->counts.api_calls, 7u);
  EXPECT_EQ(report.trace->counts.memcpys, 3u);
  EXPECT_EQ(report.trace->counts.memsets, 1u);
  EXPECT_EQ(report.trace->kernels.size(), 2u);
  EXPECT_EQ(report.trace->kernel_summary.at(0).instances, 5u);
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

// The golden file was written by the recorder before it took ranges through the threads'
// queues, copied its figures for a report under a short lock, skipped decoding what its
// timeline has no room for and trusted name pointers: those change what the report costs, not
// what it says.
TEST(RunRecorder, TheReportOfARecordedRunMatchesItsGoldenFile) {
  RunRecorder recorder(testing::recorded_run_settings());
  testing::record_a_run(recorder);
  const std::string checkpoint = to_json(recorder.report(false));
  const std::string final_report = to_json(recorder.report(true));
  testing::expect_golden(KERNTIME_TEST_DATA_DIR, "recorder_report.json",
                         checkpoint + "\n" + final_report + "\n");
}

// A checkpoint is written only when its version moved: every change of what the report says
// moves it, and nothing else does.
TEST(RunRecorder, ItsVersionMovesWithWhatTheReportSaysAndOnlyThen) {
  RunRecorder recorder(settings());
  std::uint64_t version = recorder.version();
  const auto moved = [&] {
    const std::uint64_t now = recorder.version();
    const bool changed = now != version;
    version = now;
    return changed;
  };
  EXPECT_FALSE(moved());
  const std::uint64_t step = recorder.range_id("", "step");  // named: no row yet
  EXPECT_EQ(recorder.range_path(0, step), 1u);
  EXPECT_FALSE(moved());
  recorder.add_range(step, 100, 200);
  EXPECT_TRUE(moved());  // taken in by version() itself
  recorder.append(trace::RecordBatch{});
  EXPECT_FALSE(moved());
  trace::RecordBatch records;
  records.kernels.push_back(kernel("k", 100, 10));
  recorder.append(std::move(records));
  EXPECT_TRUE(moved());
  trace::RecordBatch counted;
  counted.counted_api_calls = 1;
  recorder.append(std::move(counted));
  EXPECT_TRUE(moved());
  recorder.add_dropped(0);
  EXPECT_FALSE(moved());
  recorder.add_dropped(2);
  EXPECT_TRUE(moved());
  recorder.add_warning("w");
  EXPECT_TRUE(moved());
  recorder.add_warning("w");
  EXPECT_FALSE(moved());
  (void)recorder.report(false);
  EXPECT_FALSE(moved());
}

TEST(CaptureWindows, NestedOpeningsKeepOneWindowAndBoundsClipIt) {
  CaptureWindows windows(false);
  EXPECT_FALSE(windows.contains(5));
  windows.open(10);
  windows.open(20);
  windows.close(30);
  EXPECT_TRUE(windows.contains(35));
  windows.close(40);
  EXPECT_FALSE(windows.contains(40));
  EXPECT_TRUE(windows.contains(10));
  windows.close(50);  // a stop without a start changes nothing
  windows.bound(15, 38);
  EXPECT_FALSE(windows.contains(12));
  EXPECT_TRUE(windows.contains(15));
  EXPECT_FALSE(windows.contains(38));
  EXPECT_EQ(windows.opened(), 1u);
}

// The recorder tests a batch's kernels against the windows as they were when the batch came:
// a snapshot answers as the windows did then, and follows them once refreshed.
TEST(CaptureWindows, ASnapshotAnswersAsTheWindowsDidWhenItWasTaken) {
  CaptureWindows windows(false);
  windows.bound(5, std::nullopt);
  CaptureWindows::Snapshot snapshot;
  windows.refresh(snapshot);
  EXPECT_FALSE(snapshot.contains(10));
  windows.open(10);
  EXPECT_FALSE(snapshot.contains(12));
  windows.refresh(snapshot);
  EXPECT_TRUE(snapshot.contains(12));
  windows.close(20);
  EXPECT_TRUE(snapshot.contains(25));  // still open as of the snapshot
  windows.refresh(snapshot);
  EXPECT_FALSE(snapshot.contains(25));
  EXPECT_TRUE(snapshot.contains(15));
  windows.bound(16, 100);
  windows.refresh(snapshot);
  EXPECT_FALSE(snapshot.contains(15));
  for (const std::uint64_t t : {4, 10, 19, 20, 99})
    EXPECT_EQ(snapshot.contains(t), windows.contains(t)) << t;
}

TEST(RunSettings, OnlyCallsThatEnqueueWorkKeepTheirApiRecords) {
  for (const char* name :
       {"cudaLaunchKernel_v7000", "cudaLaunchKernelExC_v11060", "cudaGraphLaunch_v10000",
        "cuLaunchKernel", "cuLaunchKernelEx", "cuGraphLaunch", "cudaMemcpyAsync_v3020",
        "cuMemcpyHtoDAsync_v2", "cudaMemsetAsync_v3020", "cuMemsetD32Async",
        "cudaLaunchHostFunc_v10000"}) {
    EXPECT_TRUE(enqueues_work(name)) << name;
  }
  for (const char* name :
       {"cudaGetDevice_v3020", "cudaGetLastError_v3020", "cudaStreamIsCapturing_v10000",
        "cudaEventRecord_v3020", "cudaStreamSynchronize_v3020", "cudaMalloc_v3020",
        "cuCtxGetCurrent", "cuKernelGetName", ""}) {
    EXPECT_FALSE(enqueues_work(name)) << name;
  }
}

TEST(RunSettings, ReadsTheEnvironmentAndRefusesMalformedValues) {
  std::map<std::string, std::string> env{{"KERNTIME_RUN_DIR", "/tmp/x"},
                                         {"KERNTIME_RUN_CAPTURE", "nvtx:train"},
                                         {"KERNTIME_RUN_DELAY_NS", "2000000000"},
                                         {"KERNTIME_RUN_SAMPLES_PER_KERNEL", "5"}};
  const auto lookup = [&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  const RunSettings s = read_run_settings(lookup);
  EXPECT_EQ(s.output_directory, "/tmp/x");
  EXPECT_EQ(s.capture, CaptureRange::nvtx_range);
  EXPECT_EQ(s.capture_nvtx_name, "train");
  EXPECT_EQ(s.delay_ns, 2'000'000'000u);
  EXPECT_EQ(s.samples_per_kernel, 5u);
  EXPECT_TRUE(s.last_launch);
  env["KERNTIME_RUN_LAST_LAUNCH"] = "0";
  EXPECT_FALSE(read_run_settings(lookup).last_launch);
  env["KERNTIME_RUN_LAST_LAUNCH"] = "yes";
  EXPECT_THROW(read_run_settings(lookup), Error);
  env.erase("KERNTIME_RUN_LAST_LAUNCH");
  EXPECT_FALSE(read_run_settings(lookup).all_api_calls);
  env["KERNTIME_RUN_ALL_API_CALLS"] = "1";
  EXPECT_TRUE(read_run_settings(lookup).all_api_calls);
  env["KERNTIME_RUN_ALL_API_CALLS"] = "all";
  EXPECT_THROW(read_run_settings(lookup), Error);
  env.erase("KERNTIME_RUN_ALL_API_CALLS");
  env["KERNTIME_RUN_SAMPLES_PER_KERNEL"] = "5x";
  EXPECT_THROW(read_run_settings(lookup), Error);
  env["KERNTIME_RUN_SAMPLES_PER_KERNEL"] = "5";
  env["KERNTIME_RUN_CAPTURE"] = "sometimes";
  EXPECT_THROW(read_run_settings(lookup), Error);
  env.erase("KERNTIME_RUN_CAPTURE");
  env["KERNTIME_RUN_KERNEL_FILTER"] = "([";
  EXPECT_THROW(read_run_settings(lookup), Error);
  env.clear();
  try {
    read_run_settings(lookup);
    FAIL() << "no KERNTIME_RUN_DIR must be refused";
  } catch (const Error& error) {
    EXPECT_NE(std::string{error.what()}.find("kerntime run -- PROGRAM"), std::string::npos);
  }
}

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
