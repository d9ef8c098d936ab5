// SPDX-License-Identifier: Apache-2.0
// The HTML page of a report: self-contained, every entry with a box plot of its distribution,
// the engine's measurements, and for a traced report the kernels by GPU time and the NVTX
// ranges; names escaped. `kerntime report -o FILE.html` writes it.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/statistics.hpp>

#include "format/html_axis.hpp"
#include "report/sample_engine_report.hpp"
#include "report/sample_report.hpp"
#include "report/sample_trace_report.hpp"
#include "support/run_command.hpp"
#include "support/text_counts.hpp"

namespace kerntime {
namespace {

using testing::occurrences;

TEST(ReportHtml, EveryEntryWithItsDistributionOnOneSelfContainedPage) {
  Report report = testing::sample_report();
  report.entries.front().name = "<b>bold</b>&co";
  const std::string page = render_html(report);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u);
  EXPECT_EQ(page.substr(page.size() - 8), "</html>\n");
  EXPECT_EQ(occurrences(page, "<script"), 0u);
  EXPECT_EQ(occurrences(page, "<link"), 0u);
  EXPECT_EQ(occurrences(page, "<b>"), 0u) << "an entry name must not become markup";
  EXPECT_NE(page.find("&lt;b&gt;bold&lt;/b&gt;&amp;co"), std::string::npos);
  EXPECT_NE(page.find("@media (prefers-color-scheme: dark)"), std::string::npos);
  // One row per entry; a box plot for each entry with two samples or more and some spread.
  EXPECT_EQ(occurrences(page, "<th scope=\"row\""), report.entries.size());
  std::size_t drawable = 0;
  for (const Entry& e : report.entries)
    drawable += e.samples.size() >= 2 && e.statistics.max > e.statistics.min ? 1 : 0;
  ASSERT_GT(drawable, 0u);
  EXPECT_EQ(occurrences(page, "<svg class=\"dist\""), drawable);
  EXPECT_EQ(occurrences(page, "<rect class=\"box\""), drawable);
  EXPECT_EQ(occurrences(page, "<svg"), occurrences(page, "</svg>"));
  EXPECT_EQ(occurrences(page, "<table>"), occurrences(page, "</table>"));
  EXPECT_EQ(page.find("Where the GPU time went"), std::string::npos);  // no trace
}

TEST(ReportHtml, TheEnginesMeasurementsAndRatesAreShown) {
  const Report report = testing::sample_engine_report();
  const std::string page = render_html(report);
  EXPECT_NE(page.find("<h2>How the benchmark engine measured each entry</h2>"), std::string::npos);
  EXPECT_NE(page.find("GB/s"), std::string::npos);
  // A bar of bandwidth against the peak for each entry that declared its bytes.
  std::size_t declared = 0;
  for (const Entry& e : report.entries)
    declared += e.measurement && e.measurement->throughput.peak_bandwidth_percent ? 1 : 0;
  ASSERT_GT(declared, 0u);
  EXPECT_EQ(occurrences(page, "<svg class=\"bandwidth\""), 1u);
  const std::size_t chart = page.find("<svg class=\"bandwidth\"");
  EXPECT_EQ(
      occurrences(page.substr(chart, page.find("</svg>", chart) - chart), "<rect class=\"bar\""),
      declared);
}

TEST(ReportHtml, ATracedReportShowsItsKernelsByTimeAndItsRanges) {
  const Report report = testing::sample_report_with_trace();
  ASSERT_TRUE(report.trace.has_value());
  const std::string page = render_html(report);
  EXPECT_NE(page.find("<h2>Where the GPU time went</h2>"), std::string::npos);
  const std::size_t kernels = report.trace->kernel_summary.size();
  EXPECT_EQ(occurrences(page, "<rect class=\"bar\""),
            std::min<std::size_t>(kernels, 15) + (kernels > 15 ? 1 : 0));
  // The bars are in the summary's order, largest total first, each titled by its full name.
  EXPECT_LT(page.find("class=\"kernels\""), page.find("<rect class=\"bar\""));
  // Copies and memsets by kind, and the host API calls, with a note where the lists are cut.
  if (!report.trace->memcpys.empty() || !report.trace->memsets.empty()) {
    EXPECT_NE(page.find("<h2>Copies and memsets</h2>"), std::string::npos);
  }
  if (!report.trace->api_calls.empty()) {
    EXPECT_NE(page.find("<h2>Host API calls</h2>"), std::string::npos);
  }
  EXPECT_EQ(occurrences(page, "<g><title>"),
            std::min<std::size_t>(kernels, 15) + (kernels > 15 ? 1 : 0));
  if (!report.trace->range_summary.empty()) {
    EXPECT_NE(page.find("<h2>NVTX ranges</h2>"), std::string::npos);
  }
}

TEST(ReportHtml, KerntimeReportWritesItForAnHtmlFile) {
  const std::string path = ::testing::TempDir() + "kerntime_report_page.html";
  std::remove(path.c_str());
  const testing::CommandResult r =
      testing::run_command("'" KERNTIME_EXECUTABLE "' report '" KERNTIME_TEST_DATA_DIR
                           "/../report/golden/report_with_trace.json' -o '" +
                           path + "'");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  const testing::CommandResult cat = testing::run_command("cat '" + path + "'");
  EXPECT_EQ(cat.out.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(cat.out.find("Where the GPU time went"), std::string::npos);
  const testing::CommandResult both = testing::run_command(
      "'" KERNTIME_EXECUTABLE "' report '" KERNTIME_TEST_DATA_DIR
      "/../report/golden/report_with_trace.json' --format html --trace-summary all");
  EXPECT_EQ(both.exit_status, 2);
}

TEST(ReportHtml, AKernelsBarShowsItsShortNameAndItsFullNameOnHover) {
  Report report = testing::sample_report_with_trace();
  ASSERT_FALSE(report.trace->kernel_summary.empty());
  const std::string full =
      "void at::native::elementwise_kernel<128, 2, at::native::AddFunctor<float>>(int, "
      "at::native::AddFunctor<float> const&)";
  report.trace->kernel_summary.front().name = full;
  const std::string page = render_html(report);
  EXPECT_NE(page.find("<g><title>" + testing::as_markup(full)), std::string::npos);
  EXPECT_NE(page.find(">at::native::elementwise_kernel&lt;\u2026&gt;</text>"), std::string::npos)
      << page.substr(page.find("class=\"kernels\""), 2000);
  const std::string whole = render_html(report, NameStyle::full);
  EXPECT_EQ(whole.find("elementwise_kernel&lt;\u2026&gt;"), std::string::npos);
}

// Every tick of an axis in the one unit that suits the axis.
TEST(PlotAxis, TicksAreRoundAndWrittenInOneUnit) {
  const format::PlotAxis ns = format::make_plot_axis(420.0, 1200.0, "ns");
  EXPECT_EQ(ns.unit, "us");
  ASSERT_EQ(ns.ticks.size(), 5u);
  EXPECT_EQ(ns.label(ns.ticks.front()), "0.4 us");
  EXPECT_EQ(ns.label(ns.ticks.back()), "1.2 us");
  EXPECT_DOUBLE_EQ(ns.at(800.0), 0.5);
  const format::PlotAxis small = format::make_plot_axis(2.5, 9.0, "ns");
  EXPECT_EQ(small.unit, "ns");
  EXPECT_EQ(small.label(small.ticks[1]), "4 ns");
  const format::PlotAxis ms = format::make_plot_axis(1.0e6, 3.5e6, "ns");
  EXPECT_EQ(ms.unit, "ms");
  EXPECT_EQ(ms.label(ms.ticks[1]), "2 ms");  // 1, 2, 3, 4 ms
  // Another unit keeps its name; a flat range is widened, not divided by zero.
  const format::PlotAxis rate = format::make_plot_axis(7.0, 7.0, "GB/s");
  EXPECT_EQ(rate.unit, "GB/s");
  EXPECT_LT(rate.low, 7.0);
  EXPECT_GT(rate.high, 7.0);
  // Ends an ulp apart (4.1 us read as 0.0041 ms and as 4.1 us), reversed ends, all zero, huge:
  // a few ticks each, in order, and no endless loop.
  for (const auto& [least, largest] :
       std::vector<std::pair<double, double>>{{4.1, std::nextafter(4.1, 5.0)},
                                              {1000.0, std::nextafter(1000.0, 0.0)},
                                              {9.0, 2.0},
                                              {0.0, 0.0},
                                              {-1e308, 1e308},
                                              {1e-300, 2e-300}}) {
    const format::PlotAxis axis = format::make_plot_axis(least, largest, "ns");
    EXPECT_GE(axis.ticks.size(), 2u) << least << " " << largest;
    EXPECT_LE(axis.ticks.size(), 12u) << least << " " << largest;
    EXPECT_LE(axis.low, std::min(least, largest));
    EXPECT_GE(axis.high, std::max(least, largest));
    EXPECT_TRUE(std::is_sorted(axis.ticks.begin(), axis.ticks.end()));
  }
  // An all-zero series is drawn from 0 upwards, not around it.
  EXPECT_EQ(format::make_plot_axis(0.0, 0.0, "ns").low, 0.0);
}

// The trend page: reports in order, a chart per entry, steps marked where a planted change is.
std::vector<Report> history(std::size_t points, std::size_t step_at, double factor) {
  std::vector<Report> reports;
  StatisticsOptions options;
  for (std::size_t p = 0; p < points; ++p) {
    Report r;
    r.environment.created_utc = "2026-12-0" + std::to_string(1 + p % 9) + "T00:00:00Z";
    for (const char* name : {"gemm", "copy"}) {
      Entry e;
      e.name = name;
      e.timer = "cupti";
      const double level = (std::string{name} == "gemm" && p >= step_at) ? 1000.0 * factor : 1000.0;
      for (int i = 0; i < 40; ++i)
        e.samples.push_back(level * (1.0 + 0.002 * ((i * 7 + static_cast<int>(p) * 3) % 11 - 5)));
      e.statistics = compute_statistics(e.samples, options);
      r.entries.push_back(std::move(e));
    }
    reports.push_back(std::move(r));
  }
  return reports;
}

TEST(ReportHtmlTrend, APlantedStepIsMarkedAtItsPointAndNothingElseIs) {
  const std::vector<Report> reports = history(8, 5, 1.10);
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < reports.size(); ++i)
    labels.push_back("c" + std::to_string(i));
  const std::string page = render_html_trend(reports, labels);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(occurrences(page, "<script"), 0u);
  EXPECT_NE(page.find("kerntime trend: 2 entries over 8 reports"), std::string::npos);
  // One chart per entry, one dot per point; one step, on gemm, at c5, slower by about 10 %.
  EXPECT_EQ(occurrences(page, "<figure class=\"trend\">"), 2u);
  EXPECT_EQ(occurrences(page, "<circle class=\"mark\""), 16u);
  EXPECT_EQ(occurrences(page, "<g class=\"step regressed\">"), 1u);
  EXPECT_EQ(occurrences(page, "<g class=\"step improved\">"), 0u);
  EXPECT_NE(page.find("\u25b2 slower +10.0% at c5"), std::string::npos) << page;
  // gemm (the entry with a step) comes first in the table and the charts.
  EXPECT_LT(page.find("aria-label=\"gemm:"), page.find("aria-label=\"copy:"));
  EXPECT_EQ(occurrences(page, "<svg"), occurrences(page, "</svg>"));
}

TEST(ReportHtmlTrend, AStepUnderTheThresholdIsNotMarked) {
  const std::vector<Report> reports = history(8, 5, 1.03);
  const std::vector<std::string> labels(8, "x");
  EXPECT_EQ(occurrences(render_html_trend(reports, labels), "<g class=\"step "), 0u);
  EXPECT_EQ(occurrences(render_html_trend(reports, labels, NameStyle::short_form, 0.02),
                        "<g class=\"step regressed\">"),
            1u);
}

TEST(ReportHtmlTrend, GapsUnitsAndMarkupInNamesAndLabels) {
  std::vector<Report> reports = history(6, 3, 1.2);
  // copy is missing from report 2; gemm is written in us in report 4; names and labels carry
  // markup that must stay text.
  for (Report& r : reports)
    r.entries.back().name = "copy<\"x\">&";
  reports[2].entries.pop_back();
  Entry& gemm = reports[4].entries.front();
  for (double& v : gemm.samples)
    v /= 1000.0;
  gemm.unit = "us";
  gemm.statistics = compute_statistics(gemm.samples, StatisticsOptions{});
  const std::vector<std::string> labels{"a", "b", "<i>c</i>", "d", "e", "f"};
  const std::string page = render_html_trend(reports, labels);
  EXPECT_EQ(occurrences(page, "<i>"), 0u);
  EXPECT_NE(page.find("&lt;i&gt;c&lt;/i&gt;"), std::string::npos);
  EXPECT_NE(page.find("copy&lt;&quot;x&quot;&gt;&amp;"), std::string::npos);
  // 6 + 5 dots; the copy's line is broken at the missing point (a second move-to).
  EXPECT_EQ(occurrences(page, "<circle class=\"mark\""), 11u);
  const std::size_t copy = page.find("aria-label=\"copy&lt;");
  ASSERT_NE(copy, std::string::npos);
  const std::size_t path = page.find("<path class=\"series\" d=\"", copy);
  const std::string d = page.substr(path, page.find("\"/>", path + 30) - path);
  EXPECT_EQ(occurrences(d, "M"), 2u) << d;
  // The gemm step of +20 % is found across the point written in us: units are converted.
  EXPECT_NE(page.find("slower +20.0% at d"), std::string::npos);
  EXPECT_EQ(occurrences(page, "<g class=\"step "), 1u);
}

TEST(ReportHtmlTrend, PointsOfAnotherGpuAreNamed) {
  std::vector<Report> reports = history(4, 2, 1.2);
  for (Report& r : reports) {
    r.environment.devices.push_back(DeviceInfo{});
    r.environment.devices.back().name = "NVIDIA H200";
  }
  const std::vector<std::string> labels{"a", "b", "c", "d"};
  EXPECT_EQ(render_html_trend(reports, labels).find("measured on another GPU"), std::string::npos);
  reports[2].environment.devices.front().name = "NVIDIA A100";
  const std::string page = render_html_trend(reports, labels);
  EXPECT_NE(page.find("measured on another GPU than a (NVIDIA H200): c (NVIDIA A100)"),
            std::string::npos);
}

TEST(ReportHtmlTrend, LabelsMustMatchTheReports) {
  EXPECT_THROW(render_html_trend(history(3, 1, 1.1), {"a", "b"}), Error);
  EXPECT_THROW(render_html_trend({}, {}), Error);
}

TEST(ReportHtmlTrend, KerntimeReportDrawsTheTrendOfSeveralFilesForHtml) {
  const std::string folder = ::testing::TempDir() + "kerntime_trend";
  testing::run_command("rm -rf '" + folder + "' && mkdir -p '" + folder + "'");
  const std::vector<Report> reports = history(6, 3, 1.2);
  std::string files;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const std::string file = folder + "/commit" + std::to_string(i) + ".json";
    write_report_file(reports[i], file);
    files += " '" + file + "'";
  }
  const std::string kerntime = "'" KERNTIME_EXECUTABLE "' report" + files;
  testing::CommandResult r = testing::run_command(kerntime + " -o '" + folder + "/t.html'");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const std::string page = testing::run_command("cat '" + folder + "/t.html'").out;
  EXPECT_NE(page.find("over 6 reports"), std::string::npos);
  EXPECT_NE(page.find("slower +20.0% at commit3"), std::string::npos)
      << "points are named by their files";
  r = testing::run_command(kerntime +
                           " --format html --label a --label b --label c --label d "
                           "--label e --label f");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_NE(r.out.find("slower +20.0% at d"), std::string::npos);
  // Files of one name in several folders are named by their folder too.
  testing::run_command("mkdir -p '" + folder + "/x' '" + folder + "/y'");
  write_report_file(reports[0], folder + "/x/report.json");
  write_report_file(reports[4], folder + "/y/report.json");
  r = testing::run_command("'" KERNTIME_EXECUTABLE "' report --format html '" + folder +
                           "/x/report.json' '" + folder + "/y/report.json'");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_NE(r.out.find("slower +20.0% at y/report"), std::string::npos);
  r = testing::run_command(kerntime + " --format html --label a");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("--label was given 1 times for 6 report files"), std::string::npos) << r.err;
  r = testing::run_command(kerntime + " --format md --threshold 2%");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.err.find("trend page only"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kerntime
