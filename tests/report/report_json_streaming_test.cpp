// SPDX-License-Identifier: Apache-2.0
// The reader turns entries, samples and trace records into the model while it parses and
// drops their DOM (report_json_parse.cpp). These pin what that must not change: the first
// mistake reported is the one a reader of the whole DOM reported, whatever order the file's
// fields come in; a duplicate key replaces the earlier value; trace times count from an
// origin_ns written after the records.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/version.hpp>

#include "support/error_message.hpp"

namespace kerntime {
namespace {

const std::string kSchema = R"("schema": "kerntime-report/1")";

std::string error_of(const std::string& text) {
  return testing::error_message([&] { parse_report(text, "s.json"); });
}

std::string with_trace(const std::string& trace) {
  return "{" + kSchema + R"(, "entries": [], "trace": )" + trace + "}";
}

TEST(ReportJsonStreaming, ASyntaxErrorAfterABadEntryIsTheErrorReported) {
  EXPECT_EQ(error_of("{" + kSchema + R"(, "entries": [{"name": 5}], "x": [1,,]})"),
            "s.json: line 1, column 67: invalid JSON: syntax error while parsing value - "
            "unexpected ','; expected '[', '{', or a literal");
}

TEST(ReportJsonStreaming, FieldsBeforeEntriesInTheFormatAreCheckedFirstWhereverTheyAre) {
  EXPECT_EQ(error_of(R"({"entries": [{"name": 5}], "schema": "kerntime-report/2"})"),
            "s.json: schema: unsupported version \"kerntime-report/2\"; this kerntime (" +
                std::string(kVersion) + ") reads \"kerntime-report/1\" only");
  EXPECT_EQ(error_of(R"({"entries": [{"name": 5}], )" + kSchema + R"(, "warnings": [3]})"),
            "s.json: warnings[0]: expected a string, got 3");
  // The entries come before the trace section, even when the file has the trace first.
  EXPECT_EQ(error_of("{" + kSchema +
                     R"(, "trace": {"kernels": [{"name": "k"}]}, "entries": [{"name": 5}]})"),
            "s.json: entries[0].name: expected a string, got 5");
  // Within an entry, the name is checked before the samples that the file lists first.
  EXPECT_EQ(error_of("{" + kSchema + R"(, "entries": [{"samples": ["x"], "name": 5}]})"),
            "s.json: entries[0].name: expected a string, got 5");
}

TEST(ReportJsonStreaming, TheFirstBadEntryIsReportedNotALaterOne) {
  EXPECT_EQ(error_of("{" + kSchema + R"(, "entries": [{"name": "a", "samples": [1]},
                                     {"name": "b", "samples": [-2]},
                                     {"name": "a", "samples": [1]}]})"),
            "s.json: entries[1].samples[0]: expected a duration >= 0 ns, got -2");
  EXPECT_EQ(error_of("{" + kSchema + R"(, "entries": [{"name": "a", "samples": [1]}, [2]]})"),
            "s.json: entries[1]: expected an object, got an array");
  EXPECT_EQ(
      error_of("{" + kSchema + R"(, "entries": [{"name": "a", "samples": [1, {"a": [1]}, 2]}]})"),
      "s.json: entries[0].samples[1]: expected a finite number, got an object");
}

TEST(ReportJsonStreaming, ADuplicateKeyReplacesTheEarlierValue) {
  const Report entries = parse_report("{" + kSchema +
                                      R"(, "entries": [{"name": "a", "samples": ["x"]}],
                                       "entries": [{"name": "b", "samples": [2, 4]}]})");
  ASSERT_EQ(entries.entries.size(), 1u);
  EXPECT_EQ(entries.entries[0].name, "b");
  EXPECT_EQ(entries.entries[0].samples, (std::vector<double>{2, 4}));

  const Report samples = parse_report(
      "{" + kSchema + R"(, "entries": [{"name": "a", "samples": [-1], "samples": [3, 5]}]})");
  EXPECT_EQ(samples.entries[0].samples, (std::vector<double>{3, 5}));
  EXPECT_EQ(samples.entries[0].statistics.median, 4.0);

  EXPECT_EQ(error_of("{" + kSchema + R"(, "entries": [{"name": "a", "samples": [1]}],
                                        "entries": 7})"),
            "s.json: entries: expected an array, got 7");

  const Report kernels = parse_report(with_trace(
      R"({"kernels": [{"name": "k", "start_ns": 1}],
          "kernels": [{"name": "j", "start_ns": 1, "duration_ns": 2}]})"));
  ASSERT_EQ(kernels.trace->kernels.size(), 1u);
  EXPECT_EQ(kernels.trace->kernels[0].name, "j");

  EXPECT_EQ(error_of("{" + kSchema + R"(, "entries": [],
      "trace": {"kernels": [{"name": "k", "start_ns": 1, "duration_ns": 2}]}, "trace": []})"),
            "s.json: trace: expected an object, got an array");
}

