// SPDX-License-Identifier: Apache-2.0
// Other tools' files as reports: the format told by content (CSV and XML named as what they
// are), and comparisons across formats. Google Benchmark's JSON: gbench_interop_test.cpp;
// NVBench's: nvbench_reader_test.cpp.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>
#include <kerntime/measurement_info.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>

#include "interop_helpers.hpp"
#include "report/sample_report.hpp"

namespace kerntime {
namespace {

using namespace interop_test;

// ---- detection ----

TEST(ReportFileFormat, IsToldByContent) {
  EXPECT_EQ(detect_report_format(to_json(testing::sample_report())), ReportFileFormat::kerntime);
  EXPECT_EQ(detect_report_format(read_data("gbench_repetitions.json")),
            ReportFileFormat::google_benchmark);
  EXPECT_EQ(detect_report_format(read_data("nvbench_summaries.json")), ReportFileFormat::nvbench);
  // A file of "benchmarks" alone is told by its first benchmark.
  EXPECT_EQ(detect_report_format(R"({"benchmarks": [{"name": "a", "real_time": 1}]})"),
            ReportFileFormat::google_benchmark);
  EXPECT_EQ(detect_report_format(R"({"benchmarks": [{"name": "a", "states": []}]})"),
            ReportFileFormat::nvbench);
  // Anything else goes to kerntime's reader, which says what is wrong.
  EXPECT_EQ(detect_report_format("not json"), ReportFileFormat::kerntime);
  EXPECT_EQ(detect_report_format(R"({"entries": []})"), ReportFileFormat::kerntime);
  EXPECT_EQ(error_of("[1, 2"),
            "x.json: line 1, column 6: invalid JSON: syntax error while "
            "parsing array - unexpected end of input; expected ']'");
  EXPECT_EQ(to_string(ReportFileFormat::nvbench), "NVBench JSON");
}

// ---- kerntime -> Google Benchmark JSON ----

// ---- comparisons across formats ----

TEST(InteropCompare, AReportAndItsGoogleBenchmarkJsonAreTheSame) {
  const Report report = testing::sample_report();
  const Report read = parse_any_report(to_google_benchmark_json(report), "g.json");
  CompareOptions options;
  const Comparison comparison = compare(report, read, options);
  ASSERT_TRUE(comparison.usable()) << comparison.unusable_reason;
  EXPECT_FALSE(comparison.failed());
  for (const EntryComparison& e : comparison.entries) {
    if (e.name == "empty") continue;  // no samples: not written
    EXPECT_NE(e.verdict, Verdict::regressed) << e.name;
    EXPECT_NE(e.verdict, Verdict::improved) << e.name;
  }
}

TEST(InteropCompare, NvbenchRunsCompareWithEachOtherButNotWithAnotherTimer) {
  ReportReadOptions options;
  options.nvbench_directory = kData;
  const Report nvbench = parse_any_report(read_data("nvbench_jsonbin.json"), "nv.json", options);
  Report slower = nvbench;
  for (double& sample : slower.entries[0].samples)
    sample *= 1.5;
  slower.entries[0].statistics = compute_statistics(slower.entries[0].samples);
  const Comparison comparison = compare(nvbench, slower, CompareOptions{});
  ASSERT_TRUE(comparison.usable()) << comparison.unusable_reason;
  EXPECT_EQ(comparison.entries[0].name, "copy/T=I32/Elements=4194304/cold");
  EXPECT_EQ(comparison.entries[0].verdict, Verdict::regressed);

  // The same names measured by kerntime's cuda-event timer are another measurement.
  Report kerntime = nvbench;
  for (Entry& e : kerntime.entries)
    e.timer = "cuda-event";
  const Comparison across = compare(nvbench, kerntime, CompareOptions{});
  EXPECT_FALSE(across.usable());
  EXPECT_TRUE(contains(across.unusable_reason, "another timer")) << across.unusable_reason;
}

// What kerntime or a CI system writes beside reports is named as what it is, not "not JSON".
TEST(ReportFileFormat, CsvAndXmlAreNamedAsSuch) {
  const auto message = [](const std::string& text, const std::string& source) {
    try {
      parse_any_report(text, source);
    } catch (const Error& e) {
      return std::string{e.what()};
    }
    return std::string{"no error"};
  };
  EXPECT_EQ(message("name,timer,samples,median_ns\nk,cupti-kernel,20,2600\n", "out.csv"),
            "out.csv is CSV (such as kerntime report --format csv writes?), which keeps no "
            "samples and cannot be read back; give a report in JSON: kerntime's, Google "
            "Benchmark's or NVBench's");
  EXPECT_EQ(message("\xEF\xBB\xBF  <?xml version=\"1.0\"?>\n<testsuites/>\n", "result.xml"),
            "result.xml is XML (a JUnit file such as kerntime compare --format junit writes?), "
            "not a report; give a report in JSON: kerntime's, Google Benchmark's or NVBench's");
  // JSON, even broken JSON, is left to the JSON reader.
  EXPECT_EQ(message("{\"schema\": ", "cut.json").find("is CSV"), std::string::npos);
}

}  // namespace
}  // namespace kerntime
