// SPDX-License-Identifier: Apache-2.0
// Every rejection of parse_report() says `<source>: <json path>: <why>`, exactly.
#include <string>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/version.hpp>

#include "support/error_message.hpp"

namespace kerntime {
namespace {

std::string error_of(const std::string& text) {
  return testing::error_message([&] { parse_report(text, "base.json"); });
}

std::string with_entries(const std::string& entries) {
  return R"({"schema": "kerntime-report/1", "entries": [)" + entries + "]}";
}

std::string with_environment(const std::string& environment) {
  return R"({"schema": "kerntime-report/1", "entries": [], "environment": )" + environment + "}";
}

TEST(ReportJsonErrors, InvalidJsonGivesLineAndColumn) {
  EXPECT_EQ(error_of("{\"schema\": \"kerntime-report/1\",\n  \"entries\": [1,,]}"),
            "base.json: line 2, column 17: invalid JSON: syntax error while parsing value - "
            "unexpected ','; expected '[', '{', or a literal");
  EXPECT_EQ(error_of(""), "base.json: the file is empty; expected a kerntime-report/1 JSON object");
  EXPECT_EQ(error_of(" \n\t"),
            "base.json: the file is empty; expected a kerntime-report/1 JSON object");
  EXPECT_EQ(error_of("{\"schema\": \"kerntime-report/1\",\n\"entries\": [\n"),
            "base.json: line 3, column 1: invalid JSON: syntax error while parsing value - "
            "unexpected end of input; expected '[', '{', or a literal");
  // A number too large for a double names line, column, entry and field like every other error.
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [1e999]})")),
            "base.json: line 1, column 71: entries[0].samples[0]: expected a finite number, got "
            "1e999 (too large for a double)");
  EXPECT_EQ(error_of(with_entries("{\"name\": \"a\", \"samples\": [1]},\n"
                                  "  {\"name\": \"b\", \"samples\": [1, 2, -1e400]}")),
            "base.json: line 2, column 35: entries[1].samples[2]: expected a finite number, got "
            "-1e400 (too large for a double)");
  EXPECT_EQ(error_of(with_environment(R"({"driver_version_raw": 1e400})")),
            "base.json: line 1, column 86: environment.driver_version_raw: expected a finite "
            "number, got 1e400 (too large for a double)");
  EXPECT_EQ(error_of("1e400"),
            "base.json: line 1, column 1: top level: expected a finite number, got 1e400 (too "
            "large for a double)");
}

TEST(ReportJsonErrors, AnOverflowUnderAKeyWithALineBreakStaysOnOneLine) {
  // An unknown field's key is the file's own: JSON-quoted in the path when it holds a control
  // character (found by the fuzzer: "\ntries" broke the message in two).
  EXPECT_EQ(error_of(R"({"schema": "kerntime-report/1", "x\ny": [2, 1e400], "entries": []})"),
            "base.json: line 1, column 45: \"x\\ny\"[1]: expected a finite number, got 1e400 "
            "(too large for a double)");
}

TEST(ReportJsonErrors, TopLevelMustBeAnObject) {
  EXPECT_EQ(error_of("[]"), "base.json: top level: expected an object, got an array");
  EXPECT_EQ(error_of("42"), "base.json: top level: expected an object, got 42");
}

TEST(ReportJsonErrors, SchemaMustBeKerntimeReport1) {
  EXPECT_EQ(error_of(R"({"entries": []})"),
            "base.json: schema: missing; expected \"kerntime-report/1\"");
  EXPECT_EQ(error_of(R"({"schema": 1, "entries": []})"),
            "base.json: schema: expected a string, got 1");
  EXPECT_EQ(error_of(R"({"schema": "kerntime-report/2", "entries": []})"),
            std::string("base.json: schema: unsupported version \"kerntime-report/2\"; this "
                        "kerntime (") +
                kVersion + ") reads \"kerntime-report/1\" only");
  EXPECT_EQ(error_of(R"({"schema": "nvbench", "entries": []})"),
            "base.json: schema: \"nvbench\" is not a kerntime report; expected "
            "\"kerntime-report/1\"");
}

