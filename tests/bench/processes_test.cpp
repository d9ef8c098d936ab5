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
#include <kerntime/report_transforms.hpp>
#include <kerntime/statistics.hpp>

#include "main/merge_runs.hpp"
#include "main/process_runs.hpp"
#include "main/repetitions.hpp"
#include "main/run_order.hpp"
#include "main/runner_options.hpp"
#include "main/worker_results.hpp"
#include "support/run_command.hpp"

namespace kerntime::bench {
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

TEST(MergeRuns, EachReportBecomesARunOfEachEntry) {
  Report a;
  a.environment.host_name = "first";
  a.entries = {entry("x", {1, 2}), entry("y", {10})};
  a.warnings = {"same", "only a"};
  Report b;
  b.environment.host_name = "second";
  b.entries = {entry("x", {3, 4, 5}), entry("y", {20, 30})};
  b.warnings = {"same"};
  const Report merged = merge_runs({a, b});
  ASSERT_EQ(merged.entries.size(), 2u);
  EXPECT_EQ(merged.entries[0].samples, (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_EQ(merged.entries[0].run_sizes, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(merged.entries[0].statistics.count, 5u);
  EXPECT_DOUBLE_EQ(merged.entries[0].statistics.median, 3.0);
  EXPECT_EQ(merged.entries[1].run_sizes, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(merged.environment.host_name, "first");
  EXPECT_EQ(merged.warnings, (std::vector<std::string>{"same", "only a"}));
}

TEST(MergeRuns, OneReportIsOneRunAndKeepsItsEntries) {
  Report a;
  a.entries = {entry("x", {1, 2, 3})};
  const Report merged = merge_runs({a});
  ASSERT_EQ(merged.entries.size(), 1u);
  EXPECT_TRUE(merged.entries[0].run_sizes.empty());
  EXPECT_EQ(merged.entries[0].samples.size(), 3u);
  EXPECT_TRUE(merge_runs({}).entries.empty());
}

TEST(MergeRuns, AnEntryMissingFromARunKeepsItsPlaceAndFewerRuns) {
  Report a;  // "y" failed in the first process
  a.entries = {entry("x", {1}), entry("z", {5})};
  Report b;
  b.entries = {entry("x", {2}), entry("y", {3}), entry("z", {6})};
  const Report merged = merge_runs({a, b});
  ASSERT_EQ(merged.entries.size(), 3u);
  EXPECT_EQ(merged.entries[0].name, "x");
  EXPECT_EQ(merged.entries[1].name, "y");
  EXPECT_EQ(merged.entries[2].name, "z");
  EXPECT_TRUE(merged.entries[1].run_sizes.empty());  // one run
  EXPECT_EQ(merged.entries[2].run_sizes, (std::vector<std::size_t>{1, 1}));
}

TEST(MergeRuns, RunsOfAnotherTimerAreLeftOutWithAWarning) {
  Report a;
  a.entries = {entry("x", {1, 2})};
  Report b;
  b.entries = {entry("x", {3}, "cuda-event-corrected")};
  const Report merged = merge_runs({a, b});
  ASSERT_EQ(merged.entries.size(), 1u);
  EXPECT_EQ(merged.entries[0].samples.size(), 2u);
  ASSERT_EQ(merged.warnings.size(), 1u);
  EXPECT_TRUE(contains(merged.warnings[0], "x: run 2 measured with timer 'cuda-event-corrected'"))
      << merged.warnings[0];
}

TEST(MergeRuns, RunsAlreadyMergedStayRuns) {
  Report a;
  a.entries = {entry("x", {1, 2, 3})};
  a.entries[0].run_sizes = {1, 2};
  Report b;
  b.entries = {entry("x", {4})};
  EXPECT_EQ(merge_runs({a, b}).entries[0].run_sizes, (std::vector<std::size_t>{1, 2, 1}));
}

TEST(WorkerResults, TheFileRoundTrips) {
  WorkerResults results;
  results.report.entries = {entry("spin/ns=2000/cold", {2528, 2560})};
  results.report.warnings = {"w"};
  Measurement m;
  m.name = "spin/ns=2000/cold";
  m.mode = MeasureMode::hot;
  m.device = 1;
  m.headline_timer = "cupti-kernel";
  m.work = {3000.0, 20.0, 750.0};
  m.counters = {{"segments/s", 32.0, CounterKind::rate}, {"bytes/elem", 4.0}};
  m.batch_size = 64;
  m.invalid_samples = 1;
  m.throttled_samples = 2;
  m.median_sm_clock_mhz = 1980.0;
  m.stop_reason = StopReason::max_samples;
  m.stop_detail = "cap";
  m.wall_time_s = 0.25;
  m.cupti = Statistics{};
  results.measurements = {m};
  results.running = "copy/bytes=1048576/cold";
  const WorkerResults back = parse_worker_results(worker_results_json(results), "f.json");
  EXPECT_EQ(back.running, results.running);
  ASSERT_EQ(back.report.entries.size(), 1u);
  EXPECT_EQ(back.report.entries[0].samples, results.report.entries[0].samples);
  EXPECT_EQ(back.report.warnings, results.report.warnings);
  ASSERT_EQ(back.measurements.size(), 1u);
  const Measurement& b = back.measurements[0];
  EXPECT_EQ(b.name, m.name);
  EXPECT_EQ(b.mode, MeasureMode::hot);
  EXPECT_EQ(b.device, 1);
  EXPECT_EQ(b.work.bytes, 3000.0);
  EXPECT_EQ(b.work.elements, 750.0);
  ASSERT_EQ(b.counters.size(), 2u);
  EXPECT_EQ(b.counters[0].name, "segments/s");
  EXPECT_EQ(b.counters[0].value, 32.0);
  EXPECT_EQ(b.counters[0].kind, CounterKind::rate);
  EXPECT_EQ(b.counters[1].kind, CounterKind::value);
  EXPECT_EQ(b.batch_size, 64u);
  EXPECT_EQ(b.throttled_samples, 2u);
  EXPECT_EQ(b.median_sm_clock_mhz, 1980.0);
  EXPECT_EQ(b.stop_reason, StopReason::max_samples);
  EXPECT_TRUE(b.cupti.has_value());
  EXPECT_THROW(parse_worker_results("{}", "f.json"), Error);
  EXPECT_THROW(parse_worker_results("not json", "f.json"), Error);
}

TEST(WorkerResults, MeasurementsCombineOverProcesses) {
  Report merged;
  merged.entries = {entry("x/cold", {100, 100, 200, 200, 200})};
  merged.entries[0].statistics = compute_statistics(merged.entries[0].samples);
  merged.entries.push_back(entry("x/cold/events", {300, 300, 300, 300, 300}, "cuda-event"));
  merged.entries[1].statistics = compute_statistics(merged.entries[1].samples);
  Measurement first;
  first.name = "x/cold";
  first.headline_timer = "cupti-kernel";
  first.work.bytes = 2000.0;
  first.stop_reason = StopReason::stable;
  first.wall_time_s = 1.0;
  first.throttled_samples = 1;
  first.median_sm_clock_mhz = 1900.0;
  Measurement second = first;
  second.stop_reason = StopReason::timeout;
  second.stop_detail = "timed out";
  second.median_sm_clock_mhz = 1980.0;
  const std::vector<Measurement> combined = combine_measurements({{first}, {second}}, merged);
  ASSERT_EQ(combined.size(), 1u);
  const Measurement& c = combined[0];
  EXPECT_EQ(c.headline.count, 5u);
  EXPECT_EQ(c.headline.median, 200.0);
  EXPECT_EQ(c.headline_ns.size(), 5u);
  EXPECT_EQ(c.events.median, 300.0);
  EXPECT_EQ(c.stop_reason, StopReason::timeout);
  EXPECT_EQ(c.stop_detail, "timed out");
  EXPECT_EQ(c.wall_time_s, 2.0);
  EXPECT_EQ(c.throttled_samples, 2u);
  EXPECT_EQ(c.median_sm_clock_mhz, 1940.0);
  ASSERT_TRUE(c.throughput.gb_per_s);
  EXPECT_DOUBLE_EQ(*c.throughput.gb_per_s, 10.0);  // 2000 bytes in 200 ns
}

// The runner's merge of its processes and `kerntime report a.json b.json c.json` over the reports
// of the same processes give the same measurement figures: before, the runner kept the first
// process's floor, fixed cost and L2 flag, and the report merge their medians and AND.
TEST(WorkerResults, TheRunnerAndAReportMergeAgreeOnEveryMeasurementFigure) {
  std::vector<Measurement> processes;
  const double floors[] = {2'900.0, 3'100.0, 3'000.0};
  const std::optional<double> fixed[] = {std::nullopt, 1'200.0, 1'100.0};
  const bool flushed[] = {true, false, true};
  for (int p = 0; p < 3; ++p) {
    Measurement m;
    m.name = "x/cold";
    m.headline_timer = "cuda-event-corrected";
    m.headline_ns = {100.0 + p, 110.0 + p, 120.0 + p};
    m.headline = compute_statistics(m.headline_ns);
    std::vector<double> events;
    for (const double ns : m.headline_ns) {
      SampleRecord sample;
      sample.event_ns = ns + 3'000.0;
      m.samples.push_back(sample);
      events.push_back(sample.event_ns);
    }
    m.events = compute_statistics(events);
    m.stop_reason = p == 1 ? StopReason::max_samples : StopReason::stable;
    m.event_floor_ns = floors[p];
    m.kernel_fixed_cost_ns = fixed[p];
    m.kernel_fixed_cost_source = fixed[p] ? "borrowed-cupti" : "";
    m.l2_flushed = flushed[p];
    m.median_sm_clock_mhz = 1'900.0 + 10.0 * p;
    m.invalid_samples = static_cast<std::size_t>(p);
    processes.push_back(m);
  }
  std::vector<Report> reports(3);
  std::vector<std::vector<Measurement>> per_process;
  for (int p = 0; p < 3; ++p) {
    add_to_report(reports[static_cast<std::size_t>(p)], processes[static_cast<std::size_t>(p)]);
    reports[static_cast<std::size_t>(p)].environment.created_utc = "t" + std::to_string(p);
    per_process.push_back({processes[static_cast<std::size_t>(p)]});
  }
  const Report runner_merged = merge_runs(reports);
  const std::vector<Measurement> combined = combine_measurements(per_process, runner_merged);
  ASSERT_EQ(combined.size(), 1u);
  const MeasurementInfo runner = measurement_info(combined[0]);

  const Report report_merged = merge_reports(reports);
  const Entry* entry = report_merged.find("x/cold");
  ASSERT_NE(entry, nullptr);
  ASSERT_NE(entry->measurement, nullptr);
  const MeasurementInfo& report = *entry->measurement;

  EXPECT_EQ(runner.event_floor_ns, 3'000.0);
  EXPECT_EQ(runner.event_floor_ns, report.event_floor_ns);
  EXPECT_EQ(runner.kernel_fixed_cost_ns, 1'150.0);
  EXPECT_EQ(runner.kernel_fixed_cost_ns, report.kernel_fixed_cost_ns);
  EXPECT_EQ(runner.kernel_fixed_cost_source, "borrowed-cupti");
  EXPECT_EQ(runner.kernel_fixed_cost_source, report.kernel_fixed_cost_source);
  EXPECT_FALSE(runner.l2_flushed);
  EXPECT_EQ(runner.l2_flushed, report.l2_flushed);
  EXPECT_EQ(runner.median_sm_clock_mhz, report.median_sm_clock_mhz);
  EXPECT_EQ(runner.stop_reason, "max-samples");
  EXPECT_EQ(runner.stop_reason, report.stop_reason);
  EXPECT_EQ(runner.invalid_samples, 3u);
  EXPECT_EQ(runner.invalid_samples, report.invalid_samples);
  EXPECT_EQ(runner.throttled_samples, report.throttled_samples);
  EXPECT_EQ(runner.blocking_kernel, report.blocking_kernel);
  EXPECT_EQ(combined[0].headline.median, entry->statistics.median);
}

// A measurement as the engine leaves it: counted samples of `ns` each, events 1 us longer.
Measurement repetition(const std::vector<double>& ns, StopReason stop, const std::string& warning) {
  Measurement m;
  m.name = "spin/cold";
  m.headline_timer = "cupti-kernel";
  m.work.bytes = 4000.0;
  m.stop_reason = stop;
  m.wall_time_s = 0.5;
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
  const Measurement c =
      combine_repetitions({repetition({100, 100, 100}, StopReason::stable, "first"),
                           repetition({300, 300}, StopReason::timeout, "second")});
  EXPECT_EQ(c.name, "spin/cold");
  EXPECT_EQ(c.headline_ns, (std::vector<double>{100, 100, 100, 300, 300}));
  EXPECT_EQ(c.headline.count, 5u);
  EXPECT_EQ(c.headline.median, 100.0);
  ASSERT_EQ(c.samples.size(), 5u);
  EXPECT_EQ(c.samples[4].event_ns, 1300.0);
  EXPECT_EQ(c.events.count, 5u);
  EXPECT_EQ(c.stop_reason, StopReason::timeout);  // the least settled
  EXPECT_DOUBLE_EQ(c.wall_time_s, 1.0);
  EXPECT_EQ(c.warnings, (std::vector<std::string>{"first", "shared", "second"}));
  ASSERT_TRUE(c.throughput.gb_per_s);
  EXPECT_DOUBLE_EQ(*c.throughput.gb_per_s, 40.0);  // 4000 bytes in 100 ns
  // In a report: one run, its events entry the same samples.
  Report report;
  add_to_report(report, c);
  ASSERT_EQ(report.entries.size(), 2u);
  EXPECT_TRUE(report.entries[0].run_sizes.empty());
  EXPECT_EQ(report.entries[1].samples.size(), 5u);
  // One repetition is itself.
  const Measurement one = combine_repetitions({repetition({7}, StopReason::stable, "x")});
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
  EXPECT_EQ(runs.measurements[0].stop_reason, StopReason::timeout);  // the least settled
  EXPECT_EQ(runs.measurements[0].wall_time_s, 1.5);
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
}  // namespace kerntime::bench
