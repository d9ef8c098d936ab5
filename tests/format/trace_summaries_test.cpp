// SPDX-License-Identifier: Apache-2.0
// The nsys-style summaries (cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, cuda_api_sum,
// cuda_kern_exec_sum) of the hand-made trace in summary_trace.hpp, every figure worked out by
// hand, and their views: nsys's columns in nsys's order, in every format, from a Trace and
// from a report's trace section.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/trace_format.hpp>
#include <kerntime/trace_summaries.hpp>

#include "support/summary_trace.hpp"

namespace kerntime {
namespace {

using testing::summary_trace;

void expect_summary(const ValueSummary& s, std::size_t count, std::uint64_t total, double average,
                    double median, std::uint64_t min, std::uint64_t max,
                    std::optional<double> stddev) {
  EXPECT_EQ(s.count, count);
  EXPECT_EQ(s.total, total);
  EXPECT_DOUBLE_EQ(s.average, average);
  EXPECT_DOUBLE_EQ(s.median, median);
  EXPECT_EQ(s.min, min);
  EXPECT_EQ(s.max, max);
  ASSERT_EQ(s.stddev.has_value(), stddev.has_value());
  if (stddev) {
    EXPECT_NEAR(*s.stddev, *stddev, 1e-6);
  }
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(MemoryOperationSummary, GroupsCopiesByDirectionAndMemsetsTogether) {
  const auto rows = summarize_memory_operations(summary_trace());
  ASSERT_EQ(rows.size(), 3u);
  // By total GPU time: 8000 ns of host-to-device copies, 3000 back, 1000 of memset.
  EXPECT_EQ(rows[0].operation, "[CUDA memcpy Host-to-Device]");
  EXPECT_NEAR(rows[0].time_percent, 100.0 * 8'000 / 12'000, 1e-9);
  expect_summary(rows[0].duration_ns, 2, 8'000, 4'000, 4'000, 2'000, 6'000, 2828.42712474619);
  expect_summary(rows[0].bytes, 2, 4'000'000, 2e6, 2e6, 1'000'000, 3'000'000, 1414213.562373095);
  EXPECT_EQ(rows[1].operation, "[CUDA memcpy Device-to-Host]");
  EXPECT_NEAR(rows[1].time_percent, 25.0, 1e-9);
  expect_summary(rows[1].duration_ns, 1, 3'000, 3'000, 3'000, 3'000, 3'000, std::nullopt);
  EXPECT_EQ(rows[2].operation, "[CUDA memset]");
  expect_summary(rows[2].bytes, 1, 4'000'000, 4e6, 4e6, 4'000'000, 4'000'000, std::nullopt);
}

TEST(ApiCallSummary, CountsEachCallOnceLeavingOutDriverCallsInsideRuntimeCalls) {
  const Trace trace = summary_trace();
  EXPECT_EQ(count_nested_driver_calls(trace), 1u);  // cuLaunchKernel inside cudaLaunchKernel
  const auto rows = summarize_api_calls(trace);
  ASSERT_EQ(rows.size(), 4u);
  // 10000 + 9000 + 3000 + 500 ns in all.
  EXPECT_EQ(rows[0].name, "cudaLaunchKernel");
  EXPECT_NEAR(rows[0].time_percent, 100.0 * 10'000 / 22'500, 1e-9);
  expect_summary(rows[0].duration_ns, 4, 10'000, 2'500, 2'500, 1'000, 4'000, 1290.9944487358057);
  EXPECT_EQ(rows[1].name, "cuMemAlloc");  // a driver call of the program's own: counted
  EXPECT_NEAR(rows[1].time_percent, 40.0, 1e-9);
  EXPECT_EQ(rows[2].name, "cudaMemcpyAsync");
  expect_summary(rows[2].duration_ns, 3, 3'000, 1'000, 1'000, 1'000, 1'000, 0.0);
  EXPECT_EQ(rows[3].name, "cudaMemsetAsync");
  EXPECT_EQ(rows[3].duration_ns.total, 500u);

  ApiSummaryOptions with_nested;
  with_nested.nested_driver_calls = true;
  const auto all = summarize_api_calls(trace, with_nested);
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[3].name, "cuLaunchKernel");
  EXPECT_EQ(all[3].duration_ns.total, 2'000u);
}

TEST(KernelExecutionSummary, FollowsNsysDefinitionsOfQueueAndTotalTime) {
  const auto rows = summarize_kernel_executions(summary_trace());
  ASSERT_EQ(rows.size(), 2u);  // kernel C has no launch record
  const KernelExecutionSummary& a = rows[0];
  EXPECT_EQ(a.kernel_name, "A()");
  EXPECT_EQ(a.api_name, "cudaLaunchKernel");
  EXPECT_EQ(a.process_id, 1000u);
  EXPECT_EQ(a.thread_id, 7001u);
  EXPECT_EQ(a.device, 0u);
  // Total: call start to the later of call end and kernel end: 15000, 10000, 4000.
  expect_summary(a.total_ns, 3, 29'000, 29'000.0 / 3, 10'000, 4'000, 15'000, 5507.570547286102);
  expect_summary(a.api_ns, 3, 9'000, 3'000, 3'000, 2'000, 4'000, 1'000);
  // Queue from the end of the call: 6000 and 0; the kernel that started before its call
  // returned has none (QCount 2 of Count 3).
  expect_summary(a.queue_ns, 2, 6'000, 3'000, 3'000, 0, 6'000, 4242.640687119285);
  expect_summary(a.kernel_ns, 3, 15'000, 5'000, 5'000, 2'000, 8'000, 3'000);
  const KernelExecutionSummary& b = rows[1];
  EXPECT_EQ(b.kernel_name, "B()");
  EXPECT_EQ(b.thread_id, 7002u);
  EXPECT_EQ(b.device, 1u);
  expect_summary(b.total_ns, 1, 4'000, 4'000, 4'000, 4'000, 4'000, std::nullopt);
  expect_summary(b.queue_ns, 1, 1'000, 1'000, 1'000, 1'000, 1'000, std::nullopt);
}

TEST(TraceSummaryViews, HaveNsysColumnsInNsysOrder) {
  const Trace trace = summary_trace();
  using K = TraceSummaryKind;
  EXPECT_EQ(first_line(render_trace_summary(trace, K::memory_time, Format::csv)),
            "Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),"
            "Operation");
  EXPECT_EQ(first_line(render_trace_summary(trace, K::memory_size, Format::csv)),
            "Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),StdDev (MB),Operation");
  EXPECT_EQ(first_line(render_trace_summary(trace, K::api_calls, Format::csv)),
            "Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),"
            "Name");
  EXPECT_EQ(first_line(render_trace_summary(trace, K::kernel_launches, Format::csv)),
            "PID,TID,DevId,Count,QCount,TAvg (ns),TMed (ns),TMin (ns),TMax (ns),TStdDev (ns),"
            "AAvg (ns),AMed (ns),AMin (ns),AMax (ns),AStdDev (ns),QAvg (ns),QMed (ns),QMin (ns),"
            "QMax (ns),QStdDev (ns),KAvg (ns),KMed (ns),KMin (ns),KMax (ns),KStdDev (ns),"
            "API Name,Kernel Name");
  EXPECT_EQ(render_trace_summary(trace, K::kernels, Format::table),
            render_kernel_summary(trace, Format::table));
}

TEST(TraceSummaryViews, CsvRowsHoldExactFigures) {
  const Trace trace = summary_trace();
  // 4 MB each: the host-to-device copies and the memset tie, and the name breaks the tie.
  EXPECT_EQ(render_trace_summary(trace, TraceSummaryKind::memory_size, Format::csv),
            "Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),StdDev (MB),Operation\n"
            "4,2,2,2,1,3,1.414213562373095,[CUDA memcpy Host-to-Device]\n"
            "4,1,4,4,4,4,,[CUDA memset]\n"
            "0.5,1,0.5,0.5,0.5,0.5,,[CUDA memcpy Device-to-Host]\n");
  const std::string launches =
      render_trace_summary(trace, TraceSummaryKind::kernel_launches, Format::csv);
  EXPECT_TRUE(contains(launches,
                       "\n1000,7001,0,3,2,9666.666666666666,10000,4000,15000,5507.570547286102,"
                       "3000,3000,2000,4000,1000,3000,3000,0,6000,4242.640687119285,"
                       "5000,5000,2000,8000,3000,cudaLaunchKernel,A()\n"
                       "1000,7002,1,1,1,4000,4000,4000,4000,,1000,1000,1000,1000,,"
                       "1000,1000,1000,1000,,2000,2000,2000,2000,,cudaLaunchKernel,B()\n"))
      << launches;
  const std::string api = render_trace_summary(trace, TraceSummaryKind::api_calls, Format::csv);
  EXPECT_TRUE(contains(api,
                       "\n44.44444444444444,10000,4,2500,2500,1000,4000,1290.9944487358057,"
                       "cudaLaunchKernel\n40,9000,1,9000,9000,9000,9000,,cuMemAlloc\n"))
      << api;
}

TEST(TraceSummaryViews, TablesCarryUnitsAndTheFooter) {
  const Trace trace = summary_trace();
  const std::string time =
      render_trace_summary(trace, TraceSummaryKind::memory_time, Format::table);
  EXPECT_TRUE(contains(first_line(time), "Time (%)  Total Time  Count")) << time;
  EXPECT_TRUE(contains(time,
                       "66.7    8.000 us      2  4.000 us  4.000 us  2.000 us  6.000 us  "
                       "2.828 us  [CUDA memcpy Host-to-Device]"))
      << time;
  EXPECT_TRUE(contains(time, "kernels: 5, copies: 3, memsets: 1, API calls: 10")) << time;
  const std::string size =
      render_trace_summary(trace, TraceSummaryKind::memory_size, Format::table);
  EXPECT_TRUE(contains(size,
                       "4.000      2     2.000     2.000     1.000     3.000        1.414  "
                       "[CUDA memcpy Host-to-Device]"))
      << size;
  const std::string api = render_trace_summary(trace, TraceSummaryKind::api_calls, Format::table);
  EXPECT_TRUE(contains(api, "driver calls inside runtime calls, not counted again: 1")) << api;
  const std::string md =
      render_trace_summary(trace, TraceSummaryKind::kernel_launches, Format::markdown);
  EXPECT_TRUE(contains(md, "| PID | TID | DevId | Count | QCount | TAvg |")) << md;
  EXPECT_TRUE(contains(md, "| 0 ns | 6.000 us |")) << md;  // QMin: a queue of 0 ns counts
  EXPECT_TRUE(contains(md, "unattributed kernels: 1  \n")) << md;
}

TEST(TraceSummaryViews, JsonHoldsRowsCountsAndWarnings) {
  const Trace trace = summary_trace();
  const auto api =
      nlohmann::json::parse(render_trace_summary(trace, TraceSummaryKind::api_calls, Format::json));
  ASSERT_EQ(api["api_calls"].size(), 4u);
  EXPECT_EQ(api["api_calls"][0]["name"], "cudaLaunchKernel");
  EXPECT_EQ(api["api_calls"][0]["count"], 4);
  EXPECT_EQ(api["api_calls"][0]["total_ns"], 10'000);
  EXPECT_EQ(api["api_calls"][0]["median_ns"], 2'500.0);
  EXPECT_EQ(api["api_calls"][3].count("stddev_ns"), 0u);  // one call
  EXPECT_EQ(api["nested_driver_calls"], 1);
  EXPECT_EQ(api["counts"]["unattributed_kernels"], 1);
  const auto launches = nlohmann::json::parse(
      render_trace_summary(trace, TraceSummaryKind::kernel_launches, Format::json));
  const auto& a = launches["kernel_launches"][0];
  EXPECT_EQ(a["count"], 3);
  EXPECT_EQ(a["queue_count"], 2);
  EXPECT_EQ(a["queue"]["max_ns"], 6'000);
  EXPECT_EQ(a["total"]["median_ns"], 10'000.0);
  EXPECT_EQ(a.count("total_ns"), 0u);
  const auto sizes = nlohmann::json::parse(
      render_trace_summary(trace, TraceSummaryKind::memory_size, Format::json));
  EXPECT_EQ(sizes["operations"][0]["total_bytes"], 4'000'000);
  EXPECT_EQ(sizes["operations"][1]["operation"], "[CUDA memset]");
}

TEST(TraceSummaryViews, AReportSectionGivesTheSameRowsAndSaysWhenItsListsArePartial) {
  const Trace trace = summary_trace();
  Report full;
  attach_trace(full, trace);
  const Report read = parse_report(to_json(full), "t.json");
  for (const TraceSummaryKind kind :
       {TraceSummaryKind::memory_time, TraceSummaryKind::memory_size, TraceSummaryKind::api_calls,
        TraceSummaryKind::kernel_launches}) {
    SCOPED_TRACE(std::string{to_string(kind)});
    EXPECT_EQ(render_trace_summary(read, kind, Format::csv),
              render_trace_summary(trace, kind, Format::csv));
    EXPECT_FALSE(contains(render_trace_summary(read, kind, Format::table), "record limit"));
  }

  Report partial;
  TraceReportOptions options;
  options.max_records_per_kind = 2;
  attach_trace(partial, trace, options);
  const std::string api = render_trace_summary(partial, TraceSummaryKind::api_calls, Format::table);
  EXPECT_TRUE(contains(api, "warning: the report lists 2 of 10 API calls (the record limit"))
      << api;
  EXPECT_TRUE(contains(api, "API calls: 10")) << api;  // the counts are of all records
  const auto json = nlohmann::json::parse(
      render_trace_summary(partial, TraceSummaryKind::memory_time, Format::json));
  EXPECT_EQ(json["counts"]["memcpys"], 3);
  EXPECT_TRUE(contains(json["warnings"].back().get<std::string>(),
                       "the report lists 2 of 3 copies and 1 of 1 memsets"));

  Report without_calls;
  options.api_calls = false;
  options.max_records_per_kind = 100;
  attach_trace(without_calls, trace, options);
  EXPECT_TRUE(
      contains(render_trace_summary(without_calls, TraceSummaryKind::api_calls, Format::table),
               "the report counts 10 API calls but lists none"));
  EXPECT_THROW(render_trace_summary(Report{}, TraceSummaryKind::api_calls, Format::table), Error);
}

TEST(TraceSummaryViews, EmptyTraceShowsNone) {
  const Trace empty;
  for (const TraceSummaryKind kind : kTraceSummaryKinds) {
    EXPECT_TRUE(contains(render_trace_summary(empty, kind, Format::table), "(none)"))
        << to_string(kind);
  }
}

TEST(TraceSummaryKinds, UseNsysNamesAndTitles) {
  EXPECT_EQ(to_string(TraceSummaryKind::memory_time), "cuda_gpu_mem_time_sum");
  EXPECT_EQ(summary_title(TraceSummaryKind::memory_size), "CUDA GPU MemOps Summary (by Size)");
  EXPECT_EQ(summary_title(TraceSummaryKind::kernel_launches),
            "CUDA Kernel Launch & Exec Time Summary");
  for (const TraceSummaryKind kind : kTraceSummaryKinds) {
    EXPECT_EQ(parse_trace_summary_kind(to_string(kind)), kind);
  }
  try {
    parse_trace_summary_kind("cuda_gpu_trace");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "unknown trace summary \"cuda_gpu_trace\": choose cuda_gpu_kern_sum, "
                 "cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, cuda_api_sum, cuda_kern_exec_sum");
  }
}

}  // namespace
}  // namespace kerntime
