// SPDX-License-Identifier: Apache-2.0
// The four renderings of a comparison: content, escaping, colours, well-formedness.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>

#include "xml_check.hpp"

namespace kerntime {
namespace {

constexpr const char* kOddName = "odd|<&>\"'\x1b[31m`*_";

Comparison sample_comparison() {
  Comparison c;
  c.baseline_source = "base.json";
  c.candidate_source = "cand.json";
  c.warnings = {"Driver differs: baseline supports CUDA 13.0, candidate CUDA 12.8."};

  EntryComparison regressed;
  regressed.name = "gemm/fp16";
  regressed.verdict = Verdict::regressed;
  regressed.reason =
      "median 10.2% slower, beyond the 5% threshold; significant (p = 3.4e-09 < 0.01)";
  regressed.threshold = 0.05;
  regressed.baseline = SampleSummary{30, 1234000.0, "ns", "cupti"};
  regressed.candidate = SampleSummary{30, 1360000.0, "ns", "cupti"};
  regressed.ratio = 1.1021;
  regressed.ratio_ci = Interval{1.081, 1.1234};
  regressed.p_value = 3.4e-9;
  regressed.exact_test = true;
  regressed.fails = true;

  EntryComparison same;
  same.name = kOddName;
  same.verdict = Verdict::same;
  same.reason = "no significant change (p = 0.398); the 99% interval lies within the 5% threshold";
  same.threshold = 0.05;
  same.baseline = SampleSummary{40, 812.0, "ns", ""};
  same.candidate = SampleSummary{40, 811.0, "ns", ""};
  same.ratio = 811.0 / 812.0;
  same.ratio_ci = Interval{0.983, 1.032};
  same.p_value = 0.398;

  EntryComparison removed;
  removed.name = "old";
  removed.verdict = Verdict::removed;
  removed.reason = "only in the baseline";
  removed.threshold = 0.1;
  removed.baseline = SampleSummary{30, 2593.0, "ns", ""};

  c.entries = {regressed, same, removed};
  return c;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string strip_ansi(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      i = text.find('m', i);
      continue;
    }
    out += text[i];
  }
  return out;
}

TEST(CompareRender, TableWithoutColour) {
  const std::string table = render(sample_comparison(), CompareFormat::table);
  EXPECT_FALSE(contains(table, "\x1b")) << "no raw escape, not even from the odd name";
  EXPECT_TRUE(contains(table, "Baseline base.json, candidate cand.json\n"));
  EXPECT_TRUE(contains(table, "warning: Driver differs"));
  EXPECT_TRUE(contains(table,
                       "gemm/fp16             1.234 ms   1.360 ms  +10.2%  [+8.1%, +12.3%]"
                       "  3.4e-09         5%  regressed  median 10.2% slower"))
      << table;
  EXPECT_TRUE(contains(table,
                       "odd|<&>\"'\\x1b[31m`*_  812.0 ns   811.0 ns   -0.1%  "
                       "[-1.7%, +3.2%]     0.398         5%  same"))
      << table;
  EXPECT_TRUE(contains(table,
                       "old                   2.593 us          -       -  -          "
                       "            -        10%  removed    only in the baseline\n"))
      << table;
  EXPECT_TRUE(contains(table,
                       "\n1 regressed, 0 improved, 1 same, 0 inconclusive, 0 added, "
                       "1 removed: FAILED\n"))
      << table;
}

TEST(CompareRender, ColourOnlyWhenAskedAndWithoutMovingColumns) {
  const Comparison c = sample_comparison();
  const std::string plain = render(c, CompareFormat::table, false);
  const std::string coloured = render(c, CompareFormat::table, true);
  EXPECT_TRUE(contains(coloured, "\x1b[1;31mregressed\x1b[0m"));
  EXPECT_TRUE(contains(coloured, "\x1b[1;31mFAILED\x1b[0m"));
  EXPECT_EQ(strip_ansi(coloured), plain);
  // Other formats ignore the flag.
  EXPECT_EQ(render(c, CompareFormat::markdown, true), render(c, CompareFormat::markdown, false));
}

TEST(CompareRender, MarkdownEscapesAndFoldsUnchangedEntries) {
  const std::string md = render(sample_comparison(), CompareFormat::markdown);
  EXPECT_EQ(md.rfind("### kerntime compare: failed\n", 0), 0u) << md;
  EXPECT_TRUE(contains(md, "> **Warning:** Driver differs"));
  EXPECT_TRUE(contains(md, "| gemm/fp16 | **regressed** | +10.2% | [+8.1%, +12.3%] | 3.4e-09 |"))
      << md;
  EXPECT_TRUE(contains(md, "<details><summary>1 entry is the same</summary>"));
  EXPECT_TRUE(contains(md, "| odd\\|\\<\\&\\>\"'\\\\x1b\\[31m\\`\\*\\_ | same |")) << md;
  const std::size_t details = md.find("<details>");
  EXPECT_LT(md.find("| old | **removed** |"), details) << "what needs attention comes first";
  EXPECT_GT(md.find("| odd"), details);
}

TEST(CompareRender, JsonIsValidAndComplete) {
  const std::string text = render(sample_comparison(), CompareFormat::json);
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["schema"], "kerntime-compare/1");
  EXPECT_EQ(j["baseline"], "base.json");
  EXPECT_EQ(j["failed"], true);
  EXPECT_DOUBLE_EQ(j["alpha"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(j["confidence_level"].get<double>(), 0.99);
  EXPECT_EQ(j["summary"]["regressed"], 1);
  EXPECT_EQ(j["summary"]["removed"], 1);
  EXPECT_EQ(j["warnings"].size(), 1u);
  ASSERT_EQ(j["entries"].size(), 3u);
  const auto& e = j["entries"][0];
  EXPECT_EQ(e["name"], "gemm/fp16");
  EXPECT_EQ(e["verdict"], "regressed");
  EXPECT_EQ(e["fails"], true);
  EXPECT_DOUBLE_EQ(e["ratio"].get<double>(), 1.1021);
  EXPECT_DOUBLE_EQ(e["ratio_ci"]["low"].get<double>(), 1.081);
  EXPECT_DOUBLE_EQ(e["p_value"].get<double>(), 3.4e-9);
  EXPECT_EQ(e["test"], "exact");
  EXPECT_EQ(e["baseline"]["count"], 30);
  EXPECT_EQ(e["candidate"]["timer"], "cupti");
  EXPECT_EQ(j["entries"][1]["name"], kOddName);
  EXPECT_TRUE(j["entries"][2]["ratio"].is_null());
  EXPECT_TRUE(j["entries"][2]["candidate"].is_null());
  EXPECT_DOUBLE_EQ(j["entries"][2]["threshold"].get<double>(), 0.1);
}

// Entries of engine reports carry their declared work; each side's rate sits beside its time.
Comparison comparison_with_rates() {
  Comparison c = sample_comparison();
  c.entries[0].baseline->throughput = {4025.6, 16.431, 81.875, std::nullopt};
  c.entries[0].candidate->throughput = {3652.25, 14.9, std::nullopt, std::nullopt};
  c.entries[2].baseline->throughput.tflop_per_s = 0.5;
  return c;
}

// A side whose benchmark declares elements: items per second after the other rates.
Comparison comparison_with_items() {
  Comparison c = sample_comparison();
  c.entries[0].baseline->throughput = {4025.6, std::nullopt, std::nullopt, 1.2906e9};
  c.entries[0].candidate->throughput.elements_per_s = 1.17e9;
  return c;
}

TEST(CompareRender, RatesBesideTheTimesInTheTable) {
  const std::string table = render(comparison_with_rates(), CompareFormat::table);
  EXPECT_TRUE(contains(table,
                       "Entry                 Baseline  Candidate                        "
                       "Baseline rate               Candidate rate  Change"))
      << table;
  EXPECT_TRUE(contains(table,
                       "gemm/fp16             1.234 ms   1.360 ms  4025.6 GB/s (81.9%), 16.431 "
                       "TFLOP/s  3652.2 GB/s, 14.900 TFLOP/s  +10.2%"))
      << table;
  EXPECT_TRUE(contains(table,
                       "old                   2.593 us          -                        "
                       "0.500 TFLOP/s                            -       -"))
      << table;
  // Colour still lands on the change and the verdict when the rate columns are there.
  const std::string coloured = render(comparison_with_rates(), CompareFormat::table, true);
  EXPECT_TRUE(contains(coloured, "\x1b[1;31m+10.2%\x1b[0m")) << coloured;
  EXPECT_EQ(strip_ansi(coloured), table);
}

TEST(CompareRender, NoRateColumnsWithoutRates) {
  EXPECT_FALSE(contains(render(sample_comparison(), CompareFormat::table), "rate"));
  EXPECT_FALSE(contains(render(sample_comparison(), CompareFormat::markdown), "rate"));
}

TEST(CompareRender, RatesInMarkdownAndJson) {
  const std::string md = render(comparison_with_rates(), CompareFormat::markdown);
  EXPECT_TRUE(contains(md, "| Baseline | Candidate | Baseline rate | Candidate rate | Reason |"))
      << md;
  EXPECT_TRUE(contains(md,
                       "| 1.234 ms | 1.360 ms | 4025.6 GB/s (81.9%), 16.431 TFLOP/s | "
                       "3652.2 GB/s, 14.900 TFLOP/s |"))
      << md;
  const nlohmann::json j =
      nlohmann::json::parse(render(comparison_with_rates(), CompareFormat::json));
  const auto& base = j["entries"][0]["baseline"]["throughput"];
  EXPECT_DOUBLE_EQ(base["gb_per_s"].get<double>(), 4025.6);
  EXPECT_DOUBLE_EQ(base["tflop_per_s"].get<double>(), 16.431);
  EXPECT_DOUBLE_EQ(base["peak_bandwidth_percent"].get<double>(), 81.875);
  EXPECT_TRUE(j["entries"][0]["candidate"]["throughput"]["peak_bandwidth_percent"].is_null());
  EXPECT_TRUE(j["entries"][1]["baseline"]["throughput"].is_null());
}

TEST(CompareRender, ItemsPerSecondBesideTheOtherRates) {
  const std::string table = render(comparison_with_items(), CompareFormat::table);
  EXPECT_TRUE(contains(table, "4025.6 GB/s, 1.291G items/s   1.17G items/s  +10.2%")) << table;
  const std::string md = render(comparison_with_items(), CompareFormat::markdown);
  EXPECT_TRUE(contains(md, "| 4025.6 GB/s, 1.291G items/s | 1.17G items/s |")) << md;
  const nlohmann::json j =
      nlohmann::json::parse(render(comparison_with_items(), CompareFormat::json));
  EXPECT_DOUBLE_EQ(j["entries"][0]["baseline"]["throughput"]["elements_per_s"].get<double>(),
                   1.2906e9);
  // Items alone are a rate: the side gets its throughput object.
  const auto& candidate = j["entries"][0]["candidate"]["throughput"];
  EXPECT_DOUBLE_EQ(candidate["elements_per_s"].get<double>(), 1.17e9);
  EXPECT_TRUE(candidate["gb_per_s"].is_null());
  // Without elements the field is there and null.
  const nlohmann::json r =
      nlohmann::json::parse(render(comparison_with_rates(), CompareFormat::json));
  EXPECT_TRUE(r["entries"][0]["baseline"]["throughput"]["elements_per_s"].is_null());
}

TEST(CompareRender, JunitIsWellFormedWithOneCasePerEntry) {
  const std::string xml = render(sample_comparison(), CompareFormat::junit);
  EXPECT_EQ(testing::xml_problem(xml), "") << xml;
  // `skipped` belongs to <testsuite> only (Jenkins' junit-10.xsd rejects it on <testsuites>).
  EXPECT_TRUE(contains(xml, R"(<testsuites name="kerntime compare" tests="3" failures="1" )"
                            R"(errors="0">)"))
      << xml;
  EXPECT_TRUE(contains(xml, R"(tests="3" failures="1" errors="0" skipped="1">)")) << xml;
  // The class is the benchmark's family, the time the candidate's median in seconds.
  EXPECT_TRUE(contains(xml, R"(<testcase name="gemm/fp16" classname="gemm" time=")")) << xml;
  EXPECT_TRUE(contains(xml, R"x(<failure type="regressed" message="regressed: median 10.2% )x"
                            R"x(slower, beyond the 5% threshold; significant (p = 3.4e-09 &lt; )x"
                            R"x(0.01)">)x"))
      << xml;
  EXPECT_TRUE(contains(xml, R"(<testcase name="odd|&lt;&amp;&gt;&quot;&apos;\x1b[31m`*_")")) << xml;
  EXPECT_TRUE(contains(xml, R"(<skipped message="removed: only in the baseline"/>)"));
  EXPECT_TRUE(contains(xml, R"(<property name="warning" value="Driver differs)"));
}

TEST(CompareRender, JunitCheckerRejectsBrokenXml) {
  EXPECT_NE(testing::xml_problem("<a><b></a></b>"), "");
  EXPECT_NE(testing::xml_problem("<a x=\"1 & 2\"/>"), "");
  EXPECT_NE(testing::xml_problem("<a>1 < 2</a>"), "");
  EXPECT_NE(testing::xml_problem("<a/><b/>"), "");
  EXPECT_EQ(testing::xml_problem("<?xml version=\"1.0\"?>\n<a x=\"&lt;\">t&amp;t<b/></a>\n"), "");
}

TEST(CompareRender, EmptyComparison) {
  Comparison c;
  EXPECT_TRUE(contains(render(c, CompareFormat::table), "(no entries)"));
  EXPECT_TRUE(contains(render(c, CompareFormat::markdown), "No entries to compare."));
  EXPECT_EQ(testing::xml_problem(render(c, CompareFormat::junit)), "");
  EXPECT_TRUE(nlohmann::json::parse(render(c, CompareFormat::json))["entries"].empty());
}

TEST(CompareRender, ParsesFormatNames) {
  EXPECT_EQ(parse_compare_format("table"), CompareFormat::table);
  EXPECT_EQ(parse_compare_format("md"), CompareFormat::markdown);
  EXPECT_EQ(parse_compare_format("markdown"), CompareFormat::markdown);
  EXPECT_EQ(parse_compare_format("json"), CompareFormat::json);
  EXPECT_EQ(parse_compare_format("junit"), CompareFormat::junit);
  EXPECT_THROW(parse_compare_format("xml"), Error);
}

}  // namespace
}  // namespace kerntime
