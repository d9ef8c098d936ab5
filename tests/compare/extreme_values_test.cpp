// SPDX-License-Identifier: Apache-2.0
// Comparisons of medians at the ends of a double (5e-324 ns, 1e300 ns), with one run and with
// several per side: every reason and every format says "too large to compare" where the ratio
// overflows, and never shows "inf", "nan" or hundreds of digits (issue 25, item 8). Names with
// bidirectional controls are escaped in every format (item 9).
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/compare.hpp>
#include <kerntime/measurement_info.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/throughput.hpp>

#include "support/readable_text.hpp"
#include "xml_check.hpp"

namespace kerntime {
namespace {

constexpr double kDenormal = 5e-324;
constexpr double kHuge = 1e300;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// An entry of one run per value in `run_values`, each of `per_run` (odd) samples whose median
// is that value.
Entry entry_of(const std::string& name, const std::vector<double>& run_values,
               std::size_t per_run) {
  Entry entry;
  entry.name = name;
  entry.timer = "cupti-kernel";
  for (const double value : run_values) {
    // A small spread inside each run, so the rank test and the t test see no ties.
    for (std::size_t i = 0; i < per_run; ++i) {
      const double offset = static_cast<double>(i) - static_cast<double>(per_run / 2);
      entry.samples.push_back(value * (1.0 + 0.001 * offset));
    }
    if (run_values.size() > 1) entry.run_sizes.push_back(per_run);
  }
  entry.statistics = compute_statistics(entry.samples);
  return entry;
}

// With declared bytes, so that the rate columns show the rate at a denormal median.
Entry with_work(Entry entry) {
  auto info = std::make_shared<MeasurementInfo>();
  info->work = Work{1e9, 0.0, 1e6};
  info->peak_bandwidth_gb_per_s = 4800.0;
  info->throughput =
      compute_throughput(info->work, entry.statistics.median, info->peak_bandwidth_gb_per_s);
  entry.measurement = std::move(info);
  return entry;
}

Comparison extreme_comparison() {
  Report baseline;
  Report candidate;
  // One run per side: the ratio overflows to infinity, and the other way round to 0.
  baseline.entries.push_back(with_work(entry_of("up", {kDenormal}, 7)));
  candidate.entries.push_back(with_work(entry_of("up", {kHuge}, 7)));
  baseline.entries.push_back(entry_of("down", {kHuge}, 7));
  candidate.entries.push_back(entry_of("down", {kDenormal}, 7));
  // Several runs per side: the run medians' ratio overflows.
  baseline.entries.push_back(entry_of("runs_up", {1000.0, 1010.0, 990.0}, 5));
  candidate.entries.push_back(entry_of("runs_up", {1e300, 1.01e300, 0.99e300}, 5));
  // Runs whose medians spread beyond any percentage, the same on both sides.
  baseline.entries.push_back(entry_of("spread", {1e-300, 1e300}, 5));
  candidate.entries.push_back(entry_of("spread", {1e-300, 1e300}, 5));
  return compare(baseline, candidate);
}

const EntryComparison& entry_named(const Comparison& c, const std::string& name) {
  for (const EntryComparison& e : c.entries) {
    if (e.name == name) return e;
  }
  throw std::runtime_error("no entry " + name);
}

TEST(CompareExtremes, ReasonsSayTooLargeToCompare) {
  const Comparison c = extreme_comparison();
  for (const EntryComparison& e : c.entries) {
    EXPECT_EQ(testing::unreadable_part(e.reason), "") << e.name << ": " << e.reason;
  }
  EXPECT_TRUE(contains(entry_named(c, "up").reason, "median change too large to compare"))
      << entry_named(c, "up").reason;
  // The allowance for a shift between processes stays 400 ns at a denormal median.
  EXPECT_TRUE(contains(entry_named(c, "up").reason, "shift between processes of up to 400 ns"))
      << entry_named(c, "up").reason;
  EXPECT_TRUE(contains(entry_named(c, "down").reason, "median 100.0% faster"))
      << entry_named(c, "down").reason;
  EXPECT_TRUE(contains(entry_named(c, "down").reason, "a 1.500e+289 s (1.5%) shift"))
      << entry_named(c, "down").reason;
  EXPECT_TRUE(contains(entry_named(c, "runs_up").reason, "run median change too large to compare"))
      << entry_named(c, "runs_up").reason;
  EXPECT_TRUE(
      contains(entry_named(c, "spread").reason, "per-process medians spread too large to compare"))
      << entry_named(c, "spread").reason;
}

TEST(CompareExtremes, EveryTextFormatStaysReadable) {
  const Comparison c = extreme_comparison();
  for (const CompareFormat format :
       {CompareFormat::table, CompareFormat::markdown, CompareFormat::junit}) {
    const std::string text = render(c, format);
    EXPECT_EQ(testing::unreadable_part(text), "") << text;
    EXPECT_TRUE(contains(text, "too large to compare")) << text;
    EXPECT_TRUE(contains(text, "4.941e-324 ns")) << text;
    EXPECT_TRUE(contains(text, "1.000e+291 s")) << text;
  }
  const std::string table = render(c, CompareFormat::table);
  // Bytes over a denormal median: the rate overflowed; its % of peak is left out.
  EXPECT_TRUE(contains(table, "GB/s overflow, items/s overflow")) << table;
  EXPECT_TRUE(contains(table, "0.0 GB/s (0.0%), 1e-285 items/s")) << table;
  // The interval of the run medians: neither end fits, so the cell says so once.
  EXPECT_TRUE(contains(table, "too large to compare  too large to compare  <1e-15")) << table;
  EXPECT_EQ(testing::xml_problem(render(c, CompareFormat::junit)), "");
}

// JSON has no infinity: an overflowed ratio or rate is null, and the text stays valid JSON.
TEST(CompareExtremes, JsonStaysValidWithNullForOverflow) {
  const std::string text = render(extreme_comparison(), CompareFormat::json);
  const nlohmann::json j = nlohmann::json::parse(text);
  ASSERT_EQ(j["entries"].size(), 4u);
  EXPECT_EQ(j["entries"][0]["name"], "up");
  EXPECT_TRUE(j["entries"][0]["ratio"].is_null()) << j["entries"][0];
  EXPECT_TRUE(j["entries"][0]["baseline"]["throughput"]["gb_per_s"].is_null());
  EXPECT_DOUBLE_EQ(j["entries"][0]["candidate"]["median"].get<double>(), kHuge);
  EXPECT_DOUBLE_EQ(j["entries"][1]["ratio"].get<double>(), 0.0);
  EXPECT_EQ(testing::unreadable_part(j["entries"][0]["reason"].get<std::string>()), "");
}

// U+202E and its kin in a name reached the table, Markdown and JUnit raw.
TEST(CompareExtremes, BidiControlsInNamesAreEscapedInEveryFormat) {
  const std::string name = "safe\u202Eevil\u2066x\u2069\u0085y\u2028z";
  Report baseline;
  Report candidate;
  baseline.entries.push_back(entry_of(name, {1000.0}, 7));
  candidate.entries.push_back(entry_of(name, {1000.0}, 7));
  const Comparison c = compare(baseline, candidate);
  for (const CompareFormat format :
       {CompareFormat::table, CompareFormat::markdown, CompareFormat::junit}) {
    const std::string text = render(c, format);
    for (const char* raw : {"\u202E", "\u2066", "\u2069", "\u0085", "\u2028"}) {
      EXPECT_FALSE(contains(text, raw)) << text;
    }
  }
  EXPECT_TRUE(contains(render(c, CompareFormat::table),
                       "safe\\u202eevil\\u2066x\\u2069\\u0085y\\u2028z  "));
  EXPECT_TRUE(contains(render(c, CompareFormat::junit),
                       "<testcase name=\"safe\\u202eevil\\u2066x\\u2069\\u0085y\\u2028z\""));
}

}  // namespace
}  // namespace kerntime
