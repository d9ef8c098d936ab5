// SPDX-License-Identifier: Apache-2.0
// What to_json() writes: the documented layout, omissions instead of null/NaN, and refusals
// of reports the reader would reject.
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>

#include "report/sample_report.hpp"
#include "support/error_message.hpp"

namespace kerntime {
namespace {

using Json = nlohmann::ordered_json;

std::string error_of(const Report& report) {
  return testing::error_message([&] { to_json(report); });
}

Report one_entry(std::vector<double> samples) {
  Report report;
  report.entries.push_back(Entry{"k", "ns", "", std::nullopt, std::move(samples), {}});
  return report;
}

TEST(ReportJsonWriter, WritesTopLevelFieldsInDocumentedOrder) {
  const std::string text = to_json(testing::sample_report());
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const Json json = Json::parse(text);
  std::vector<std::string> keys;
  for (const auto& item : json.items()) {
    keys.push_back(item.key());
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"schema", "tool", "created", "environment", "warnings",
                                            "entries"}));
  EXPECT_EQ(json["schema"], "kerntime-report/1");
  EXPECT_EQ(json["tool"], (Json{{"name", "kerntime"}, {"version", "0.1.0"}}));
  EXPECT_EQ(json["created"], "2026-11-29T16:10:00Z");
  EXPECT_EQ(json["warnings"].size(), 2u);
}

TEST(ReportJsonWriter, WritesVersionsAsTextAndRaw) {
  const Json env = Json::parse(to_json(testing::sample_report()))["environment"];
  EXPECT_EQ(env["host"], "gpu-node-7");
  EXPECT_EQ(env["driver_version"], "13.0");
  EXPECT_EQ(env["driver_version_raw"], 13000);
  EXPECT_EQ(env["runtime_version"], "12.8");
  EXPECT_EQ(env["runtime_version_raw"], 12080);
}

TEST(ReportJsonWriter, WritesEveryDeviceField) {
  const Json device = Json::parse(to_json(testing::sample_report()))["environment"]["devices"][0];
  EXPECT_EQ(device, (Json{{"index", 0},
                          {"name", "NVIDIA H200"},
                          {"compute_capability_major", 9},
                          {"compute_capability_minor", 0},
                          {"multiprocessor_count", 132},
                          {"total_memory_bytes", 150754820096ULL},
                          {"l2_cache_bytes", 62914560},
                          {"sm_clock_khz", 1980000},
                          {"memory_clock_khz", 3201000},
                          {"memory_bus_width_bits", 6144},
                          {"ecc_enabled", true},
                          {"pci_bus_id", "0000:19:00.0"}}));
}

TEST(ReportJsonWriter, LeavesUnknownEnvironmentOut) {
  const Json json = Json::parse(to_json(Report{}));
  EXPECT_EQ(json["tool"], (Json{{"name", "kerntime"}}));
  EXPECT_FALSE(json.contains("created"));
  EXPECT_EQ(json["environment"], (Json{{"devices", Json::array()}}));
  EXPECT_EQ(json["entries"], Json::array());
  EXPECT_EQ(json["warnings"], Json::array());
}

TEST(ReportJsonWriter, WritesFullStatistics) {
  const Json entry = Json::parse(to_json(testing::sample_report()))["entries"][0];
  EXPECT_EQ(entry["name"], "saxpy");
  EXPECT_EQ(entry["unit"], "ns");
  EXPECT_EQ(entry["timer"], "cuda-event");
  EXPECT_EQ(entry["device"], 0);
  EXPECT_EQ(entry["samples"].size(), 8u);
  const Json& s = entry["statistics"];
  EXPECT_EQ(s["count"], 8);
  EXPECT_EQ(s["median"], 812.0);
  EXPECT_EQ(s["p99"], 829.2175);
  EXPECT_EQ(s["stddev"], 6.807214528928639);
  EXPECT_EQ(s["median_ci"],
            (Json{{"low", 810.0}, {"high", 815.5}, {"level", 0.95}, {"method", "bootstrap"}}));
}

