// SPDX-License-Identifier: Apache-2.0
// Properties of the table, markdown and CSV views that the golden report does not pin down:
// escaping, empty reports, unknown environments, mixed confidence levels.
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/format.hpp>
#include <kerntime/measurement_info.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/throughput.hpp>

#include "report/sample_report.hpp"
#include "support/readable_text.hpp"

namespace kerntime {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

Report report_named(const std::string& name) {
  Report report;
  Entry entry{name, "ns", "cuda-event", std::nullopt, {1500, 2500}, {}};
  entry.statistics =
      testing::sample_statistics(2, 1500, 2500, 2000, 2000, 1750, 2250, 2450, 2490, 500);
  testing::set_spread(entry.statistics, 707.1067811865476, 1500, 2500);
  report.entries.push_back(entry);
  return report;
}

TEST(TableView, EmptyReportHasHeaderAndSaysSo) {
  EXPECT_EQ(render(Report{}, Format::table),
            "Name  Samples  Median  Median 95% CI  Mean  Min  Max  StdDev  Noise\n"
            "----  -------  ------  -------------  ----  ---  ---  ------  -----\n"
            "(no entries)\n");
}

TEST(TableView, ShowsOnlyTheEnvironmentThatIsKnown) {
  Report report = report_named("k");
  report.environment.driver_version = 12080;
  DeviceInfo device;
  device.index = 1;
  report.environment.devices.push_back(device);
  const std::vector<std::string> lines = lines_of(render(report, Format::table));
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "CUDA driver 12.8");
  EXPECT_EQ(lines[1], "device 1");
  EXPECT_EQ(lines[2], "");
}

TEST(TableView, NoLineHasTrailingBlanks) {
  for (const std::string& line : lines_of(render(testing::sample_report(), Format::table))) {
    EXPECT_TRUE(line.empty() || line.back() != ' ') << "'" << line << "'";
  }
}

TEST(TableView, ControlCharactersCannotBreakARow) {
  const std::string text = render(report_named("two\nlines\t\x1b"), Format::table);
  EXPECT_NE(text.find("two\\nlines\\t\\x1b  "), std::string::npos) << text;
  EXPECT_EQ(lines_of(text).size(), 3u) << text;
}

TEST(TableView, AlignsNamesByCodePointsNotBytes) {
  Report report = report_named("größe");  // 5 code points, 7 bytes
  report.entries.push_back(report_named("sum").entries[0]);
  const std::vector<std::string> lines = lines_of(render(report, Format::table));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[2].substr(0, std::string("größe  ").size()), "größe  ");
  EXPECT_EQ(lines[3].substr(0, 7), "sum    ");
}

TEST(TableView, MixedConfidenceLevelsAreNamedPerCell) {
  Report report = report_named("a");
  report.entries.push_back(report_named("b").entries[0]);
  report.entries[1].statistics.median_ci_level = 0.9;
  const std::string text = render(report, Format::table);
  EXPECT_NE(text.find("  Median CI  "), std::string::npos) << text;
  EXPECT_NE(text.find("[1.500 us, 2.500 us] at 95%"), std::string::npos) << text;
  EXPECT_NE(text.find("[1.500 us, 2.500 us] at 90%"), std::string::npos) << text;
}

TEST(TableView, OneSampleShowsDashesAndTheLegend) {
  Report report = report_named("k");
  Statistics& s = report.entries[0].statistics;
  s.stddev.reset();
  s.relative_noise.reset();
  s.median_ci.reset();
  const std::vector<std::string> lines = lines_of(render(report, Format::table));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[2],
            "k           2  2.000 us              -  2.000 us  1.500 us  2.500 us       -      -");
  EXPECT_EQ(lines[4], "-: not enough samples");
}

TEST(MarkdownView, EscapesMarkdownSyntaxInNames) {
  const std::string text =
      render(report_named("void k<float>(float*, int) | a_b [x] `c` \\ & ~"), Format::markdown);
  EXPECT_NE(
      text.find("| void k\\<float\\>(float\\*, int) \\| a\\_b \\[x\\] \\`c\\` \\\\ \\& \\~ |"),
      std::string::npos)
      << text;
}

TEST(MarkdownView, HasOneRowPerEntryAndAnAlignmentRow) {
  const std::vector<std::string> lines = lines_of(render(report_named("k"), Format::markdown));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "| Name | Samples | Median | Median 95% CI | Mean | Min | Max | StdDev | Noise |");
  EXPECT_EQ(lines[1], "| :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  EXPECT_EQ(lines[2],
            "| k | 2 | 2.000 us | [1.500 us, 2.500 us] | 2.000 us | 1.500 us | 2.500 us | "
            "707.1 ns | 35.36% |");
}

TEST(CsvView, QuotesOnlyWhatRfc4180Requires) {
  const std::vector<std::string> lines =
      lines_of(render(report_named("a,b \"c\"\nd"), Format::csv));
  ASSERT_EQ(lines.size(), 3u);  // the quoted line break splits the text line, not the record
  EXPECT_EQ(lines[1], "\"a,b \"\"c\"\"");
  EXPECT_EQ(lines[2],
            "d\",cuda-event,,2,2000,2000,1500,2500,707.1067811865476,0.3535533905932738,1500,2500,"
            "0.95,1750,2250,2450,2490,500");
}

// Table, Markdown and JUnit escape control bytes in names; CSV passed ESC and NUL through raw.
TEST(CsvView, EscapesControlBytesLikeTheOtherViews) {
  const std::vector<std::string> lines =
      lines_of(render(report_named(std::string("k\x1b[31m\0x\x7f\xff\tend", 14)), Format::csv));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].substr(0, lines[1].find(',')), "k\\x1b[31m\\x00x\\x7f\\xff\tend");
  EXPECT_EQ(lines[1].find('\x1b'), std::string::npos);
  EXPECT_EQ(lines[1].find('\0'), std::string::npos);
}