TEST(ReportJsonErrors, EntriesMustBeAnArrayOfObjects) {
  EXPECT_EQ(error_of(R"({"schema": "kerntime-report/1"})"),
            "base.json: entries: missing; a report lists its regions in \"entries\"");
  EXPECT_EQ(error_of(R"({"schema": "kerntime-report/1", "entries": {}})"),
            "base.json: entries: expected an array, got an object");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": []}, 5)")),
            "base.json: entries[1]: expected an object, got 5");
}

TEST(ReportJsonErrors, NameMustBeAUniqueNonEmptyString) {
  EXPECT_EQ(error_of(with_entries(R"({"samples": []})")),
            "base.json: entries[0].name: missing; every entry needs a name");
  EXPECT_EQ(error_of(with_entries(R"({"name": "", "samples": []})")),
            "base.json: entries[0].name: empty; every entry needs a name");
  EXPECT_EQ(error_of(with_entries(R"({"name": 42, "samples": []})")),
            "base.json: entries[0].name: expected a string, got 42");
  EXPECT_EQ(error_of(with_entries(R"({"name": "saxpy", "samples": [1]},
                                     {"name": "gemm", "samples": [2]},
                                     {"name": "saxpy", "samples": [3]})")),
            "base.json: entries[2].name: duplicate name \"saxpy\" (also entries[0])");
}

TEST(ReportJsonErrors, SamplesMustBeFiniteNonNegativeNumbers) {
  EXPECT_EQ(error_of(with_entries(R"({"name": "a"})")),
            "base.json: entries[0].samples: missing; expected an array of durations in ns");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": "1,2"})")),
            "base.json: entries[0].samples: expected an array of durations in ns, got \"1,2\"");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [1]},
                                     {"name": "b", "samples": [1]},
                                     {"name": "c", "samples": [1]},
                                     {"name": "d", "samples": [1, 2, 3, 4, 5, 6, 7, "abc"]})")),
            "base.json: entries[3].samples[7]: expected a finite number, got \"abc\"");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [null]})")),
            "base.json: entries[0].samples[0]: expected a finite number, got null");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [[1]]})")),
            "base.json: entries[0].samples[0]: expected a finite number, got an array");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [true]})")),
            "base.json: entries[0].samples[0]: expected a finite number, got true");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [3, -5]})")),
            "base.json: entries[0].samples[1]: expected a duration >= 0 ns, got -5");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [-0.5]})")),
            "base.json: entries[0].samples[0]: expected a duration >= 0 ns, got -0.5");
}

TEST(ReportJsonErrors, RunsMustPartitionTheSamples) {
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [1, 2, 3], "runs": [2, 2]})")),
            "base.json: entries[0].runs: the runs hold 4 samples, but \"samples\" has 3");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [1, 2, 3], "runs": [3, 0]})")),
            "base.json: entries[0].runs[1]: a run with no samples; every run needs at least one");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [1], "runs": 1})")),
            "base.json: entries[0].runs: expected an array of sample counts, one per run, got 1");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [1], "runs": [1.5]})")),
            "base.json: entries[0].runs[0]: expected a non-negative integer, got 1.5");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "samples": [], "runs": []})")),
            "base.json: entries[0].runs: empty; leave \"runs\" out for one run");
}

TEST(ReportJsonErrors, LongStringsAreShortenedInMessages) {
  EXPECT_EQ(error_of(with_entries(std::string(R"({"name": "a", "samples": [")") +
                                  std::string(100, 'x') + "\"]}")),
            "base.json: entries[0].samples[0]: expected a finite number, got \"" +
                std::string(37, 'x') + "\"...");
}

TEST(ReportJsonErrors, UnitMustBeNanoseconds) {
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "unit": "us", "samples": []})")),
            "base.json: entries[0].unit: unsupported unit \"us\"; supported units: \"ns\"");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "unit": 1, "samples": []})")),
            "base.json: entries[0].unit: expected a string, got 1");
}

