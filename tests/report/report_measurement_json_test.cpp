// SPDX-License-Identifier: Apache-2.0
// An entry's "measurement" object: written and read back field by field, absent where the
// entry has none (so older files and Session reports are unchanged), strict about the types of
// what is present, its rates recomputed rather than trusted, and merged with the runs.
#include <cmath>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/counter.hpp>
#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/statistics.hpp>

#include "support/error_message.hpp"

namespace kerntime {
namespace {

MeasurementInfo full_info() {
  MeasurementInfo info;
  info.mode = "cold";
  info.stop_reason = "stable";
  info.stop_detail = "95% CI of the median within +-0.31% after 812 samples";
  info.warmup_samples = 2;
  info.invalid_samples = 1;
  info.throttled_samples = 3;
  info.batch_size = 1;
  info.l2_flushed = true;
  info.blocking_kernel = false;
  info.event_floor_ns = 3008.0;
  info.kernel_fixed_cost_ns = 608.0;
  info.kernel_fixed_cost_source = kFixedCostFromCache;
  info.median_cupti_sum_ns = 1950.0;
  info.activities_per_call = 3.0;
  info.median_sm_clock_mhz = 1977.5;
  info.normal_sm_clock_mhz = 1980.0;
  info.slowed_samples = 7;
  info.clock_event_reasons = "sw-power-cap,hw-thermal";
  info.median_power_w = 694.5;
  info.work = {2097152.0, 524288.0, 262144.0};
  info.peak_bandwidth_gb_per_s = 4916.736;
  info.counters = {{"segments/s", 8192.0, CounterKind::rate}, {"bytes/elem", -4.5}};
  return info;
}

Report report_with(const MeasurementInfo& info,
                   std::vector<double> samples = {2100.0, 2000.0, 2200.0}) {
  Report report;
  Entry entry;
  entry.name = "copy/bytes=1048576/cold";
  entry.timer = "cupti-kernel";
  entry.device = 0;
  entry.samples = std::move(samples);
  entry.statistics = compute_statistics(entry.samples);
  entry.measurement = std::make_shared<const MeasurementInfo>(info);
  report.entries.push_back(entry);
  return report;
}

std::string error_of(const std::string& measurement) {
  const std::string text = R"({"schema": "kerntime-report/1", "entries": [{"name": "k", )"
                           R"("samples": [1, 2], "measurement": )" +
                           measurement + "}]}";
  return testing::error_message([&] { parse_report(text, "base.json"); });
}

TEST(ReportMeasurementJson, EveryFieldReadsBack) {
  const MeasurementInfo original = full_info();
  const Report read = parse_report(to_json(report_with(original)));
  ASSERT_EQ(read.entries.size(), 1u);
  ASSERT_TRUE(read.entries[0].measurement != nullptr);
  const MeasurementInfo& info = *read.entries[0].measurement;
  EXPECT_EQ(info.mode, "cold");
  EXPECT_EQ(info.stop_reason, "stable");
  EXPECT_EQ(info.stop_detail, original.stop_detail);
  EXPECT_EQ(info.warmup_samples, 2u);
  EXPECT_EQ(info.invalid_samples, 1u);
  EXPECT_EQ(info.throttled_samples, 3u);
  EXPECT_EQ(info.batch_size, 1u);
  EXPECT_TRUE(info.l2_flushed);
  EXPECT_FALSE(info.blocking_kernel);
  EXPECT_EQ(info.event_floor_ns, 3008.0);
  EXPECT_EQ(info.kernel_fixed_cost_ns, 608.0);
  EXPECT_EQ(info.kernel_fixed_cost_source, "cache");
  EXPECT_EQ(info.median_cupti_sum_ns, 1950.0);
  EXPECT_EQ(info.activities_per_call, 3.0);
  EXPECT_EQ(info.median_sm_clock_mhz, 1977.5);
  EXPECT_EQ(info.normal_sm_clock_mhz, 1980.0);
  EXPECT_EQ(info.slowed_samples, 7u);
  EXPECT_EQ(info.clock_event_reasons, "sw-power-cap,hw-thermal");
  EXPECT_EQ(info.median_power_w, 694.5);
  EXPECT_EQ(info.work.bytes, 2097152.0);
  EXPECT_EQ(info.work.flops, 524288.0);
  EXPECT_EQ(info.work.elements, 262144.0);
  EXPECT_EQ(info.peak_bandwidth_gb_per_s, 4916.736);
  ASSERT_EQ(info.counters.size(), 2u);
  EXPECT_EQ(info.counters[0].name, "segments/s");
  EXPECT_EQ(info.counters[0].value, 8192.0);
  EXPECT_EQ(info.counters[0].kind, CounterKind::rate);
  EXPECT_EQ(info.counters[1].name, "bytes/elem");
  EXPECT_EQ(info.counters[1].value, -4.5);  // a counter may be negative
  EXPECT_EQ(info.counters[1].kind, CounterKind::value);
  // The rates at the median of the samples (2100 ns): bytes per ns is GB/s.
  ASSERT_TRUE(info.throughput.gb_per_s.has_value());
  EXPECT_DOUBLE_EQ(*info.throughput.gb_per_s, 2097152.0 / 2100.0);
  ASSERT_TRUE(info.throughput.tflop_per_s.has_value());
  EXPECT_DOUBLE_EQ(*info.throughput.tflop_per_s, 524288.0 / 2100.0 / 1e3);
  ASSERT_TRUE(info.throughput.peak_bandwidth_percent.has_value());
  EXPECT_DOUBLE_EQ(*info.throughput.peak_bandwidth_percent, 100.0 * 2097152.0 / 2100.0 / 4916.736);
  ASSERT_TRUE(info.throughput.elements_per_s.has_value());
  EXPECT_DOUBLE_EQ(*info.throughput.elements_per_s, 262144.0 / 2100.0 * 1e9);
  // Written again, the same text: nothing is lost or changed on the way.
  Report again = read;
  EXPECT_EQ(to_json(again), to_json(parse_report(to_json(again))));
}

TEST(ReportMeasurementJson, TheWrittenObjectHasTheDocumentedLayout) {
  MeasurementInfo info = full_info();
  info.throughput.gb_per_s = 2097152.0 / 2100.0;
  info.throughput.elements_per_s = 262144.0 / 2100.0 * 1e9;
  Report report = report_with(info);
  const std::string text = to_json(report);
  for (const char* key : {"\"measurement\": {",
                          "\"mode\": \"cold\"",
                          "\"stop_reason\": \"stable\"",
                          "\"warmup_samples\": 2",
                          "\"invalid_samples\": 1",
                          "\"throttled_samples\": 3",
                          "\"batch_size\": 1",
                          "\"l2_flushed\": true",
                          "\"blocking_kernel\": false",
                          "\"event_floor_ns\": 3008.0",
                          "\"kernel_fixed_cost_ns\": 608.0",
                          "\"kernel_fixed_cost_source\": \"cache\"",
                          "\"median_cupti_sum_ns\": 1950.0",
                          "\"activities_per_call\": 3.0",
                          "\"median_sm_clock_mhz\": 1977.5",
                          "\"slowed_samples\": 7",
                          "\"clock_event_reasons\": \"sw-power-cap,hw-thermal\"",
                          "\"median_power_w\": 694.5",
                          "\"work\": {",
                          "\"bytes\": 2097152.0",
                          "\"flops\": 524288.0",
                          "\"elements\": 262144.0",
                          "\"throughput\": {",
                          "\"gb_per_s\": ",
                          "\"elements_per_s\": ",
                          "\"peak_bandwidth_gb_per_s\": 4916.736",
                          "\"counters\": [",
                          "\"name\": \"segments/s\"",
                          "\"value\": 8192.0",
                          "\"kind\": \"rate\"",
                          "\"name\": \"bytes/elem\"",
                          "\"value\": -4.5",
                          "\"kind\": \"value\""}) {
    EXPECT_NE(text.find(key), std::string::npos) << key << " missing in\n" << text;
  }
  // After the statistics: a reader that does not know the object skips one trailing member.
  EXPECT_LT(text.find("\"statistics\""), text.find("\"measurement\""));
}

TEST(ReportMeasurementJson, AnEntryWithoutOneIsWrittenAsBefore) {
  Report report = report_with(full_info());
  report.entries[0].measurement = nullptr;
  const std::string text = to_json(report);
  EXPECT_EQ(text.find("measurement"), std::string::npos) << text;
  EXPECT_FALSE(parse_report(text).entries[0].measurement != nullptr);
}

TEST(ReportMeasurementJson, UndeclaredElementsAndCountersAreNotWritten) {
  MeasurementInfo info = full_info();
  info.work.elements = 0.0;
  info.counters.clear();
  const std::string text = to_json(report_with(info));
  EXPECT_EQ(text.find("elements"), std::string::npos) << text;
  EXPECT_EQ(text.find("counters"), std::string::npos) << text;
  const Report parsed = parse_report(text);  // a reference into a temporary would dangle
  const MeasurementInfo& read = *parsed.entries[0].measurement;
  EXPECT_TRUE(read.counters.empty());
  EXPECT_FALSE(read.throughput.elements_per_s.has_value());
}

TEST(ReportMeasurementJson, AFileFromBeforeCountersReadsWithNone) {
  // The object as kerntime wrote it before elements and counters were kept.
  const Report read = parse_report(
      R"({"schema": "kerntime-report/1", "entries": [{"name": "k", "samples": [2000],
          "measurement": {"mode": "cold", "batch_size": 1, "work": {"bytes": 4000},
                          "throughput": {"gb_per_s": 2.0}}}]})");
  const MeasurementInfo& info = *read.entries[0].measurement;
  EXPECT_EQ(info.work.bytes, 4000.0);
  EXPECT_EQ(info.work.elements, 0.0);
  EXPECT_FALSE(info.throughput.elements_per_s.has_value());
  EXPECT_TRUE(info.counters.empty());
}

