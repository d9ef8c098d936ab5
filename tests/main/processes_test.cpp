// SPDX-License-Identifier: Apache-2.0
// --processes without a GPU: the child's command line, the interleaving order, the merge of the
// children's reports into runs, the results file, and children that fail (a fake child).
#include "main/processes.hpp"

#include <algorithm>
#include <csignal>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/measurement.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/statistics.hpp>

#include "main/process_runs.hpp"
#include "main/repetitions.hpp"
#include "main/run_order.hpp"
#include "main/runner_options.hpp"
#include "main/worker_results.hpp"
#include "support/run_command.hpp"

namespace kerntime::main {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Entry entry(const std::string& name, std::vector<double> samples,
            const std::string& timer = "cupti-kernel") {
  Entry e;
  e.name = name;
  e.timer = timer;
  e.samples = std::move(samples);
  return e;
}

TEST(Processes, TheDefaultIsFiveAndOneMeansThisProcess) {
  const char* defaults[] = {"bench"};
  EXPECT_EQ(parse_runner_arguments(1, defaults).options.processes, 5u);
  const char* one[] = {"bench", "--processes", "1"};
  const ParsedArguments parsed = parse_runner_arguments(3, one);
  ASSERT_FALSE(parsed.exit_status) << parsed.err;
  EXPECT_EQ(parsed.options.processes, 1u);
  EXPECT_FALSE(parsed.options.worker);
}

TEST(Processes, ZeroProcessesIsABadArgument) {
  const char* args[] = {"bench", "--processes", "0"};
  const ParsedArguments parsed = parse_runner_arguments(3, args);
  ASSERT_TRUE(parsed.exit_status);
  EXPECT_EQ(*parsed.exit_status, 2);
  EXPECT_TRUE(contains(parsed.err, "--processes")) << parsed.err;
}

TEST(Processes, TheWorkerOptionsAreHiddenFromHelp) {
  const char* args[] = {"bench", "--help"};
  const ParsedArguments parsed = parse_runner_arguments(2, args);
  EXPECT_TRUE(contains(parsed.out, "--processes")) << parsed.out;
  EXPECT_FALSE(contains(parsed.out, "kerntime-worker")) << parsed.out;
}

TEST(Processes, AChildGetsTheParentsArgumentsAndItsShareOfTheTimeout) {
  const char* argv[] = {"./bench", "--filter", "spin", "--processes", "4", "--timeout", "2"};
  const std::vector<std::string> child = worker_arguments(7, argv, 3, "/tmp/x/process-4.json");
  const std::vector<std::string> expected = {"./bench",
                                             "--filter",
                                             "spin",
                                             "--processes",
                                             "4",
                                             "--timeout",
                                             "2",
                                             "--kerntime-worker=3",
                                             "--kerntime-worker-output=/tmp/x/process-4.json"};
  EXPECT_EQ(child, expected);

  std::vector<const char*> child_argv;
  for (const std::string& a : child)
    child_argv.push_back(a.c_str());
  const ParsedArguments parsed =
      parse_runner_arguments(static_cast<int>(child_argv.size()), child_argv.data());
  ASSERT_FALSE(parsed.exit_status) << parsed.err;
  ASSERT_TRUE(parsed.options.worker);
  EXPECT_EQ(*parsed.options.worker, 3u);
  EXPECT_EQ(parsed.options.worker_output, "/tmp/x/process-4.json");
  EXPECT_EQ(parsed.options.selection.filter, "spin");
  EXPECT_DOUBLE_EQ(parsed.options.stopping.timeout_s, 0.5);  // 2 s over 4 processes
}

TEST(Processes, AWorkerNumberOutsideTheProcessesIsRefused) {
  const char* args[] = {"bench", "--processes", "2", "--kerntime-worker=2",
                        "--kerntime-worker-output=x.json"};
  const ParsedArguments parsed = parse_runner_arguments(5, args);
  ASSERT_TRUE(parsed.exit_status);
  EXPECT_EQ(*parsed.exit_status, 2);
}

TEST(Processes, EachChildRunsTheConfigurationsInItsOwnRotation) {
  EXPECT_EQ(process_order(4, 0, 2), (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_EQ(process_order(4, 1, 2), (std::vector<std::size_t>{2, 3, 0, 1}));
  EXPECT_EQ(process_order(5, 2, 5), (std::vector<std::size_t>{2, 3, 4, 0, 1}));
  EXPECT_TRUE(process_order(0, 1, 3).empty());
  // 22 configurations over 5 processes: every order is a permutation, and each child starts
  // somewhere else, so no configuration is always first (or always last).
  std::set<std::size_t> firsts;
  for (std::size_t k = 0; k < 5; ++k) {
    std::vector<std::size_t> order = process_order(22, k, 5);
    firsts.insert(order.front());
    std::sort(order.begin(), order.end());
    for (std::size_t i = 0; i < order.size(); ++i)
      EXPECT_EQ(order[i], i);
  }
  EXPECT_EQ(firsts.size(), 5u);
  // More processes than configurations: still every one a permutation.
  EXPECT_EQ(process_order(2, 3, 5), (std::vector<std::size_t>{1, 0}));
}

TEST(RunOrder, WithoutASeedRepetitionsFollowEachRotatedConfiguration) {
  const std::vector<PlannedRun> order = run_order(3, 2, 1, 3, std::nullopt);
  const std::vector<PlannedRun> expected = {{1, 0}, {1, 1}, {2, 0}, {2, 1}, {0, 0}, {0, 1}};
  EXPECT_EQ(order, expected);
}

TEST(RunOrder, ASeedShufflesEveryRepetitionOfEveryConfigurationReproducibly) {
  const std::vector<PlannedRun> a = run_order(6, 3, 0, 1, 7);
  ASSERT_EQ(a.size(), 18u);
  EXPECT_EQ(run_order(6, 3, 0, 1, 7), a);  // the same seed, the same order
  EXPECT_NE(run_order(6, 3, 0, 1, 8), a);
  EXPECT_NE(run_order(6, 3, 1, 2, 7), a);  // each process a seed of its own
  // Every pair once; repetitions numbered in the order they come.
  std::vector<std::size_t> seen(6, 0);
  for (const PlannedRun& run : a) {
    EXPECT_EQ(run.repetition, seen[run.task]);
    ++seen[run.task];
  }
  EXPECT_EQ(seen, std::vector<std::size_t>(6, 3));
  // Not the unshuffled order: with 18! orders a seed that keeps it is not worth a test.
  EXPECT_NE(a, run_order(6, 3, 0, 1, std::nullopt));
}

TEST(RunOrder, ShufflesAreUniformOverPositions) {
  // 4 configurations, one repetition: over 4000 seeds each lands first about 1000 times (a
  // biased shuffle, such as swapping with any index, would favour some).
  std::vector<int> first(4, 0);
  for (std::uint64_t seed = 0; seed < 4000; ++seed)
    ++first[run_order(4, 1, 0, 1, seed).front().task];
  for (int count : first) {
    EXPECT_GT(count, 880);
    EXPECT_LT(count, 1120);
  }
}

Report runner_merge(const std::vector<Report>& reports) {
  return merge_reports(reports, {}, kRunnerMerge);
}

TEST(RunnerMerge, EachReportBecomesARunOfEachEntry) {
  Report a;
  a.environment.host_name = "first";
  a.entries = {entry("x", {1, 2}), entry("y", {10})};
  a.warnings = {"same", "only a"};
  Report b;
  b.environment.host_name = "second";
  b.entries = {entry("x", {3, 4, 5}), entry("y", {20, 30})};
  b.warnings = {"same"};
  const Report merged = runner_merge({a, b});
  ASSERT_EQ(merged.entries.size(), 2u);
  EXPECT_EQ(merged.entries[0].samples, (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_EQ(merged.entries[0].run_sizes, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(merged.entries[0].statistics.count, 5u);
  EXPECT_DOUBLE_EQ(merged.entries[0].statistics.median, 3.0);
  EXPECT_EQ(merged.entries[1].run_sizes, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(merged.environment.host_name, "first");
  EXPECT_EQ(merged.warnings, (std::vector<std::string>{"same", "only a"}));
}

TEST(RunnerMerge, OneReportIsOneRunAndKeepsItsEntries) {
  Report a;
  a.entries = {entry("x", {1, 2, 3})};
  const Report merged = runner_merge({a});
  ASSERT_EQ(merged.entries.size(), 1u);
  EXPECT_TRUE(merged.entries[0].run_sizes.empty());
  EXPECT_EQ(merged.entries[0].samples.size(), 3u);
  EXPECT_TRUE(runner_merge({}).entries.empty());
}

TEST(RunnerMerge, AnEntryMissingFromARunKeepsItsPlaceAndFewerRuns) {
  Report a;  // "y" failed in the first process
  a.entries = {entry("x", {1}), entry("z", {5})};
  Report b;
  b.entries = {entry("x", {2}), entry("y", {3}), entry("z", {6})};
  const Report merged = runner_merge({a, b});
  ASSERT_EQ(merged.entries.size(), 3u);
  EXPECT_EQ(merged.entries[0].name, "x");
  EXPECT_EQ(merged.entries[1].name, "y");
  EXPECT_EQ(merged.entries[2].name, "z");
  EXPECT_TRUE(merged.entries[1].run_sizes.empty());  // one run
  EXPECT_EQ(merged.entries[2].run_sizes, (std::vector<std::size_t>{1, 1}));
}

TEST(RunnerMerge, RunsOfAnotherTimerAreLeftOutWithAWarning) {
  Report a;
  a.entries = {entry("x", {1, 2})};
  Report b;
  b.entries = {entry("x", {3}, "cuda-event-corrected")};
  const Report merged = runner_merge({a, b});
  ASSERT_EQ(merged.entries.size(), 1u);
  EXPECT_EQ(merged.entries[0].samples.size(), 2u);
  ASSERT_EQ(merged.warnings.size(), 1u);
  EXPECT_TRUE(contains(merged.warnings[0],
                       "report 2: entry \"x\" was measured in unit 'ns' "
                       "with timer 'cuda-event-corrected', but in report 1"))
      << merged.warnings[0];
  EXPECT_TRUE(contains(merged.warnings[0], "its samples are left out")) << merged.warnings[0];
  // `kerntime report` refuses the same reports: a person chose them.
  EXPECT_THROW(merge_reports({a, b}), Error);
}

TEST(RunnerMerge, AnEntryWithoutSamplesAddsNoRun) {
  Report a;  // every sample of "x" was throttled in the first process
  a.entries = {entry("x", {})};
  Report b;
  b.entries = {entry("x", {4, 5})};
  const Report merged = runner_merge({a, b});
  ASSERT_EQ(merged.entries.size(), 1u);
  EXPECT_EQ(merged.entries[0].samples, (std::vector<double>{4, 5}));
  EXPECT_TRUE(merged.entries[0].run_sizes.empty());  // one run
  EXPECT_TRUE(merged.warnings.empty());
  EXPECT_THROW(merge_reports({a, b}), Error);
}

TEST(RunnerMerge, RunsAlreadyMergedStayRuns) {
  Report a;
  a.entries = {entry("x", {1, 2, 3})};
  a.entries[0].run_sizes = {1, 2};
  Report b;
  b.entries = {entry("x", {4})};
  EXPECT_EQ(runner_merge({a, b}).entries[0].run_sizes, (std::vector<std::size_t>{1, 2, 1}));
}

TEST(WorkerResults, TheFileRoundTripsTheReport) {
  WorkerResults results;
  Measurement m;
  m.name = "spin/ns=2000/cold";
  m.device = 1;
  m.headline_timer = "cupti-kernel";
  m.headline_ns = {2528, 2560};
  m.headline = compute_statistics(m.headline_ns);
  m.info.mode = "hot";
  m.info.work = {3000.0, 20.0, 750.0};
  m.info.counters = {{"segments/s", 32.0, CounterKind::rate}, {"bytes/elem", 4.0}};
  m.info.batch_size = 64;
  m.info.throttled_samples = 2;
  m.info.median_sm_clock_mhz = 1980.0;
  m.info.stop_reason = "max-samples";
  m.info.stop_detail = "cap";
  m.info.wall_time_s = 0.25;
  m.info.host_overhead_ns = 900.0;
  add_to_report(results.report, m);
  results.report.warnings = {"w"};
  results.running = "copy/bytes=1048576/cold";
  const WorkerResults back = parse_worker_results(worker_results_json(results), "f.json");
  EXPECT_EQ(back.running, results.running);
  ASSERT_EQ(back.report.entries.size(), 2u);
  EXPECT_EQ(back.report.entries[0].samples, m.headline_ns);
  EXPECT_EQ(back.report.warnings, results.report.warnings);
  const std::vector<Measurement> read = measurements_of(back.report);
  ASSERT_EQ(read.size(), 1u);
  const Measurement& b = read[0];
  EXPECT_EQ(b.name, m.name);
  EXPECT_EQ(b.device, 1);
  EXPECT_EQ(b.info.mode, "hot");
  EXPECT_EQ(b.info.work.bytes, 3000.0);
  EXPECT_EQ(b.info.work.elements, 750.0);
  ASSERT_EQ(b.info.counters.size(), 2u);
  EXPECT_EQ(b.info.counters[0].name, "segments/s");
  EXPECT_EQ(b.info.counters[0].kind, CounterKind::rate);
  EXPECT_EQ(b.info.counters[1].kind, CounterKind::value);
  EXPECT_EQ(b.info.batch_size, 64u);
  EXPECT_EQ(b.info.throttled_samples, 2u);
  EXPECT_EQ(b.info.median_sm_clock_mhz, 1980.0);
  EXPECT_EQ(b.info.stop_reason, "max-samples");
  EXPECT_EQ(b.info.wall_time_s, 0.25);
  EXPECT_EQ(b.info.host_overhead_ns, 900.0);
  EXPECT_TRUE(b.cupti.has_value());  // a CUPTI headline
  EXPECT_THROW(parse_worker_results("{}", "f.json"), Error);
  EXPECT_THROW(parse_worker_results("not json", "f.json"), Error);
}

// A measurement of "x/cold" as a process of the runner leaves it, in its report.
Report process_report(const std::vector<double>& ns, const std::string& stop, double clock,
                      const std::string& created) {
  Measurement m;
  m.name = "x/cold";
  m.headline_timer = "cupti-kernel";
  m.headline_ns = ns;
  m.headline = compute_statistics(ns);
  std::vector<double> events;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    SampleRecord sample;
    sample.event_ns = 300.0;
    sample.cupti_ns = ns[i];
    m.samples.push_back(sample);
    events.push_back(sample.event_ns);
  }
  m.events = compute_statistics(events);
  m.info.work.bytes = 2000.0;
  m.info.stop_reason = stop;
  m.info.stop_detail = stop == "timeout" ? "timed out" : "";
  m.info.wall_time_s = 1.0;
  m.info.throttled_samples = 1;
  m.info.median_sm_clock_mhz = clock;
  Report report;
  add_to_report(report, m);
  report.environment.created_utc = created;
  return report;
}

TEST(WorkerResults, TheMergedReportGivesTheRunnersMeasurements) {
  const Report merged = runner_merge({process_report({100, 100}, "stable", 1900.0, "t1"),
                                      process_report({200, 200, 200}, "timeout", 1980.0, "t2")});
  const std::vector<Measurement> read = measurements_of(merged);
  ASSERT_EQ(read.size(), 1u);
  const Measurement& c = read[0];
  EXPECT_EQ(c.headline.count, 5u);
  EXPECT_EQ(c.headline.median, 200.0);
  EXPECT_EQ(c.headline_ns.size(), 5u);
  EXPECT_EQ(c.events.median, 300.0);
  EXPECT_EQ(c.info.stop_reason, "timeout");
  EXPECT_EQ(c.info.stop_detail, "timed out");
  EXPECT_EQ(c.info.wall_time_s, 2.0);
  EXPECT_EQ(c.info.throttled_samples, 2u);
  EXPECT_EQ(c.info.median_sm_clock_mhz, 1940.0);
  ASSERT_TRUE(c.info.throughput.gb_per_s);
  EXPECT_DOUBLE_EQ(*c.info.throughput.gb_per_s, 10.0);  // 2000 bytes in 200 ns
  EXPECT_FALSE(c.median_ci_half_width);                 // under 8 samples
}

// The runner's merge of its processes and `kerntime report a.json b.json c.json` over the reports
// of the same processes give the same figures: one merge (report/), where the runner once kept
// the first process's floor, fixed cost and L2 flag, and the report merge their medians and AND.
TEST(WorkerResults, TheRunnerAndAReportMergeAgreeOnEveryMeasurementFigure) {
  std::vector<Report> reports(3);
  const double floors[] = {2'900.0, 3'100.0, 3'000.0};
  const std::optional<double> fixed[] = {std::nullopt, 1'200.0, 1'100.0};
  const bool flushed[] = {true, false, true};
  for (std::size_t p = 0; p < 3; ++p) {
    Measurement m;
    m.name = "x/cold";
    m.headline_timer = "cuda-event-corrected";
    m.headline_ns = {100.0 + p, 110.0 + p, 120.0 + p};
    m.headline = compute_statistics(m.headline_ns);
    for (const double ns : m.headline_ns) {
      SampleRecord sample;
      sample.event_ns = ns + 3'000.0;
      m.samples.push_back(sample);
    }
    m.info.stop_reason = p == 1 ? "max-samples" : "stable";
    m.info.event_floor_ns = floors[p];
    m.info.kernel_fixed_cost_ns = fixed[p];
    m.info.kernel_fixed_cost_source = fixed[p] ? "borrowed-cupti" : "";
    m.info.l2_flushed = flushed[p];
    m.info.median_sm_clock_mhz = 1'900.0 + 10.0 * static_cast<double>(p);
    m.info.invalid_samples = p;
    m.info.wall_time_s = 0.5 + static_cast<double>(p);
    m.info.host_overhead_ns = 800.0 + 100.0 * static_cast<double>(p);
    add_to_report(reports[p], m);
    reports[p].environment.created_utc = "t" + std::to_string(p);
  }
  const Report runner = runner_merge(reports);
  const Report files = merge_reports(reports, {"a.json", "b.json", "c.json"});
  ASSERT_EQ(runner.entries.size(), files.entries.size());
  for (std::size_t i = 0; i < runner.entries.size(); ++i) {
    SCOPED_TRACE(runner.entries[i].name);
    EXPECT_EQ(runner.entries[i].samples, files.entries[i].samples);
    EXPECT_EQ(runner.entries[i].run_sizes, files.entries[i].run_sizes);
  }
  // Every figure, as the report file writes it: the same text.
  Report runner_entries;
  runner_entries.entries = runner.entries;
  Report file_entries;
  file_entries.entries = files.entries;
  EXPECT_EQ(to_json(runner_entries), to_json(file_entries));
  const MeasurementInfo& merged = *runner.find("x/cold")->measurement;
  EXPECT_EQ(merged.event_floor_ns, 3'000.0);
  EXPECT_EQ(merged.kernel_fixed_cost_ns, 1'150.0);
  EXPECT_EQ(merged.kernel_fixed_cost_source, "borrowed-cupti");
  EXPECT_FALSE(merged.l2_flushed);
  EXPECT_EQ(merged.stop_reason, "max-samples");
  EXPECT_EQ(merged.invalid_samples, 3u);
  EXPECT_EQ(merged.wall_time_s, 4.5);
  EXPECT_EQ(merged.host_overhead_ns, 900.0);
  // And the rows the runner prints are those of the merged report.
  const std::vector<Measurement> rows = measurements_of(runner);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].headline.median, files.find("x/cold")->statistics.median);
  EXPECT_EQ(rows[0].events.median, files.find("x/cold/events")->statistics.median);
}

// A measurement as the engine leaves it: counted samples of `ns` each, events 1 us longer.
Measurement repetition(const std::vector<double>& ns, const std::string& stop,
                       const std::string& warning) {
  Measurement m;
  m.name = "spin/cold";
  m.headline_timer = "cupti-kernel";
  m.info.work.bytes = 4000.0;
  m.info.stop_reason = stop;
  m.info.wall_time_s = 0.5;
  m.warnings = {warning, "shared"};
  for (double v : ns) {
    SampleRecord r;
    r.event_ns = v + 1000.0;
    r.cupti_ns = v;
    m.samples.push_back(r);
    m.headline_ns.push_back(v);
  }
  m.headline = compute_statistics(m.headline_ns);
  std::vector<double> events;
  for (const SampleRecord& r : m.samples)
    events.push_back(r.event_ns);
  m.events = compute_statistics(events);
  m.cupti = m.headline;
  return m;
}

TEST(Repetitions, AreOneMeasurementOfEverySampleInTheOrderTaken) {
  const Measurement c = combine_repetitions({repetition({100, 100, 100}, "stable", "first"),
                                             repetition({300, 300}, "timeout", "second")});
  EXPECT_EQ(c.name, "spin/cold");
  EXPECT_EQ(c.headline_ns, (std::vector<double>{100, 100, 100, 300, 300}));
  EXPECT_EQ(c.headline.count, 5u);
  EXPECT_EQ(c.headline.median, 100.0);
  ASSERT_EQ(c.samples.size(), 5u);
  EXPECT_EQ(c.samples[4].event_ns, 1300.0);
  EXPECT_EQ(c.events.count, 5u);
  EXPECT_EQ(c.info.stop_reason, "timeout");  // the least settled
  EXPECT_DOUBLE_EQ(c.info.wall_time_s, 1.0);
  EXPECT_EQ(c.warnings, (std::vector<std::string>{"first", "shared", "second"}));
  ASSERT_TRUE(c.info.throughput.gb_per_s);
  EXPECT_DOUBLE_EQ(*c.info.throughput.gb_per_s, 40.0);  // 4000 bytes in 100 ns
  // In a report: one run, its events entry the same samples.
  Report report;
  add_to_report(report, c);
  ASSERT_EQ(report.entries.size(), 2u);
  EXPECT_TRUE(report.entries[0].run_sizes.empty());
  EXPECT_EQ(report.entries[1].samples.size(), 5u);
  // One repetition is itself.
  const Measurement one = combine_repetitions({repetition({7}, "stable", "x")});
  EXPECT_EQ(one.headline_ns, (std::vector<double>{7}));
  EXPECT_THROW(combine_repetitions({}), Error);
}

TEST(ProcessExit, DescribesHowAProcessEnded) {
  const int segv = run_process("/bin/sh", {"sh", "-c", "kill -SEGV $$"});
  EXPECT_TRUE(contains(describe_wait_status(segv), "killed by signal 11"))
      << describe_wait_status(segv);
  EXPECT_EQ(exit_status_of(segv), -1);
  const int three = run_process("/bin/sh", {"sh", "-c", "exit 3"});
  EXPECT_EQ(describe_wait_status(three), "exit status 3");
  EXPECT_EQ(exit_status_of(three), 3);
  EXPECT_EQ(describe_wait_status(run_process("/bin/true", {"true"})), "");
  EXPECT_THROW(run_process("/nonexistent/kerntime-child", {"x"}), Error);
}

TEST(ProcessExit, AFailureNamesTheProcessAndTheConfiguration) {
  const int segv = run_process("/bin/sh", {"sh", "-c", "kill -SEGV $$"});
  const auto crashed =
      describe_process_failure(2, 5, segv, std::string{"copy/bytes=1048576/cold"}, "");
  ASSERT_TRUE(crashed);
  EXPECT_TRUE(contains(*crashed, "process 3 of 5 failed (killed by signal 11")) << *crashed;
  EXPECT_TRUE(contains(*crashed, "while measuring copy/bytes=1048576/cold")) << *crashed;
  const int two = run_process("/bin/sh", {"sh", "-c", "exit 2"});
  EXPECT_EQ(describe_process_failure(0, 5, two, std::nullopt, ""),
            "process 1 of 5 failed (exit status 2) before it wrote any results");
  const int one = run_process("/bin/sh", {"sh", "-c", "exit 1"});
  EXPECT_FALSE(describe_process_failure(0, 5, one, std::string{}, ""));  // its warning says it
  const int zero = run_process("/bin/true", {"true"});
  EXPECT_FALSE(describe_process_failure(0, 5, zero, std::string{}, ""));
  EXPECT_EQ(describe_process_failure(0, 5, zero, std::nullopt, ""),
            "process 1 of 5 wrote no results");
}

const std::string fake = KERNTIME_FAKE_WORKER;

ProcessRuns run_fake(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), fake);
  std::vector<const char*> argv;
  for (const std::string& a : arguments)
    argv.push_back(a.c_str());
  return run_processes(fake, static_cast<int>(argv.size()), argv.data(), 3, "fake");
}

TEST(RunProcesses, ThreeChildrenGiveThreeRunsPerEntryInRotatedOrders) {
  const ProcessRuns runs = run_fake({"--processes", "3"});
  EXPECT_EQ(runs.status, 0);
  EXPECT_TRUE(runs.failures.empty());
  ASSERT_EQ(runs.report.entries.size(), 3u);
  for (const Entry& e : runs.report.entries) {
    EXPECT_EQ(e.run_sizes, (std::vector<std::size_t>{2, 3, 4})) << e.name;
    EXPECT_EQ(e.samples, (std::vector<double>{100, 100, 200, 200, 200, 300, 300, 300, 300}));
  }
  EXPECT_EQ(runs.report.entries[0].name, "a/cold");
  EXPECT_EQ(runs.report.entries[2].name, "c/cold");
  EXPECT_EQ(runs.report.environment.host_name, "fake");
  const std::vector<std::string> orders = {"process 1 order: a/cold b/cold c/cold",
                                           "process 2 order: b/cold c/cold a/cold",
                                           "process 3 order: c/cold a/cold b/cold"};
  EXPECT_EQ(runs.report.warnings, orders);
  ASSERT_EQ(runs.measurements.size(), 3u);
  EXPECT_EQ(runs.measurements[0].headline.count, 9u);
  EXPECT_EQ(runs.measurements[0].info.stop_reason, "timeout");  // the least settled
  EXPECT_EQ(runs.measurements[0].info.wall_time_s, 1.5);
}

TEST(RunProcesses, ACrashedChildIsNamedAndTheRunsThatFinishedAreKept) {
  // Process 2 runs b, c, a and dies while measuring c.
  const ProcessRuns runs = run_fake({"--processes", "3", "--crash-process=2", "--crash-at=c/cold"});
  EXPECT_EQ(runs.status, 1);
  ASSERT_EQ(runs.failures.size(), 1u);
  EXPECT_TRUE(contains(runs.failures[0], "process 2 of 3 failed (killed by signal 11"))
      << runs.failures[0];
  EXPECT_TRUE(contains(runs.failures[0], "while measuring c/cold")) << runs.failures[0];
  EXPECT_EQ(runs.report.warnings.back(), runs.failures[0]);
  ASSERT_EQ(runs.report.entries.size(), 3u);
  EXPECT_EQ(runs.report.entries[0].run_sizes, (std::vector<std::size_t>{2, 4}));     // a
  EXPECT_EQ(runs.report.entries[1].run_sizes, (std::vector<std::size_t>{2, 3, 4}));  // b
  EXPECT_EQ(runs.report.entries[2].run_sizes, (std::vector<std::size_t>{2, 4}));     // c
}

TEST(RunProcesses, AChildThatWroteNothingIsNamed) {
  const ProcessRuns runs = run_fake({"--processes", "3", "--crash-process=1", "--exit-early=2"});
  EXPECT_EQ(runs.status, 1);
  ASSERT_EQ(runs.failures.size(), 1u);
  EXPECT_EQ(runs.failures[0], "process 1 of 3 failed (exit status 2) before it wrote any results");
  ASSERT_EQ(runs.report.entries.size(), 3u);
  EXPECT_EQ(runs.report.entries[0].run_sizes, (std::vector<std::size_t>{3, 4}));
}

}  // namespace
}  // namespace kerntime::main