TEST(ReportJsonErrors, TimerAndDeviceMustHaveTheirTypes) {
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "timer": 3, "samples": []})")),
            "base.json: entries[0].timer: expected a string, got 3");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "device": -1, "samples": []})")),
            "base.json: entries[0].device: expected an integer from 0 to 2147483647, got -1");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "device": 1.0, "samples": []})")),
            "base.json: entries[0].device: expected an integer from 0 to 2147483647, got 1.0");
  EXPECT_EQ(error_of(with_entries(R"({"name": "a", "device": 4294967296, "samples": []})")),
            "base.json: entries[0].device: expected an integer from 0 to 2147483647, got "
            "4294967296");
}

TEST(ReportJsonErrors, EnvironmentFieldsMustHaveTheirTypes) {
  EXPECT_EQ(error_of(with_environment(R"("x")")),
            "base.json: environment: expected an object, got \"x\"");
  EXPECT_EQ(error_of(with_environment(R"({"host": 7})")),
            "base.json: environment.host: expected a string, got 7");
  EXPECT_EQ(error_of(with_environment(R"({"devices": {}})")),
            "base.json: environment.devices: expected an array, got an object");
  EXPECT_EQ(error_of(with_environment(R"({"devices": [{}, "gpu"]})")),
            "base.json: environment.devices[1]: expected an object, got \"gpu\"");
  EXPECT_EQ(error_of(with_environment(R"({"devices": [{"sm_clock_khz": "fast"}]})")),
            "base.json: environment.devices[0].sm_clock_khz: expected an integer from 0 to "
            "2147483647, got \"fast\"");
  EXPECT_EQ(error_of(with_environment(R"({"devices": [{"total_memory_bytes": -1}]})")),
            "base.json: environment.devices[0].total_memory_bytes: expected a non-negative "
            "integer, got -1");
  EXPECT_EQ(error_of(with_environment(R"({"devices": [{"ecc_enabled": "yes"}]})")),
            "base.json: environment.devices[0].ecc_enabled: expected true or false, got \"yes\"");
  EXPECT_EQ(error_of(with_environment(R"({"devices": [{"name": null}]})")),
            "base.json: environment.devices[0].name: expected a string, got null");
}

TEST(ReportJsonErrors, CudaVersionsMustBeWellFormedAndAgree) {
  EXPECT_EQ(error_of(with_environment(R"({"driver_version": "13"})")),
            "base.json: environment.driver_version: expected a CUDA version like \"13.0\", got "
            "\"13\"");
  EXPECT_EQ(error_of(with_environment(R"({"runtime_version": 13.0})")),
            "base.json: environment.runtime_version: expected a string, got 13.0");
  EXPECT_EQ(error_of(with_environment(R"({"driver_version_raw": -2})")),
            "base.json: environment.driver_version_raw: expected an integer from 0 to "
            "2147483647, got -2");
  EXPECT_EQ(
      error_of(with_environment(R"({"driver_version": "13.0", "driver_version_raw": 12080})")),
      "base.json: environment.driver_version: \"13.0\" disagrees with driver_version_raw "
      "12080");
}

TEST(ReportJsonErrors, ToolCreatedAndWarningsMustHaveTheirTypes) {
  const std::string head = R"({"schema": "kerntime-report/1", "entries": [], )";
  EXPECT_EQ(error_of(head + R"("tool": "kerntime"})"),
            "base.json: tool: expected an object, got \"kerntime\"");
  EXPECT_EQ(error_of(head + R"("tool": {"version": 1}})"),
            "base.json: tool.version: expected a string, got 1");
  EXPECT_EQ(error_of(head + R"("created": 20261129})"),
            "base.json: created: expected a string, got 20261129");
  EXPECT_EQ(error_of(head + R"("warnings": "hot"})"),
            "base.json: warnings: expected an array, got \"hot\"");
  EXPECT_EQ(error_of(head + R"("warnings": ["hot", {}]})"),
            "base.json: warnings[1]: expected a string, got an object");
}

TEST(ReportJsonErrors, DefaultSourceIsReport) {
  try {
    parse_report("[]");
    FAIL() << "expected kerntime::Error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "report: top level: expected an object, got an array");
  }
}

}  // namespace
}  // namespace kerntime