TEST(ReportMeasurementJson, ACounterWithoutAKindIsAValue) {
  const Report read = parse_report(
      R"({"schema": "kerntime-report/1", "entries": [{"name": "k", "samples": [2000],
          "measurement": {"counters": [{"name": "tile", "value": 128, "later": true}]}}]})");
  const MeasurementInfo& info = *read.entries[0].measurement;
  ASSERT_EQ(info.counters.size(), 1u);
  EXPECT_EQ(info.counters[0].name, "tile");
  EXPECT_EQ(info.counters[0].value, 128.0);
  EXPECT_EQ(info.counters[0].kind, CounterKind::value);
}

TEST(ReportMeasurementJson, CountersAreChecked) {
  EXPECT_EQ(error_of(R"({"counters": {}})"),
            "base.json: entries[0].measurement.counters: expected an array, got an object");
  EXPECT_EQ(error_of(R"({"counters": [5]})"),
            "base.json: entries[0].measurement.counters[0]: expected an object, got 5");
  EXPECT_EQ(error_of(R"({"counters": [{"value": 1}]})"),
            "base.json: entries[0].measurement.counters[0]: a counter needs a \"name\"");
  EXPECT_EQ(error_of(R"({"counters": [{"name": "", "value": 1}]})"),
            "base.json: entries[0].measurement.counters[0].name: expected a non-empty name");
  EXPECT_EQ(error_of(R"({"counters": [{"name": "a"}]})"),
            "base.json: entries[0].measurement.counters[0]: a counter needs a \"value\"");
  EXPECT_EQ(error_of(R"({"counters": [{"name": "a", "value": "1"}]})"),
            "base.json: entries[0].measurement.counters[0].value: expected a finite number, got "
            "\"1\"");
  EXPECT_EQ(error_of(R"({"counters": [{"name": "a", "value": 1, "kind": "average"}]})"),
            "base.json: entries[0].measurement.counters[0].kind: expected \"value\" or "
            "\"rate\", got \"average\"");
  EXPECT_EQ(error_of(R"({"counters": [{"name": "a", "value": 1}, {"name": "a", "value": 2}]})"),
            "base.json: entries[0].measurement.counters[1].name: a second counter named \"a\"");
  EXPECT_EQ(error_of(R"({"work": {"elements": -1}})"),
            "base.json: entries[0].measurement.work.elements: expected a finite number >= 0, "
            "got -1");
}

