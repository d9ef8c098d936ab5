// SPDX-License-Identifier: Apache-2.0
// The optional trace section of kerntime-report/1: a golden file, a lossless round trip, old
// files without it, and the reader's checks inside it.
//
// After an intended change, regenerate and review the diff:
//   KERNTIME_UPDATE_GOLDEN=1 ctest --test-dir build/<preset> -R ReportTraceJson
//   git diff tests/report/golden/
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>

#include "io/json_text.hpp"
#include "report/sample_trace_report.hpp"
#include "report/trace_section_json.hpp"
#include "support/error_message.hpp"
#include "support/golden.hpp"

namespace kerntime {
namespace {

std::string error_of(const std::string& json) {
  return testing::error_message([&] { parse_report(json, "t.json"); });
}

std::string with_trace(const std::string& trace) {
  return R"({"schema": "kerntime-report/1", "entries": [], "trace": )" + trace + "}";
}

TEST(ReportTraceJsonGolden, MatchesTheGoldenFile) {
  testing::expect_golden(KERNTIME_TEST_DATA_DIR, "report_with_trace.json",
                         to_json(testing::sample_report_with_trace()));
}

// The section is written record by record (a JSON tree of 20,000 kernels costs several times its
// text); the text must be exactly the pretty-printed tree's, at any depth.
TEST(ReportTraceJson, TheSectionWrittenRecordByRecordIsTheTreesText) {
  std::vector<TraceSection> sections;
  sections.push_back(testing::sample_trace_section());
  sections.emplace_back();  // no records, no summary
  TraceSection ranges = testing::sample_trace_section();
  ranges.api_calls.clear();
  ranges.memcpys.clear();
  RangeSummary step;
  step.name = "step";
  step.instances = 2;
  step.total_ns = 40;
  step.median_ns = 20;
  ranges.range_summary.push_back(step);
  sections.push_back(ranges);
  for (const TraceSection& section : sections) {
    for (const int levels : {0, 1, 3}) {
      const std::string tree =
          io::nested_json(io::dump_json(report::trace_section_json(section), 2), levels);
      EXPECT_EQ(report::trace_section_text(section, levels), tree) << "levels " << levels;
    }
  }
}

TEST(ReportTraceJson, TheRecordByRecordTextRejectsWhatTheTreeRejects) {
  TraceSection section = testing::sample_trace_section();
  section.origin_ns = section.kernels.front().start_ns + 1;
  EXPECT_THROW(report::trace_section_json(section), Error);
  try {
    report::trace_section_text(section, 1);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string{e.what()}.find("trace.kernels[0]: starts before origin_ns"),
              std::string::npos)
        << e.what();
  }
}

TEST(ReportTraceJson, ReportsWithoutATraceHaveNoTraceKey) {
  const auto json = nlohmann::json::parse(to_json(testing::sample_report()));
  EXPECT_FALSE(json.contains("trace"));
  EXPECT_FALSE(parse_report(to_json(testing::sample_report())).trace.has_value());
}

TEST(ReportTraceJson, TheSectionComesLastAndTheRestIsUnchanged) {
  const std::string without = to_json(testing::sample_report());
  const std::string with = to_json(testing::sample_report_with_trace());
  // Everything up to the end of "entries" is byte for byte what a report without a trace has.
  const std::string prefix = without.substr(0, without.rfind("]") + 1);
  EXPECT_EQ(with.compare(0, prefix.size(), prefix), 0);
  EXPECT_EQ(with.substr(prefix.size(), 13), ",\n  \"trace\": ");
}

TEST(ReportTraceJson, RoundTripKeepsEveryField) {
  const TraceSection original = testing::sample_trace_section();
  const Report read = parse_report(to_json(testing::sample_report_with_trace()));
  ASSERT_TRUE(read.trace.has_value());
  const TraceSection& t = *read.trace;
  EXPECT_EQ(t.counts.kernels, 3u);
  EXPECT_EQ(t.counts.api_calls, 5u);
  EXPECT_EQ(t.counts.dropped_records, 2u);
  EXPECT_EQ(t.counts.zero_timestamp_records, 1u);
  EXPECT_EQ(t.counts.unattributed_kernels, 1u);
  EXPECT_EQ(t.counts.kernels_before_launch, 1u);
  EXPECT_EQ(t.counts.unknown_records, 0u);
  EXPECT_EQ(t.origin_ns, 1'700'000'000'000'009'000ULL);
  EXPECT_EQ(t.omitted_records, 3u);

  ASSERT_EQ(t.kernel_summary.size(), 2u);
  const KernelSummary& gemm = t.kernel_summary[0];
  EXPECT_EQ(gemm.name, original.kernel_summary[0].name);
  EXPECT_EQ(gemm.instances, 2u);
  EXPECT_EQ(gemm.total_ns, 201'500u);
  EXPECT_EQ(gemm.time_percent, 98.0535);
  EXPECT_EQ(gemm.median_ns, 100'750.0);
  EXPECT_EQ(gemm.min_ns, 100'500u);
  EXPECT_EQ(gemm.max_ns, 101'000u);
  EXPECT_EQ(gemm.stddev_ns, 353.5533905932738);
  EXPECT_EQ(gemm.grid, (Dim3{64, 2, 1}));
  EXPECT_EQ(gemm.block, (Dim3{128, 1, 1}));
  EXPECT_FALSE(gemm.mixed_launch_config);
  EXPECT_TRUE(t.kernel_summary[1].mixed_launch_config);
  EXPECT_FALSE(t.kernel_summary[1].stddev_ns.has_value());

  ASSERT_EQ(t.kernels.size(), 3u);
  for (std::size_t i = 0; i < t.kernels.size(); ++i) {
    SCOPED_TRACE(i);
    const KernelActivity& a = t.kernels[i];
    const KernelActivity& b = original.kernels[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.mangled_name, b.mangled_name);
    EXPECT_EQ(a.device, b.device);
    EXPECT_EQ(a.stream, b.stream);
    EXPECT_EQ(a.grid, b.grid);
    EXPECT_EQ(a.block, b.block);
    EXPECT_EQ(a.registers_per_thread, b.registers_per_thread);
    EXPECT_EQ(a.static_shared_memory_bytes, b.static_shared_memory_bytes);
    EXPECT_EQ(a.dynamic_shared_memory_bytes, b.dynamic_shared_memory_bytes);
    EXPECT_EQ(a.start_ns, b.start_ns);
    EXPECT_EQ(a.end_ns, b.end_ns);
    EXPECT_EQ(a.enqueue_ns(), b.enqueue_ns());
    EXPECT_EQ(a.queue_delay_ns(), b.queue_delay_ns());
    ASSERT_EQ(a.launch.has_value(), b.launch.has_value());
    if (a.launch) {
      EXPECT_EQ(a.launch->kind, b.launch->kind);
      EXPECT_EQ(a.launch->name, b.launch->name);
      EXPECT_EQ(a.launch->start_ns, b.launch->start_ns);
      EXPECT_EQ(a.launch->end_ns, b.launch->end_ns);
      EXPECT_EQ(a.launch->thread_id, b.launch->thread_id);
      EXPECT_EQ(a.launch->process_id, b.launch->process_id);
    }
    EXPECT_EQ(a.graph_id, b.graph_id);
    EXPECT_EQ(a.graph_node_id, b.graph_node_id);
    EXPECT_EQ(a.scope_name, b.scope_name);
  }
  EXPECT_EQ(t.kernels[0].queue_delay_ns(), 6'000u);
  EXPECT_EQ(t.kernels[1].enqueue_ns(), 3'000u);
  EXPECT_FALSE(t.kernels[1].queue_delay_ns().has_value());
  EXPECT_FALSE(t.kernels[2].enqueue_ns().has_value());
  EXPECT_TRUE(t.kernels[2].scope_name.empty());

  ASSERT_EQ(t.memcpys.size(), 1u);
  EXPECT_EQ(t.memcpys[0].kind, MemcpyKind::host_to_device);
  EXPECT_EQ(t.memcpys[0].source_kind, MemoryKind::pinned);
  EXPECT_EQ(t.memcpys[0].destination_kind, MemoryKind::device);
  EXPECT_EQ(t.memcpys[0].bytes, 8u << 20);
  EXPECT_EQ(t.memcpys[0].device, 1u);
  EXPECT_EQ(t.memcpys[0].stream, 21u);
  EXPECT_EQ(t.memcpys[0].start_ns, t.origin_ns + 51'000u);
  EXPECT_EQ(t.memcpys[0].duration_ns(), 2'000u);
  EXPECT_EQ(t.memcpys[0].source_device, -1);
  EXPECT_EQ(t.memcpys[0].destination_device, 1);
  ASSERT_TRUE(t.memcpys[0].launch.has_value());
  EXPECT_EQ(t.memcpys[0].launch->kind, ApiKind::driver);
  EXPECT_EQ(t.memcpys[0].launch->start_ns, t.origin_ns - 3'000u);  // before the origin
  EXPECT_EQ(t.memcpys[0].scope_name, "upload");
  ASSERT_EQ(t.memsets.size(), 1u);
  EXPECT_EQ(t.memsets[0].value, 255u);
  EXPECT_EQ(t.memsets[0].bytes, 1u << 20);
  EXPECT_EQ(t.memsets[0].memory_kind, MemoryKind::device);
  EXPECT_EQ(t.memsets[0].duration_ns(), 900u);

  EXPECT_EQ(t.kernels[0].launch->process_id, 4242u);
  ASSERT_EQ(t.api_calls.size(), 2u);
  for (std::size_t i = 0; i < t.api_calls.size(); ++i) {
    SCOPED_TRACE(i);
    const ApiCall& a = t.api_calls[i];
    const ApiCall& b = original.api_calls[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.start_ns, b.start_ns);
    EXPECT_EQ(a.end_ns, b.end_ns);
    EXPECT_EQ(a.thread_id, b.thread_id);
    EXPECT_EQ(a.process_id, b.process_id);
    EXPECT_EQ(a.return_value, b.return_value);
    EXPECT_EQ(a.scope_name, b.scope_name);
  }
  EXPECT_EQ(t.api_calls[0].start_ns, t.origin_ns - 8'000u);  // before the origin
  EXPECT_EQ(t.api_calls[0].return_value, 700u);
  EXPECT_EQ(t.api_calls[1].process_id, 4242u);
}

TEST(ReportTraceJson, ReadingAndWritingAgainChangesNothing) {
  // Once through the reader first: it recomputes the entries' statistics from their samples.
  const std::string once = to_json(parse_report(to_json(testing::sample_report_with_trace())));
  EXPECT_EQ(to_json(parse_report(once)), once);
}

TEST(ReportTraceJsonReader, AcceptsAMinimalSectionWithDefaults) {
  const Report empty = parse_report(with_trace("{}"));
  ASSERT_TRUE(empty.trace.has_value());
  EXPECT_EQ(empty.trace->counts.dropped_records, 0u);
  EXPECT_TRUE(empty.trace->kernels.empty());

  const Report one = parse_report(with_trace(
      R"({"kernels": [{"name": "k", "start_ns": 5, "duration_ns": 700, "future_field": [1]}],
          "memcpys": [{"kind": "QtoZ", "start_ns": 0, "duration_ns": 1}], "later": {}})"));
  ASSERT_EQ(one.trace->kernels.size(), 1u);
  EXPECT_EQ(one.trace->kernels[0].name, "k");
  EXPECT_EQ(one.trace->kernels[0].duration_ns(), 700u);
  EXPECT_EQ(one.trace->kernels[0].grid, (Dim3{0, 0, 0}));
  EXPECT_FALSE(one.trace->kernels[0].enqueue_ns().has_value());
  // A copy kind a later kerntime may add reads as unknown instead of failing the report.
  EXPECT_EQ(one.trace->memcpys[0].kind, MemcpyKind::unknown);
}

TEST(ReportTraceJsonReader, OldFilesWithoutALaunchRecordKeepTheirLaunchFigures) {
  // What kerntime wrote before the "launch" record: enqueue and queue delay only.
  const Report old = parse_report(with_trace(
      R"({"origin_ns": 1000, "counts": {"kernels": 2, "dropped_records": 3},
          "kernels": [{"name": "a", "start_ns": 50, "duration_ns": 10, "enqueue_ns": 4,
                       "queue_delay_ns": 20, "scope": "s"},
                      {"name": "b", "start_ns": 60, "duration_ns": 10, "enqueue_ns": 5}]})"));
  const TraceSection& t = *old.trace;
  EXPECT_EQ(t.counts.dropped_records, 3u);
  EXPECT_EQ(t.counts.kernels_before_launch, 0u);
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.kernels[0].start_ns, 1'050u);
  EXPECT_EQ(t.kernels[0].end_ns, 1'060u);
  EXPECT_EQ(t.kernels[0].mangled_name, "a");
  EXPECT_EQ(t.kernels[0].enqueue_ns(), 4u);
  EXPECT_EQ(t.kernels[0].queue_delay_ns(), 20u);
  EXPECT_EQ(t.kernels[0].scope_name, "s");
  EXPECT_EQ(t.kernels[1].enqueue_ns(), 5u);
  EXPECT_FALSE(t.kernels[1].queue_delay_ns().has_value());
  // Written again, the records say the same (no launch record is invented).
  const auto json = nlohmann::json::parse(to_json(old));
  const auto& kernels = json["trace"]["kernels"];
  EXPECT_FALSE(kernels[0].contains("launch"));
  EXPECT_EQ(kernels[0]["start_ns"], 50);
  EXPECT_EQ(kernels[0]["enqueue_ns"], 4);
  EXPECT_EQ(kernels[0]["queue_delay_ns"], 20);
  EXPECT_EQ(kernels[1]["enqueue_ns"], 5);
  EXPECT_FALSE(kernels[1].contains("queue_delay_ns"));
}

TEST(ReportTraceJsonReader, InternsStringsIntoTheSectionsStore) {
  Report read = parse_report(to_json(testing::sample_report_with_trace()));
  ASSERT_TRUE(read.trace->strings != nullptr);
  // The two gemm records share one copy of their name, which lives as long as any copy of
  // the section.
  EXPECT_EQ(read.trace->kernels[0].name.data(), read.trace->kernels[1].name.data());
  const TraceSection copy = *read.trace;
  read.trace.reset();
  EXPECT_EQ(copy.kernels[0].scope_name, "gemm");
}

TEST(ReportTraceJsonReader, NamesThePathOfEveryMistake) {
  EXPECT_EQ(error_of(with_trace("[]")), "t.json: trace: expected an object, got an array");
  EXPECT_EQ(error_of(with_trace(R"({"kernels": [{"name": "k", "start_ns": 1}]})")),
            "t.json: trace.kernels[0].duration_ns: missing; every trace record has one");
  EXPECT_EQ(
      error_of(with_trace(R"({"kernels": [{"name": "k", "start_ns": 1, "duration_ns": -3}]})")),
      "t.json: trace.kernels[0].duration_ns: expected a non-negative integer, got -3");
  EXPECT_EQ(
      error_of(with_trace(
          R"({"kernels": [{"name": "k", "start_ns": 1, "duration_ns": 2, "grid": [1, 2]}]})")),
      "t.json: trace.kernels[0].grid: expected [x, y, z], got an array");
  EXPECT_EQ(error_of(with_trace(R"({"counts": {"dropped_records": 1.5}})")),
            "t.json: trace.counts.dropped_records: expected a non-negative integer, got 1.5");
  EXPECT_EQ(error_of(with_trace(R"({"kernel_summary": [{"name": "k", "instances": 1}]})")),
            "t.json: trace.kernel_summary[0].total_ns: missing; every trace record has one");
  EXPECT_EQ(
      error_of(with_trace(R"({"memsets": [{"memory_kind": 3, "start_ns": 0, "duration_ns": 1}]})")),
      "t.json: trace.memsets[0].memory_kind: expected a string, got 3");
  EXPECT_EQ(error_of(with_trace(R"({"memcpys": [7]})")),
            "t.json: trace.memcpys[0]: expected an object, got 7");
  EXPECT_EQ(error_of(with_trace(R"({"kernels": [{"name": "k", "start_ns": 1, "duration_ns": 2,
                                    "launch": {"start_ns": 5, "end_ns": 3}}]})")),
            "t.json: trace.kernels[0].launch.end_ns: the call ends before it starts");
  EXPECT_EQ(error_of(with_trace(R"({"kernels": [{"name": "k", "start_ns": 1, "duration_ns": 2,
                                    "launch": {"start_ns": -5}}]})")),
            "t.json: trace.kernels[0].launch.end_ns: missing; every trace record has one");
  EXPECT_EQ(error_of(with_trace(R"({"api_calls": [{"name": "cudaFree", "start_ns": -4}]})")),
            "t.json: trace.api_calls[0].duration_ns: missing; every trace record has one");
  EXPECT_EQ(error_of(with_trace(R"({"api_calls": [{"start_ns": 1, "duration_ns": 2}]})")),
            "t.json: trace.api_calls[0].name: missing; every trace record has one");
  EXPECT_EQ(
      error_of(with_trace(R"({"api_calls": [{"name": "f", "start_ns": 1.5, "duration_ns": 2}]})")),
      "t.json: trace.api_calls[0].start_ns: expected an integer from "
      "-9223372036854775808 to 9223372036854775807, got 1.5");
}

TEST(ReportTraceJsonWriter, RefusesANonFiniteSummaryValue) {
  Report report = testing::sample_report_with_trace();
  report.trace->kernel_summary[0].median_ns = std::numeric_limits<double>::quiet_NaN();
  try {
    to_json(report);
    FAIL() << "a NaN median was written";
  } catch (const Error& e) {
    EXPECT_EQ(std::string{e.what()},
              "cannot write report: trace.kernel_summary[0].median_ns: expected a finite number, "
              "got nan");
  }
}

}  // namespace
}  // namespace kerntime
