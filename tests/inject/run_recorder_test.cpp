// SPDX-License-Identifier: Apache-2.0
// `kerntime run`'s recorder on synthetic records: exact counts in bounded memory, warnings,
// the kernel filter and capture windows, names kept across module unloads, the timeline's
// room, its golden report and its version. Its NVTX ranges: run_recorder_ranges_test.cpp.
#include "inject/run_recorder.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/report_json.hpp>

#include "recorded_run.hpp"
#include "recorder_records.hpp"
#include "support/golden.hpp"

namespace kerntime::inject {
namespace {

using recorder_test::kernel;
using recorder_test::row;
using recorder_test::settings;

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

// Without a timeline no API record is asked for at all: the report says so once, and no kernel
// counts as one whose launch record CUPTI lost.
TEST(RunRecorder, ApiRecordsNeverAskedForAreSaidInsteadOfKernelsWithoutLaunchRecords) {
  RunRecorder recorder(settings());
  const std::uint64_t before = recorder.version();
  recorder.api_records_off();
  EXPECT_NE(recorder.version(), before);
  // Not before any kernel: a process that launches nothing has nothing to say it of.
  EXPECT_TRUE(recorder.report().warnings.empty())
      << ::testing::PrintToString(recorder.report().warnings);
  trace::RecordBatch records;
  records.kernels.push_back(kernel("k", 100, 10, 1));
  records.kernels.push_back(kernel("k", 200, 10, 2));
  recorder.append(std::move(records));
  const Report report = recorder.report();
  ASSERT_TRUE(report.trace.has_value());
  EXPECT_EQ(report.trace->counts.kernels, 2u);
  EXPECT_EQ(report.trace->counts.api_calls, 0u);
  // No launch record was asked for, so none is missing.
  EXPECT_EQ(report.trace->counts.unattributed_kernels, 0u);
  for (const std::string& warning : report.warnings)
    EXPECT_NE(warning.rfind("no launch API record for ", 0), 0u) << warning;
  EXPECT_EQ(std::count(report.warnings.begin(), report.warnings.end(),
                       "no API call records were asked of CUPTI, to spare the program their "
                       "cost: the report's kernels have no launch call or thread (--timeline "
                       "records those of the first 2000 launches for its launch arrows, "
                       "--all-api-calls every call)"),
            1);
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

// A recorder set up as the injection sets it up where modules are unloaded: name pointers
// trusted per unload count, names kept at launch restored. unload() plays CUPTI's unload
// callback: the names noted so far are kept, then the count moves.
class RecorderOverUnloads : public ::testing::Test {
 protected:
  RecorderOverUnloads() {
    recorder.trust_name_pointers(&unloads);
    recorder.restore_names_from(&names);
  }
  void unload() {
    names.keep_before_unload();
    unloads.fetch_add(1);
  }

  RunRecorder recorder{settings()};
  std::atomic<std::uint64_t> unloads{0};
  LaunchNames names;
};

// CUPTI reuses a freed name's memory, at the same address, for the next module's kernel: the
// records of kernels launched before an unload and delivered after it count under the names
// kept at their launch, in the summary and on the timeline.
TEST_F(RecorderOverUnloads, KernelsDeliveredAfterTheirModulesUnloadKeepTheirNames) {
  char memory[16] = "kernel_a";
  names.note(1, memory);
  names.note(2, memory);
  unload();
  std::snprintf(memory, sizeof(memory), "%s", "kernel_b");
  names.note(3, memory);
  unload();
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

// Records flushed at a synchronization arrive while their module is still loaded, but after an
// earlier module's unload CUPTI's name for them may be the earlier kernel's (on the H200, 300 of
// 1,000 launches of module B came named as module A): once a module was unloaded, every record
// takes the name noted at its launch.
TEST_F(RecorderOverUnloads,
       AfterAnUnloadKernelsTakeTheNamesOfTheirLaunchesEvenBeforeTheirOwnUnload) {
  char launched_a[16] = "kernel_a";
  char cupti_a[16] = "kernel_a";
  names.note(1, launched_a);
  trace::RecordBatch first;  // flushed at the first synchronization, before any unload
  first.kernels = {kernel(cupti_a, 100, 10, 1)};
  recorder.append(std::move(first));
  unload();
  char launched_b[16] = "kernel_b";
  names.note(2, launched_b);
  names.note(3, launched_b);
  trace::RecordBatch second;  // module B's, flushed before B's unload, CUPTI naming them A
  second.kernels = {kernel(cupti_a, 200, 10, 2), kernel(cupti_a, 300, 10, 3)};
  recorder.append(std::move(second));
  unload();
  std::snprintf(launched_b, sizeof(launched_b), "%s", "freed");  // B's memory, reused
  const Report report = recorder.report(false);
  ASSERT_NE(row(report, "kernel_a"), nullptr);
  EXPECT_EQ(row(report, "kernel_a")->instances, 1u);
  ASSERT_NE(row(report, "kernel_b"), nullptr);
  EXPECT_EQ(row(report, "kernel_b")->instances, 2u);
  EXPECT_EQ(row(report, "freed"), nullptr);
  EXPECT_EQ(names.lost(), 0u);
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

}  // namespace
}  // namespace kerntime::inject