TEST(ReportMeasurementJson, AnEmptyObjectReadsAsDefaultsAndUnknownFieldsAreIgnored) {
  const Report read = parse_report(
      R"({"schema": "kerntime-report/1", "entries": [{"name": "k", "samples": [5],
          "measurement": {"stop_reason": "entropy", "a_later_field": [1, 2]}}]})");
  ASSERT_TRUE(read.entries[0].measurement != nullptr);
  const MeasurementInfo& info = *read.entries[0].measurement;
  EXPECT_EQ(info.stop_reason, "entropy");  // a reason a later kerntime adds is kept
  EXPECT_EQ(info.mode, "");
  EXPECT_EQ(info.batch_size, 1u);
  EXPECT_TRUE(info.blocking_kernel);
  EXPECT_FALSE(info.kernel_fixed_cost_ns.has_value());
  EXPECT_FALSE(info.throughput.gb_per_s.has_value());
}

TEST(ReportMeasurementJson, RatesInTheFileAreRecomputedFromTheSamples) {
  const Report read = parse_report(
      R"({"schema": "kerntime-report/1", "entries": [{"name": "k", "samples": [1000, 3000, 2000],
          "measurement": {"work": {"bytes": 4000}, "peak_bandwidth_gb_per_s": 8,
                          "throughput": {"gb_per_s": 99999, "tflop_per_s": 5}}}]})");
  const MeasurementInfo& info = *read.entries[0].measurement;
  EXPECT_EQ(info.throughput.gb_per_s, 2.0);  // 4000 bytes in the median's 2000 ns
  EXPECT_EQ(info.throughput.peak_bandwidth_percent, 25.0);
  EXPECT_FALSE(info.throughput.tflop_per_s.has_value());  // no flops declared
}

