// SPDX-License-Identifier: Apache-2.0
// The HTML page of a report: self-contained, every entry with a box plot of its distribution,
// the engine's measurements, and for a traced report the kernels by GPU time and the NVTX
// ranges; names escaped. `kerntime report -o FILE.html` writes it.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/format.hpp>

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
  EXPECT_EQ(occurrences(page, "<th scope=\"row\">"), report.entries.size());
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
  const std::string page = render_html(testing::sample_engine_report());
  EXPECT_NE(page.find("<h2>How the benchmark engine measured each entry</h2>"), std::string::npos);
  EXPECT_NE(page.find("GB/s"), std::string::npos);
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

}  // namespace
}  // namespace kerntime