TEST(ReportJsonStreaming, TraceFieldsAreCheckedInTheFormatsOrder) {
  EXPECT_EQ(error_of(with_trace(R"({"kernels": [{"name": "k"}], "counts": {"kernels": -1}})")),
            "s.json: trace.counts.kernels: expected a non-negative integer, got -1");
  EXPECT_EQ(error_of(with_trace(R"({"memcpys": [{"start_ns": 1}], "kernels": [{"name": "k"}]})")),
            "s.json: trace.kernels[0].start_ns: missing; every trace record has one");
  EXPECT_EQ(error_of(with_trace(R"({"kernels": [[1], {"name": "k"}]})")),
            "s.json: trace.kernels[0]: expected an object, got an array");
  EXPECT_EQ(error_of(with_trace(R"({"kernels": {"a": {"name": "k"}}})")),
            "s.json: trace.kernels: expected an array, got an object");
  // A launch that ends before it starts is found before a later record's mistake.
  EXPECT_EQ(error_of(with_trace(R"({"kernels": [
                {"name": "k", "start_ns": 1, "duration_ns": 2,
                 "launch": {"start_ns": 5, "end_ns": 3}},
                {"name": "j"}]})")),
            "s.json: trace.kernels[0].launch.end_ns: the call ends before it starts");
}

TEST(ReportJsonStreaming, TraceTimesCountFromAnOriginWrittenAfterTheRecords) {
  const Report report = parse_report(with_trace(
      R"({"kernels": [{"name": "k", "start_ns": 5, "duration_ns": 2,
                       "launch": {"start_ns": -5, "end_ns": 1}},
                      {"name": "z", "start_ns": 50, "duration_ns": 10, "enqueue_ns": 4,
                       "queue_delay_ns": 20}],
          "origin_ns": 1000})"));
  const TraceSection& t = *report.trace;
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.kernels[0].start_ns, 1'005u);
  EXPECT_EQ(t.kernels[0].end_ns, 1'007u);
  EXPECT_EQ(t.kernels[0].launch->start_ns, 995u);
  EXPECT_EQ(t.kernels[0].launch->end_ns, 1'001u);
  EXPECT_EQ(t.kernels[1].launch->start_ns, 1'030u);
  EXPECT_EQ(t.kernels[1].launch->end_ns, 1'034u);

  // The launch check compares CUPTI times (origin added, unsigned), as before.
  EXPECT_EQ(error_of(with_trace(R"({"kernels": [{"name": "k", "start_ns": 1, "duration_ns": 2,
                                    "launch": {"start_ns": -4, "end_ns": 0}}],
                                    "origin_ns": 3})")),
            "s.json: trace.kernels[0].launch.end_ns: the call ends before it starts");
  const std::uint64_t near_wrap = 18446744073709551612u;  // 2^64 - 4
  const Report wrapped =
      parse_report(with_trace(R"({"kernels": [{"name": "k", "start_ns": 5, "duration_ns": 2,
                                  "launch": {"start_ns": 5, "end_ns": 3}}],
                     "origin_ns": )" +
                              std::to_string(near_wrap) + "}"));
  EXPECT_EQ(wrapped.trace->kernels[0].launch->start_ns, 1u);
  EXPECT_EQ(wrapped.trace->kernels[0].launch->end_ns, near_wrap + 3);
}

}  // namespace
}  // namespace kerntime