TEST(ReportMeasurementJson, PresentFieldsAreTypeChecked) {
  EXPECT_EQ(error_of("[]"), "base.json: entries[0].measurement: expected an object, got an array");
  EXPECT_EQ(error_of(R"({"mode": 3})"),
            "base.json: entries[0].measurement.mode: expected a string, got 3");
  EXPECT_EQ(error_of(R"({"invalid_samples": -1})"),
            "base.json: entries[0].measurement.invalid_samples: expected a non-negative "
            "integer, got -1");
  EXPECT_EQ(error_of(R"({"batch_size": 0})"),
            "base.json: entries[0].measurement.batch_size: expected at least 1 call per sample");
  EXPECT_EQ(error_of(R"({"l2_flushed": "yes"})"),
            "base.json: entries[0].measurement.l2_flushed: expected true or false, got \"yes\"");
  EXPECT_EQ(error_of(R"({"event_floor_ns": -5})"),
            "base.json: entries[0].measurement.event_floor_ns: expected a finite number >= 0, "
            "got -5");
  EXPECT_EQ(error_of(R"({"work": {"bytes": "many"}})"),
            "base.json: entries[0].measurement.work.bytes: expected a finite number >= 0, got "
            "\"many\"");
  EXPECT_EQ(error_of(R"({"work": 5})"),
            "base.json: entries[0].measurement.work: expected an object, got 5");
  EXPECT_EQ(error_of(R"({"throughput": []})"),
            "base.json: entries[0].measurement.throughput: expected an object, got an array");
}

// What writing a report with `info` throws, or "written".
std::string write_error(const MeasurementInfo& info) {
  try {
    to_json(report_with(info));
  } catch (const Error& e) {
    return e.what();
  }
  return "written";
}

bool starts_with(const std::string& text, const std::string& start) {
  return text.rfind(start, 0) == 0;
}