TEST(CsvView, EmptyReportIsTheHeaderOnly) {
  EXPECT_EQ(
      render(Report{}, Format::csv),
      "name,timer,device,count,median_ns,mean_ns,min_ns,max_ns,stddev_ns,relative_noise,"
      "median_ci_low_ns,median_ci_high_ns,median_ci_level,q1_ns,q3_ns,p95_ns,p99_ns,mad_ns\n");
}

// Entries whose samples are at the ends of a double (denormal, 1e300 ns), each with declared
// work, a rate counter and an absurd SM clock: their rates overflow to infinity or have hundreds
// of digits.
Report extreme_report() {
  Report report;
  for (const auto& [name, value] :
       {std::pair<const char*, double>{"tiny", 5e-324}, {"huge", 1e300}}) {
    Entry entry{name, "ns", "cupti-kernel", 0, std::vector<double>(6, value), {}};
    entry.statistics = compute_statistics(entry.samples);
    auto info = std::make_shared<MeasurementInfo>();
    info->mode = "cold";
    info->stop_reason = "stable";
    info->median_sm_clock_mhz = 1e300;
    info->work = Work{1e9, 1e12, 1e6};
    info->peak_bandwidth_gb_per_s = 4800.0;
    info->counters = {Counter{"segments/s", 32768.0, CounterKind::rate}};
    info->throughput =
        compute_throughput(info->work, entry.statistics.median, info->peak_bandwidth_gb_per_s);
    entry.measurement = std::move(info);
    report.entries.push_back(std::move(entry));
  }
  return report;
}

// Issue 25: "GB/s inf" for denormal samples with declared work, and durations of 300 digits.
TEST(TableView, ExtremeValuesStayReadable) {
  for (const Format format : {Format::table, Format::markdown}) {
    const std::string text = render(extreme_report(), format);
    EXPECT_EQ(testing::unreadable_part(text), "") << text;
    EXPECT_NE(text.find("4.941e-324 ns"), std::string::npos) << text;
    EXPECT_NE(text.find("1.000e+291 s"), std::string::npos) << text;
    EXPECT_NE(text.find("1.000e+300"), std::string::npos) << text;  // the SM clock
    EXPECT_NE(text.find("overflow"), std::string::npos) << text;    // GB/s of the denormal
  }
  const std::string table = render(extreme_report(), Format::table);
  const std::vector<std::string> lines = lines_of(table);
  ASSERT_GE(lines.size(), 11u) << table;
  // Rates at 5e-324 ns overflow; at 1e300 ns they are tiny but finite.
  EXPECT_NE(lines[9].find("1.000e+300  overflow  overflow  overflow  overflow    overflow  stable"),
            std::string::npos)
      << table;
  EXPECT_NE(lines[10].find("1.000e+300       0.0      0.0%     0.000    1e-285  3.277e-287"),
            std::string::npos)
      << table;
}

TEST(CsvView, ExtremeValuesAreExactAndOverflowIsEmpty) {
  const std::string csv = render(extreme_report(), Format::csv);
  EXPECT_EQ(testing::unreadable_part(csv, false), "") << csv;
  const std::vector<std::string> lines = lines_of(csv);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1].rfind("tiny,cupti-kernel,0,6,5e-324,", 0), 0u) << lines[1];
  // gb_per_s, tflop_per_s and peak_bandwidth_percent overflowed: missing values.
  EXPECT_NE(lines[1].find(",1e+300,1000000000,1000000000000,,,,1000000,,"), std::string::npos)
      << lines[1];
}

// Bidirectional controls reorder what a terminal or a review shows, and C1 and Unicode line
// separators break lines for some readers: written as escapes, like the control bytes.
TEST(TableView, BidiControlsAndLineSeparatorsAreEscaped) {
  const std::string name =
      "a\u202Eb\u0085c\u2028d\u2029e\u200Ef\u200Fg\u061Ch\u202Ai\u2066j\u2069k\u009Fl";
  const std::string escaped =
      "a\\u202eb\\u0085c\\u2028d\\u2029e\\u200ef\\u200fg\\u061ch\\u202ai\\u2066j\\u2069k\\u009fl";
  const std::string table = render(report_named(name), Format::table);
  EXPECT_NE(table.find(escaped + "  "), std::string::npos) << table;
  const std::string csv = render(report_named(name), Format::csv);
  EXPECT_EQ(csv.substr(csv.find('\n') + 1, escaped.size() + 1), escaped + ",") << csv;
  const std::string markdown = render(report_named(name), Format::markdown);
  std::string markdown_escaped;  // markdown_escape() doubles each backslash
  for (const char c : escaped)
    markdown_escaped += c == '\\' ? "\\\\" : std::string(1, c);
  EXPECT_NE(markdown.find("| " + markdown_escaped + " |"), std::string::npos) << markdown;
  for (const std::string& text : {table, csv, markdown}) {
    for (const char* raw :
         {"\u202E", "\u0085", "\u2028", "\u2029", "\u200E", "\u061C", "\u2066", "\u009F"}) {
      EXPECT_EQ(text.find(raw), std::string::npos) << text;
    }
  }
  // Other characters outside ASCII stay as they are.
  EXPECT_NE(render(report_named("größe \u00A0\u4E2D"), Format::table).find("größe \u00A0\u4E2D"),
            std::string::npos);
}

}  // namespace
}  // namespace kerntime
