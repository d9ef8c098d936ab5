// SPDX-License-Identifier: Apache-2.0
// The HTML page of a comparison: one self-contained file (nothing fetched), a forest plot with a
// row per paired entry, worst first, each verdict told by a word and a marker shape as well as a
// colour, the verdict table with its header cells, names escaped, and a page sized by the
// entries, not by their samples.
#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/compare.hpp>
#include <kerntime/report.hpp>
#include <kerntime/statistics.hpp>

#include "samples.hpp"
#include "support/text_counts.hpp"

namespace kerntime {
namespace {

using testing::occurrences;

Entry entry_of(const std::string& name, double median_ns, double factor, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Entry e;
  e.name = name;
  e.timer = "cupti-kernel";
  e.samples = testing::simulate_run(rng, 200, median_ns, factor, {0.01, 0.0, 0.1, 0.5, 0.0});
  e.statistics = compute_statistics(e.samples);
  return e;
}

// Regressed, improved, same and inconclusive entries, one only in each report, and a name with
// HTML in it.
Comparison sample_comparison(Report* baseline_out = nullptr, Report* candidate_out = nullptr) {
  Report baseline;
  Report candidate;
  const auto both = [&](const std::string& name, double median, double factor, std::uint64_t s) {
    baseline.entries.push_back(entry_of(name, median, 1.0, s));
    candidate.entries.push_back(entry_of(name, median, factor, s + 100));
  };
  both("saxpy/n=16M/cold", 100'000.0, 1.20, 1);
  both("transpose/cold", 100'000.0, 0.80, 2);
  both("reduce<float>/cold", 100'000.0, 1.00, 3);
  both("tiny/cold", 2'000.0, 1.06, 4);  // 6 % of a 2 us kernel: within the 400 ns allowance
  both("<script>alert(1)</script>&", 50'000.0, 1.0, 5);
  baseline.entries.push_back(entry_of("retired/cold", 1'000.0, 1.0, 6));
  candidate.entries.push_back(entry_of("new/cold", 1'000.0, 1.0, 7));
  CompareOptions options;
  options.baseline_source = "base.json";
  options.candidate_source = "new.json";
  const Comparison c = compare(baseline, candidate, options);
  if (baseline_out != nullptr) *baseline_out = baseline;
  if (candidate_out != nullptr) *candidate_out = candidate;
  return c;
}

std::string page_with_samples(const Comparison& c, const Report& baseline,
                              const Report& candidate) {
  std::string page;
  render_html_to(c, baseline, candidate, [&page](std::string_view piece) { page.append(piece); });
  return page;
}

TEST(CompareHtml, IsOneSelfContainedPage) {
  const std::string page = render(sample_comparison(), CompareFormat::html);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u);
  EXPECT_EQ(page.substr(page.size() - 8), "</html>\n");
  // Nothing to fetch: no scripts, no links, no URLs but SVG's namespace name.
  EXPECT_EQ(occurrences(page, "<script"), 0u) << "an entry name must not become a tag";
  EXPECT_EQ(occurrences(page, "<link"), 0u);
  EXPECT_EQ(occurrences(page, "http"), 1u);
  EXPECT_EQ(occurrences(page, "xmlns=\"http://www.w3.org/2000/svg\""), 1u);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;&amp;"), std::string::npos);
  // The reader's light or dark setting, and print.
  EXPECT_NE(page.find("@media (prefers-color-scheme: dark)"), std::string::npos);
  EXPECT_NE(page.find("@media print"), std::string::npos);
  for (const char* tag : {"svg", "table", "main", "figure", "thead", "tbody"}) {
    EXPECT_EQ(occurrences(page, std::string{"<"} + tag + ">") +
                  occurrences(page, std::string{"<"} + tag + " "),
              occurrences(page, std::string{"</"} + tag + ">"))
        << tag;
  }
}

TEST(CompareHtml, TheForestPlotHasARowPerPairedEntryWorstFirst) {
  const Comparison c = sample_comparison();
  const std::string page = render(c, CompareFormat::html);
  // Five paired entries; the added and the removed one are in the table only.
  EXPECT_EQ(occurrences(page, "<g class=\"entry "), 5u);
  EXPECT_EQ(occurrences(page, "<g class=\"entry regressed\">"), 1u);
  EXPECT_EQ(occurrences(page, "<g class=\"entry improved\">"), 1u);
  EXPECT_EQ(occurrences(page, "<g class=\"entry inconclusive\">"), 1u);
  EXPECT_EQ(occurrences(page, "<g class=\"entry same\">"), 2u);
  const std::size_t regressed = page.find("<g class=\"entry regressed\">");
  const std::size_t inconclusive = page.find("<g class=\"entry inconclusive\">");
  const std::size_t improved = page.find("<g class=\"entry improved\">");
  const std::size_t same = page.find("<g class=\"entry same\">");
  EXPECT_LT(regressed, inconclusive);
  EXPECT_LT(inconclusive, improved);
  EXPECT_LT(improved, same);
  // Every row has its band, its interval and a marker; the shape tells the verdict.
  EXPECT_EQ(occurrences(page, "<rect class=\"band\""), 5u);
  EXPECT_EQ(occurrences(page, "<line class=\"interval\""), 5u);
  EXPECT_EQ(occurrences(page, "<circle class=\"mark\""), 2u);  // same
  EXPECT_EQ(occurrences(page, "<path class=\"mark\""), 3u);    // triangles and the diamond
  // The word beside each row, and the full name and reason on hover.
  EXPECT_EQ(occurrences(page, "<text class=\"word\""), 5u);
  EXPECT_NE(page.find("<title>saxpy/n=16M/cold: regressed, +"), std::string::npos);
  EXPECT_NE(page.find("role=\"img\" aria-labelledby=\"forest-title\""), std::string::npos);
}

// The forest plot's names follow --names: short forms in a 300-unit column by default, whole
// names in a column as wide as the longest with --names full.
TEST(CompareHtml, TheForestPlotShowsWholeNamesWithNamesFull) {
  const std::string name =
      "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
      "std::array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3>)";
  Report baseline;
  Report candidate;
  baseline.entries.push_back(entry_of(name, 100'000.0, 1.0, 11));
  candidate.entries.push_back(entry_of(name, 100'000.0, 1.2, 12));
  const Comparison c = compare(baseline, candidate, CompareOptions{});
  const auto name_text = [](const std::string& page) {
    const std::size_t at = page.find("<text class=\"name\"");
    const std::size_t start = page.find('>', at) + 1;
    return page.substr(start, page.find("</text>", start) - start);
  };
  const auto view_width = [](const std::string& page) {
    const std::size_t figure = page.find("role=\"img\" aria-labelledby=\"forest-title\"");
    const std::size_t box = page.find("viewBox=\"0 0 ", figure);
    return std::stod(page.substr(box + 13));
  };
  const std::string short_page = render(c, CompareFormat::html);
  EXPECT_EQ(name_text(short_page), "at::…::vectorized_elementwise_kernel&lt;…&gt;");
  EXPECT_DOUBLE_EQ(view_width(short_page), 300.0 + 420.0 + 110.0 + 20.0);
  const std::string full_page = render(c, CompareFormat::html, false, NameStyle::full);
  EXPECT_EQ(name_text(full_page),
            "void at::native::vectorized_elementwise_kernel&lt;4, "
            "at::native::CUDAFunctor_add&lt;float&gt;, std::array&lt;char*, "
            "3&gt; &gt;(int, at::native::CUDAFunctor_add&lt;float&gt;, "
            "std::array&lt;char*, 3&gt;)");
  EXPECT_DOUBLE_EQ(view_width(full_page),
                   7.0 * static_cast<double>(name.size()) + 10.0 + 420.0 + 110.0 + 20.0);
}

TEST(CompareHtml, TheTableHasEveryEntryWithHeadersAndReasons) {
  const Comparison c = sample_comparison();
  const std::string page = render(c, CompareFormat::html);
  EXPECT_EQ(occurrences(page, "<th scope=\"row\""), c.entries.size());
  EXPECT_EQ(occurrences(page, "<th scope=\"col\">"), 10u);
  EXPECT_NE(page.find("<caption>"), std::string::npos);
  EXPECT_NE(page.find("<tr class=\"added\">"), std::string::npos);
  EXPECT_NE(page.find("<tr class=\"removed\">"), std::string::npos);
  for (const EntryComparison& e : c.entries) {
    EXPECT_NE(page.find(testing::as_markup(e.reason)), std::string::npos) << e.name;
  }
  EXPECT_NE(page.find("kerntime compare: <span class=\"outcome-FAILED\">FAILED</span>"),
            std::string::npos);
}

TEST(CompareHtml, EntriesThatNeedALookGetAStripPlotOfBothSides) {
  Report baseline;
  Report candidate;
  const Comparison c = sample_comparison(&baseline, &candidate);
  EXPECT_EQ(render(c, CompareFormat::html).find("class=\"strip\""), std::string::npos);
  const std::string page = page_with_samples(c, baseline, candidate);
  // The regressed and the inconclusive entry, the regression first; not the others.
  EXPECT_EQ(occurrences(page, "<figure class=\"strip\">"), 2u);
  const std::size_t first = page.find("<figure class=\"strip\">");
  EXPECT_LT(page.find("saxpy/n=16M/cold: samples of both sides", first),
            page.find("tiny/cold: samples of both sides", first));
  // 200 samples a side: every one is a dot, one run each: one tick a side.
  EXPECT_EQ(occurrences(page, "<path class=\"samples\""), 2u * 2u);
  EXPECT_EQ(occurrences(page, "h0"), 2u * 2u * 200u);
  EXPECT_EQ(occurrences(page, "<line class=\"run\""), 2u * 2u);
  EXPECT_NE(page.find("baseline: 200 samples, 1 run; candidate: 200 samples, 1 run"),
            std::string::npos);
  EXPECT_EQ(occurrences(page, "<svg"), occurrences(page, "</svg>"));
  EXPECT_EQ(page.substr(page.size() - 8), "</html>\n");

  // One figure a side (summaries only) has no spread to draw: no strip plot for it.
  for (Report* r : {&baseline, &candidate}) {
    for (Entry& e : r->entries) {
      e.samples.resize(1);
      e.statistics = compute_statistics(e.samples);
    }
  }
  const Comparison single = compare(baseline, candidate);
  EXPECT_EQ(occurrences(page_with_samples(single, baseline, candidate), "<figure class=\"strip\">"),
            0u);
}

// A candidate written in us against a baseline in ns: its dots land where its times are, on the
// baseline's axis, not a thousand times to the left.
TEST(CompareHtml, AStripPlotDrawsBothSidesInOneUnit) {
  Report baseline;
  Report candidate;
  baseline.entries.push_back(entry_of("copy/cold", 100'000.0, 1.0, 1));
  candidate.entries.push_back(entry_of("copy/cold", 100'000.0, 1.2, 2));
  Entry& in_us = candidate.entries.front();
  for (double& v : in_us.samples)
    v /= 1000.0;
  in_us.unit = "us";
  in_us.statistics = compute_statistics(in_us.samples);
  const Comparison c = compare(baseline, candidate);
  ASSERT_EQ(c.entries.front().verdict, Verdict::regressed);
  const std::string page = page_with_samples(c, baseline, candidate);
  ASSERT_EQ(occurrences(page, "<figure class=\"strip\">"), 1u);
  // Ticks of one axis from about 90 to 130 us, and every candidate run's median among them.
  EXPECT_NE(page.find(" us</text>"), std::string::npos);
  const std::size_t candidate_side = page.find("<g class=\"candidate\">");
  ASSERT_NE(candidate_side, std::string::npos);
  const std::string median = page.substr(
      page.find("a run's median: ", candidate_side) + 16,
      page.find("</title>", candidate_side) - page.find("a run's median: ", candidate_side) - 16);
  EXPECT_NE(median.find("us"), std::string::npos) << median;
  EXPECT_EQ(median.rfind("1", 0), 0u) << median << ": about 120 us";
}

TEST(CompareHtml, AThousandEntriesWithAMillionSamplesMakeAPageUnderFiveMegabytes) {
  Report baseline;
  Report candidate;
  for (int i = 0; i < 1000; ++i) {
    const std::string name = "kernel_" + std::to_string(i) + "/n=" + std::to_string(1 << (i % 20));
    Entry a = entry_of(name, 10'000.0 + i, 1.0, static_cast<std::uint64_t>(i));
    std::mt19937_64 rng(static_cast<std::uint64_t>(i) + 5000);
    a.samples = testing::simulate_run(rng, 500, 10'000.0 + i, 1.0, {0.01, 0.0, 0.1, 0.5, 0.0});
    StatisticsOptions quick;
    quick.median_interval = false;
    a.statistics = compute_statistics(a.samples, quick);
    Entry b = a;
    for (double& v : b.samples)
      v *= i % 10 == 0 ? 1.1 : 1.0;
    b.statistics = compute_statistics(b.samples, quick);
    baseline.entries.push_back(std::move(a));
    candidate.entries.push_back(std::move(b));
  }
  for (int i = 0; i < 1000; i += 3) {  // inconclusive: a second run far off the first
    Entry& b = candidate.entries[static_cast<std::size_t>(i)];
    const std::size_t n = b.samples.size();
    for (std::size_t k = 0; k < n; ++k)
      b.samples.push_back(b.samples[k] * 1.3);
    b.run_sizes = {n, n};
  }
  const Comparison c = compare(baseline, candidate);
  const std::string page = page_with_samples(c, baseline, candidate);
  RecordProperty("page_bytes", static_cast<int>(page.size()));
  EXPECT_LT(page.size(), std::size_t{5} << 20);
  EXPECT_EQ(occurrences(page, "<g class=\"entry "), 1000u);
  // At most 100 strip plots, at most 200 dots a side, and the page says so.
  EXPECT_EQ(occurrences(page, "<figure class=\"strip\">"), 100u);
  EXPECT_EQ(occurrences(page, "<path class=\"samples\""), 100u * 2u);
  EXPECT_EQ(occurrences(page, "h0"), 100u * 2u * 200u);
  EXPECT_NE(page.find("The 100 of "), std::string::npos);
  EXPECT_NE(page.find("drawn as 200 evenly spaced quantiles"), std::string::npos);
}

}  // namespace
}  // namespace kerntime
