// SPDX-License-Identifier: Apache-2.0
// attach_trace(): a Trace becomes a report's trace section with owned strings, times from the
// earliest record, the loss counts and the trace's warnings, and survives a JSON round trip.
#include <string>

#include <gtest/gtest.h>

#include <kerntime/report_json.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/trace_format.hpp>

#include "support/sample_trace.hpp"

namespace kerntime {
namespace {

TEST(TraceReport, AttachCopiesCountsSummaryAndRecords) {
  const Trace trace = testing::sample_trace();
  Report report;
  attach_trace(report, trace);
  ASSERT_TRUE(report.trace.has_value());
  const TraceSection& t = *report.trace;
  EXPECT_EQ(t.counts.kernels, trace.kernels.size());
  EXPECT_EQ(t.counts.memcpys, 1u);
  EXPECT_EQ(t.counts.memsets, 1u);
  EXPECT_EQ(t.counts.dropped_records, 2u);
  EXPECT_EQ(t.counts.zero_timestamp_records, 1u);
  EXPECT_EQ(t.counts.unattributed_kernels, trace.unattributed_kernels);
  EXPECT_EQ(t.omitted_records, 0u);

  const auto summary = summarize_kernels(trace);
  ASSERT_EQ(t.kernel_summary.size(), summary.size());
  EXPECT_EQ(t.kernel_summary[0].name, summary[0].name);
  EXPECT_EQ(t.kernel_summary[0].total_ns, summary[0].total_ns);

  // The earliest record (the "prepare" kernel at t0 + 9 us) is the origin.
  EXPECT_EQ(t.origin_ns, 1'700'000'000'000'009'000ULL);
  ASSERT_EQ(t.kernels.size(), trace.kernels.size());
  EXPECT_EQ(t.kernels[0].start_ns - t.origin_ns, 0u);
  EXPECT_EQ(t.kernels[0].duration_ns(), 2'600u);
  EXPECT_EQ(t.kernels[0].name, "prepare(float*, int)");
  EXPECT_EQ(t.kernels[0].mangled_name, "_Z7preparePfi");
  EXPECT_EQ(t.kernels[0].scope_name, "step");
  EXPECT_EQ(t.kernels[0].enqueue_ns(), 4'250u);
  EXPECT_EQ(t.kernels[0].queue_delay_ns(), 9'000u);
  EXPECT_EQ(t.kernels[1].scope_name, "gemm");
  ASSERT_EQ(t.memcpys.size(), 1u);
  EXPECT_EQ(t.memcpys[0].kind, MemcpyKind::host_to_device);
  EXPECT_EQ(t.memcpys[0].start_ns - t.origin_ns, 51'000u);
  EXPECT_EQ(t.memcpys[0].scope_name, "upload");
  ASSERT_EQ(t.memsets.size(), 1u);
  EXPECT_EQ(t.memsets[0].duration_ns(), 900u);

  // Every trace warning reaches the report, the dropped records among them.
  EXPECT_EQ(report.warnings, trace.warnings);
  bool dropped_warning = false;
  for (const std::string& w : report.warnings)
    dropped_warning = dropped_warning || w.find("dropped 2") != std::string::npos;
  EXPECT_TRUE(dropped_warning);
}

TEST(TraceReport, AttachingTwiceKeepsOneCopyOfEachWarning) {
  const Trace trace = testing::sample_trace();
  Report report;
  attach_trace(report, trace);
  attach_trace(report, trace);
  EXPECT_EQ(report.warnings, trace.warnings);
}

TEST(TraceReport, RecordLimitCountsWhatIsLeftOut) {
  const Trace trace = testing::sample_trace();
  Report report;
  TraceReportOptions options;
  options.max_records_per_kind = 2;
  attach_trace(report, trace, options);
  EXPECT_EQ(report.trace->kernels.size(), 2u);
  EXPECT_EQ(report.trace->memcpys.size(), 1u);
  EXPECT_EQ(report.trace->api_calls.size(), 2u);
  ASSERT_EQ(trace.api_calls.size(), 6u);
  EXPECT_EQ(report.trace->omitted_records, trace.kernels.size() - 2 + 4);
  EXPECT_EQ(report.trace->counts.kernels, trace.kernels.size());
  options.max_records_per_kind = 0;
  options.kernel_summary = false;
  attach_trace(report, trace, options);
  EXPECT_TRUE(report.trace->kernels.empty());
  EXPECT_TRUE(report.trace->kernel_summary.empty());
  EXPECT_EQ(report.trace->omitted_records, trace.kernels.size() + 2 + 6);
  options.api_calls = false;  // counted, never listed: not among the omitted
  attach_trace(report, trace, options);
  EXPECT_TRUE(report.trace->api_calls.empty());
  EXPECT_EQ(report.trace->omitted_records, trace.kernels.size() + 2);
}

TEST(TraceReport, SurvivesAJsonRoundTrip) {
  Report report;
  report.entries.push_back(
      Entry{"step", "ns", "cuda-event", 0, {245'000}, compute_statistics({245'000})});
  attach_trace(report, testing::sample_trace());
  const std::string json = to_json(report);
  const Report read = parse_report(json);
  ASSERT_TRUE(read.trace.has_value());
  EXPECT_EQ(read.trace->kernels.size(), report.trace->kernels.size());
  EXPECT_EQ(read.trace->counts.dropped_records, 2u);
  // API calls (the first precedes every GPU record: a negative offset) and the launch's process.
  ASSERT_EQ(read.trace->api_calls.size(), 6u);
  const ApiCall& first = read.trace->api_calls.front();
  EXPECT_EQ(first.name, "cudaLaunchKernel");
  EXPECT_EQ(first.process_id, 1000u);
  EXPECT_EQ(first.thread_id, 7001u);
  EXPECT_EQ(first.start_ns, report.trace->api_calls.front().start_ns);
  EXPECT_LT(first.start_ns, read.trace->origin_ns);
  EXPECT_EQ(first.duration_ns(), 4'250u);
  EXPECT_EQ(first.scope_name, "step");
  EXPECT_EQ(read.trace->api_calls[4].name, "cudaMemcpyAsync");
  ASSERT_TRUE(read.trace->kernels.front().launch.has_value());
  EXPECT_EQ(read.trace->kernels.front().launch->process_id, 1000u);
  EXPECT_EQ(to_json(read), json);
}

}  // namespace
}  // namespace kerntime