TEST(ReportMeasurementJson, TheWriterRefusesWhatTheReaderWould) {
  MeasurementInfo info = full_info();
  info.event_floor_ns = std::nan("");
  std::string error = write_error(info);
  EXPECT_TRUE(starts_with(error,
                          "cannot write report: entries[0].measurement.event_floor_ns: expected a "
                          "finite number >= 0"))
      << error;
  info = full_info();
  info.work.bytes = -1.0;
  EXPECT_TRUE(starts_with(write_error(info), "cannot write report: "));
  info = full_info();
  info.counters[1].value = std::nan("");
  error = write_error(info);
  EXPECT_TRUE(starts_with(error,
                          "cannot write report: entries[0].measurement.counters[1].value: "
                          "expected a finite number"))
      << error;
  info = full_info();
  info.counters[0].name.clear();
  EXPECT_EQ(write_error(info),
            "cannot write report: entries[0].measurement.counters[0].name: expected a non-empty "
            "name");
}

TEST(ReportMeasurementJson, MergedRunsSumTheirExclusionsAndRateTheMergedMedian) {
  MeasurementInfo first = full_info();
  first.stop_reason = "stable";
  first.median_sm_clock_mhz = 1970.0;
  MeasurementInfo second = full_info();
  second.stop_reason = "timeout";
  second.stop_detail = "5 s passed";
  second.invalid_samples = 4;
  second.median_sm_clock_mhz = 1980.0;
  second.median_cupti_sum_ns = 2050.0;
  second.event_floor_ns = 3010.0;
  second.l2_flushed = false;
  second.counters = {{"tile", 64.0}};
  second.slowed_samples = 2;
  second.clock_event_reasons = "hw-slowdown,sw-power-cap";
  second.median_power_w = 600.5;
  const Report merged = merge_reports(
      {report_with(first, {1000.0, 1000.0}), report_with(second, {3000.0, 3000.0})}, {"a", "b"});
  ASSERT_EQ(merged.entries.size(), 1u);
  ASSERT_TRUE(merged.entries[0].measurement != nullptr);
  const MeasurementInfo& info = *merged.entries[0].measurement;
  EXPECT_EQ(info.invalid_samples, 5u);
  EXPECT_EQ(info.throttled_samples, 6u);
  EXPECT_EQ(info.stop_reason, "timeout");
  EXPECT_EQ(info.stop_detail, "5 s passed");
  EXPECT_FALSE(info.l2_flushed);
  EXPECT_EQ(info.median_sm_clock_mhz, 1975.0);
  EXPECT_EQ(info.median_cupti_sum_ns, 2000.0);  // the median of the runs'
  EXPECT_EQ(info.activities_per_call, 3.0);
  EXPECT_EQ(info.event_floor_ns, 3009.0);
  EXPECT_EQ(info.kernel_fixed_cost_ns, 608.0);
  // NVML's: slowed samples add up, each reason named once, the runs' median power.
  EXPECT_EQ(info.slowed_samples, 9u);
  EXPECT_EQ(info.clock_event_reasons, "sw-power-cap,hw-thermal,hw-slowdown");
  EXPECT_EQ(info.median_power_w, 647.5);
  // The merged median is 2000 ns.
  EXPECT_EQ(info.throughput.gb_per_s, 2097152.0 / 2000.0);
  EXPECT_EQ(info.throughput.elements_per_s, 262144.0 / 2000.0 * 1e9);
  ASSERT_EQ(info.counters.size(), 2u);  // the first run's, as its other settings
  EXPECT_EQ(info.counters[0].name, "segments/s");
}

TEST(ReportMeasurementJson, MergingWithAReportWithoutOneKeepsTheKnownRun) {
  Report plain = report_with(full_info(), {4000.0});
  plain.entries[0].measurement = nullptr;
  const Report merged =
      merge_reports({plain, report_with(full_info(), {1000.0, 3000.0})}, {"a", "b"});
  ASSERT_TRUE(merged.entries[0].measurement != nullptr);
  EXPECT_EQ(merged.entries[0].measurement->invalid_samples, 1u);
  const Report none = merge_reports({plain, plain}, {"a", "b"});
  EXPECT_FALSE(none.entries[0].measurement != nullptr);
}

}  // namespace
}  // namespace kerntime
