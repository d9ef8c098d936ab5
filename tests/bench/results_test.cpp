// SPDX-License-Identifier: Apache-2.0
// Measurements into the report model, and the runner's views of them.
#include <gtest/gtest.h>

#include <kerntime/benchmark.hpp>
#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/measurement.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/throughput.hpp>

#include "bench/axes.hpp"
#include "bench/sampler.hpp"
#include "fake_source.hpp"
#include "support/readable_text.hpp"
#include "text/numbers.hpp"

namespace kerntime::bench {
namespace {

Measurement sample_measurement(const std::string& name) {
  testing::FakeSource source;
  source.with_cupti = true;
  source.make = [](std::size_t i) {
    RawSample s =
        testing::sample(4800.0 + static_cast<double>(i % 3), 2600.0 + static_cast<double>(i % 2));
    s.sm_clock_mhz = 1980.0;
    return s;
  };
  MeasureOptions options;
  options.name = name;
  options.work = {2.0 * 1024 * 1024, 0.0};
  options.stopping.fixed_samples = 25;
  return run_measurement(source, options, 0, 4916.736);
}

TEST(AddToReport, HeadlineAndEventEntriesWithTheirTimers) {
  Report report;
  const Measurement m = sample_measurement("copy/bytes=1048576/cold");
  add_to_report(report, m);
  ASSERT_EQ(report.entries.size(), 2u);
  const Entry& headline = report.entries[0];
  EXPECT_EQ(headline.name, "copy/bytes=1048576/cold");
  EXPECT_EQ(headline.timer, "cupti-kernel");
  EXPECT_EQ(headline.device, 0);
  EXPECT_EQ(headline.samples.size(), 25u);
  EXPECT_DOUBLE_EQ(headline.samples[1], 2601.0);
  const Entry& events = report.entries[1];
  EXPECT_EQ(events.name, "copy/bytes=1048576/cold/events");
  EXPECT_EQ(events.timer, "cuda-event");
  EXPECT_EQ(events.samples.size(), 25u);
  EXPECT_DOUBLE_EQ(events.samples[2], 4802.0);
  EXPECT_THROW(add_to_report(report, m), Error);
}

TEST(AddToReport, TheHeadlineEntryKeepsHowItWasMeasuredAndTheEventsTwinDoesNot) {
  Report report;
  Measurement m = sample_measurement("copy/bytes=1048576/cold");
  m.info.kernel_fixed_cost_ns = 608.0;
  m.info.kernel_fixed_cost_source = kFixedCostFromTracer;
  m.info.event_floor_ns = 3008.0;
  m.info.invalid_samples = 1;
  m.info.throttled_samples = 2;
  add_to_report(report, m);
  ASSERT_NE(report.entries[0].measurement, nullptr);
  const MeasurementInfo& info = *report.entries[0].measurement;
  EXPECT_EQ(info.mode, "cold");
  EXPECT_EQ(info.stop_reason, "fixed-count");
  EXPECT_EQ(info.stop_detail, m.info.stop_detail);
  EXPECT_FALSE(info.stop_detail.empty());
  EXPECT_EQ(info.warmup_samples, 10u);  // 2, then more up to 10 ms at 1 ms each
  EXPECT_EQ(info.invalid_samples, 1u);
  EXPECT_EQ(info.throttled_samples, 2u);
  EXPECT_EQ(info.batch_size, 1u);
  EXPECT_TRUE(info.l2_flushed);
  EXPECT_TRUE(info.blocking_kernel);
  EXPECT_EQ(info.event_floor_ns, 3008.0);
  EXPECT_EQ(info.kernel_fixed_cost_ns, 608.0);
  EXPECT_EQ(info.kernel_fixed_cost_source, "tracer");
  EXPECT_EQ(info.median_sm_clock_mhz, 1980.0);
  EXPECT_EQ(info.normal_sm_clock_mhz, 1980.0);
  EXPECT_EQ(info.work.bytes, 2.0 * 1024 * 1024);
  EXPECT_EQ(info.peak_bandwidth_gb_per_s, 4916.736);
  ASSERT_TRUE(info.throughput.gb_per_s.has_value());
  // 2 MiB over the CUPTI median of 2600 or 2601 ns.
  EXPECT_NEAR(*info.throughput.gb_per_s, 2.0 * 1024 * 1024 / m.headline.median, 1e-9);
  EXPECT_EQ(info.throughput.peak_bandwidth_percent, m.info.throughput.peak_bandwidth_percent);
  EXPECT_EQ(report.entries[1].measurement, nullptr);
}

TEST(AddToReport, TheHeadlineEntryKeepsTheElementsAndTheCounters) {
  Report report;
  Measurement m = sample_measurement("sort/n=1048576/cold");
  m.info.work.elements = 1048576.0;
  m.info.throughput =
      compute_throughput(m.info.work, m.headline.median, m.info.peak_bandwidth_gb_per_s);
  m.info.counters = {{"segments/s", 32768.0, CounterKind::rate}, {"bytes/elem", 4.0}};
  add_to_report(report, m);
  const MeasurementInfo& info = *report.entries[0].measurement;
  EXPECT_EQ(info.work.elements, 1048576.0);
  ASSERT_TRUE(info.throughput.elements_per_s.has_value());
  EXPECT_DOUBLE_EQ(*info.throughput.elements_per_s, 1048576.0 / m.headline.median * 1e9);
  ASSERT_EQ(info.counters.size(), 2u);
  EXPECT_EQ(info.counters[0].name, "segments/s");
  EXPECT_EQ(info.counters[0].kind, CounterKind::rate);
  EXPECT_EQ(info.counters[1].name, "bytes/elem");
  EXPECT_EQ(info.counters[1].value, 4.0);
  // Through the report's JSON and back, as kerntime report reads the file.
  const Report read = parse_report(to_json(report));
  ASSERT_NE(read.entries[0].measurement, nullptr);
  EXPECT_EQ(read.entries[0].measurement->counters.size(), 2u);
  EXPECT_EQ(read.entries[0].measurement->work.elements, 1048576.0);
}

TEST(AddToReport, WarningsCarryTheName) {
  Report report;
  Measurement m = sample_measurement("spin");
  m.warnings = {"3 of 40 samples ran with the SM clock under 75%"};
  add_to_report(report, m);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_EQ(report.warnings[0], "spin: 3 of 40 samples ran with the SM clock under 75%");
}

TEST(RenderResults, JsonIsTheReportAndReadsBack) {
  Report report;
  const std::vector<Measurement> ms = {sample_measurement("a/cold"), sample_measurement("b/cold")};
  for (const Measurement& m : ms)
    add_to_report(report, m);
  const Report back = parse_report(kerntime::render(ms, report, Format::json), "results");
  ASSERT_EQ(back.entries.size(), 4u);
  EXPECT_EQ(back.entries[2].name, "b/cold");
  EXPECT_EQ(back.entries[2].timer, "cupti-kernel");
  EXPECT_EQ(back.entries[2].samples, report.entries[2].samples);
}

TEST(RenderResults, TableShowsHeadlineSourceThroughputAndStop) {
  Report report;
  const std::vector<Measurement> ms = {sample_measurement("copy/bytes=1048576/cold")};
  add_to_report(report, ms[0]);
  report.warnings.push_back("a warning");
  const std::string table = kerntime::render(ms, report, Format::table);
  for (const char* part : {"Benchmark", "Headline", "copy/bytes=1048576/cold", "2.600 us", "cupti",
                           "4.801 us", "806.6", "16.4%", "1980", "fixed-count", "a warning"}) {
    EXPECT_NE(table.find(part), std::string::npos) << part << "\n" << table;
  }
  const std::string md = kerntime::render(ms, report, Format::markdown);
  EXPECT_EQ(md.rfind("| Benchmark", 0), 0u) << md;
  EXPECT_NE(md.find("| ---"), std::string::npos) << md;
  EXPECT_NE(md.find("- a warning"), std::string::npos) << md;
}

TEST(RenderResults, CsvHasOneRowPerMeasurementInNanoseconds) {
  Report report;
  const std::vector<Measurement> ms = {sample_measurement("x,y/cold")};
  const std::string csv = kerntime::render(ms, report, Format::csv);
  EXPECT_EQ(csv.rfind("name,mode,device,samples,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\"x,y/cold\",cold,0,25,0,0,2600,cupti-kernel,4801,2600,"), std::string::npos)
      << csv;
}

TEST(RenderResults, ItemsPerSecondAndCountersAreColumnsOfTheirOwn) {
  Report report;
  Measurement sort = sample_measurement("sort/cold");  // headline median 2.6 us
  sort.info.work.elements = 1'048'576.0;
  sort.info.throughput = compute_throughput(sort.info.work, sort.headline.median, 0.0);
  sort.info.counters = {{"segments/s", 32'768.0, CounterKind::rate}, {"bytes/elem", 4.0}};
  Measurement copy = sample_measurement("copy/cold");
  copy.info.counters = {{"bytes/elem", 1.0}};
  const std::vector<Measurement> ms = {sort, copy};
  const std::string table = kerntime::render(ms, report, Format::table);
  // 2^20 elements in 2.6 us: 403.3G items/s; 32768 segments: 12.6G per second.
  for (const char* part :
       {"Items/s", "segments/s", "bytes/elem", "403.3G", "12.6G", "fixed-count"}) {
    EXPECT_NE(table.find(part), std::string::npos) << part << "\n" << table;
  }
  // The columns keep their order: the counters before Stop, a missing value a dash.
  const std::size_t header_end = table.find('\n');
  const std::string header = table.substr(0, header_end);
  EXPECT_LT(header.find("TFLOP/s"), header.find("Items/s")) << header;
  EXPECT_LT(header.find("bytes/elem"), header.find("Stop")) << header;
  const std::string csv = kerntime::render(ms, report, Format::csv);
  EXPECT_NE(csv.find(",host_overhead_ns,items_per_s,segments/s,bytes/elem\n"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",4\n"), std::string::npos) << csv;    // sort's bytes/elem
  EXPECT_NE(csv.find(",,,1\n"), std::string::npos) << csv;  // copy: no items, no rate
  // Without elements or counters the table is as before.
  const std::string plain = kerntime::render({copy}, report, Format::table);
  EXPECT_EQ(plain.find("Items/s"), std::string::npos) << plain;
  copy.info.counters.clear();
  EXPECT_EQ(kerntime::render({copy}, report, Format::csv).find("items_per_s"), std::string::npos);
}

TEST(FormatSi, FourDigitsAndAPrefix) {
  EXPECT_EQ(text::format_si(1'234'567.0), "1.235M");
  EXPECT_EQ(text::format_si(2.5e9), "2.5G");
  EXPECT_EQ(text::format_si(512.0), "512");
  EXPECT_EQ(text::format_si(0.25), "0.25");
  EXPECT_EQ(text::format_si(999'960.0), "1M");
  EXPECT_EQ(text::format_si(-4'000.0), "-4k");
}

TEST(StateCounters, AddElementCountAddsAndSetCounterReplaces) {
  Benchmark b{"sort", [](State&) {}};
  const std::vector<Configuration> all = expand(b, {});
  Engine engine;  // never measures here
  State state{all[0], engine, MeasureOptions{}};
  state.add_element_count(100.0);
  state.add_element_count(28.0);
  state.set_counter("segments/s", 4.0, CounterKind::rate);
  state.set_counter("bytes/elem", 2.0);
  state.set_counter("segments/s", 8.0, CounterKind::rate);
  EXPECT_EQ(state.options().work.elements, 128.0);
  ASSERT_EQ(state.options().counters.size(), 2u);
  EXPECT_EQ(state.options().counters[0].value, 8.0);
  EXPECT_EQ(state.options().counters[1].name, "bytes/elem");
}

TEST(RenderResults, AnEmptyMeasurementPrintsDashesNotNan) {
  Report report;
  Measurement m;
  m.name = "all-throttled";
  const std::string table = kerntime::render({m}, report, Format::table);
  EXPECT_EQ(table.find("nan"), std::string::npos) << table;
  EXPECT_NE(table.find("all-throttled"), std::string::npos);
}

// Issue 25: declared work over a denormal median gave "inf" in the GB/s, % peak and Items/s
// columns, a clock of 1e300 MHz 301 digits; the runner's warnings went out unescaped.
TEST(RenderResults, ExtremeValuesAndWarningsStayReadable) {
  Measurement m;
  m.name = "k";
  m.headline_timer = "cupti-kernel";
  m.headline_ns.assign(5, 5e-324);
  m.headline = compute_statistics(m.headline_ns);
  m.events = compute_statistics(std::vector<double>(5, 1e300));
  m.info.median_sm_clock_mhz = 1e300;
  m.info.work = {1e9, 1e12, 1e6};
  m.info.peak_bandwidth_gb_per_s = 4800.0;
  m.info.throughput =
      compute_throughput(m.info.work, m.headline.median, m.info.peak_bandwidth_gb_per_s);
  m.info.counters = {Counter{"segments/s", 32768.0, CounterKind::rate}};
  Report report;
  report.warnings = {"k\u202E\x1b[31m: a warning"};
  for (const Format format : {Format::table, Format::markdown}) {
    const std::string text = kerntime::render({m}, report, format);
    EXPECT_EQ(kerntime::testing::unreadable_part(text), "") << text;
    EXPECT_NE(text.find("4.941e-324 ns"), std::string::npos) << text;
    EXPECT_NE(text.find("1.000e+291 s"), std::string::npos) << text;
    EXPECT_NE(text.find("overflow"), std::string::npos) << text;
    EXPECT_NE(text.find("1.000e+300"), std::string::npos) << text;
    EXPECT_EQ(text.find("\x1b"), std::string::npos) << text;
    EXPECT_EQ(text.find("\u202E"), std::string::npos) << text;
    EXPECT_NE(text.find("u202e"), std::string::npos) << text;
  }
  const std::string csv = kerntime::render({m}, report, Format::csv);
  EXPECT_EQ(kerntime::testing::unreadable_part(csv, false), "") << csv;
}

}  // namespace
}  // namespace kerntime::bench