TEST(ReportJsonWriter, OmitsSpreadOfOneSampleAndEverythingOfNone) {
  const Json entries = Json::parse(to_json(testing::sample_report()))["entries"];
  const Json& one = entries[4]["statistics"];
  EXPECT_EQ(one["count"], 1);
  EXPECT_EQ(one["median"], 999.96);
  EXPECT_FALSE(one.contains("stddev"));
  EXPECT_FALSE(one.contains("relative_noise"));
  EXPECT_FALSE(one.contains("median_ci"));
  EXPECT_EQ(entries[5]["statistics"], (Json{{"count", 0}}));
  EXPECT_EQ(entries[5]["samples"], Json::array());
  EXPECT_FALSE(entries[5].contains("device"));
}

TEST(ReportJsonWriter, NeverWritesNullOrNonFiniteNumbers) {
  const std::string text = to_json(testing::sample_report());
  EXPECT_EQ(text.find("null"), std::string::npos);
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  EXPECT_EQ(text.find("Infinity"), std::string::npos);
}

TEST(ReportJsonWriter, WritesShortestExactNumbers) {
  const std::string text = to_json(one_entry({0.1, 812, 1.0 / 3.0}));
  EXPECT_NE(text.find("0.1,"), std::string::npos) << text;
  EXPECT_NE(text.find("812.0,"), std::string::npos) << text;
  EXPECT_NE(text.find("0.3333333333333333\n"), std::string::npos) << text;
}

TEST(ReportJsonWriter, RefusesNonFiniteSamples) {
  EXPECT_EQ(error_of(one_entry({1.0, std::nan("")})),
            "cannot write report: entries[0].samples[1]: expected a finite number, got nan");
  EXPECT_EQ(error_of(one_entry({std::numeric_limits<double>::infinity()})),
            "cannot write report: entries[0].samples[0]: expected a finite number, got inf");
}

TEST(ReportJsonWriter, RefusesNonFiniteStatistics) {
  Report report = one_entry({1.0, 2.0});
  report.entries[0].statistics.count = 2;
  report.entries[0].statistics.stddev = std::nan("");
  EXPECT_EQ(error_of(report),
            "cannot write report: entries[0].statistics.stddev: expected a finite number, got nan");
}

TEST(ReportJsonWriter, RefusesNegativeDurations) {
  EXPECT_EQ(error_of(one_entry({5.0, -1.5})),
            "cannot write report: entries[0].samples[1]: a duration cannot be negative, got -1.5");
}

TEST(ReportJsonWriter, RefusesDuplicateAndEmptyNames) {
  Report report = one_entry({1.0});
  report.entries.push_back(report.entries[0]);
  EXPECT_EQ(error_of(report),
            "cannot write report: entries[1].name: duplicate name \"k\" (also entries[0])");
  report.entries[1].name.clear();
  EXPECT_EQ(error_of(report),
            "cannot write report: entries[1].name: empty; every entry needs a name");
}

TEST(ReportJsonWriter, RefusesOtherUnits) {
  Report report = one_entry({1.0});
  report.entries[0].unit = "us";
  EXPECT_EQ(error_of(report),
            "cannot write report: entries[0].unit: unsupported unit \"us\"; kerntime reports use "
            "\"ns\"");
}

TEST(ReportJsonWriter, ReplacesTextThatIsNotUtf8) {
  // The one JSON string policy (src/io/json_text.hpp): U+FFFD instead of an error.
  Report report = one_entry({1.0});
  report.entries[0].name = "bad\xff";
  report.warnings.push_back("warn\xc3");
  const Report back = parse_report(to_json(report));
  EXPECT_EQ(back.entries[0].name, "bad\xEF\xBF\xBD");
  EXPECT_EQ(back.warnings.back(), "warn\xEF\xBF\xBD");
}

TEST(ReportJsonWriter, RefusesNamesThatBecomeTheSameOnceReplaced) {
  Report report = one_entry({1.0});
  report.entries.push_back(report.entries[0]);
  report.entries[0].name = "k\xff";
  report.entries[1].name = "k\xfe";
  EXPECT_EQ(error_of(report),
            "cannot write report: entries[1].name: duplicate name \"k\xEF\xBF\xBD\" (also "
            "entries[0])");
}

}  // namespace
}  // namespace kerntime
