// SPDX-License-Identifier: Apache-2.0
// The runner's command line parsed into options, and its bad-argument messages.
#include "main/runner_options.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>

namespace kerntime::main {
namespace {

main::ParsedArguments parse(std::vector<std::string> args) {
  args.insert(args.begin(), "/path/to/bench");
  std::vector<const char*> argv;
  for (const std::string& a : args)
    argv.push_back(a.c_str());
  return main::parse_runner_arguments(static_cast<int>(argv.size()), argv.data());
}

int count_lines(const std::string& text) {
  int lines = 0;
  for (char c : text)
    lines += c == '\n' ? 1 : 0;
  return lines;
}

TEST(RunnerOptions, DefaultsConvergeFast) {
  const main::ParsedArguments p = parse({});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  const main::RunnerOptions& o = p.options;
  EXPECT_EQ(o.mode, MeasureMode::cold);
  EXPECT_FALSE(o.format.has_value());  // table on standard output, extensions for files
  EXPECT_EQ(o.stopping.min_samples, 20u);
  EXPECT_DOUBLE_EQ(o.stopping.max_noise, 0.005);
  EXPECT_DOUBLE_EQ(o.stopping.max_ci_half_width, 0.005);
  EXPECT_DOUBLE_EQ(o.stopping.timeout_s, 5.0);
  EXPECT_EQ(o.stopping.fixed_samples, 0u);
  EXPECT_TRUE(o.l2_flush);
  EXPECT_TRUE(o.cupti);
  EXPECT_TRUE(o.devices.empty());
  EXPECT_DOUBLE_EQ(o.throttle_threshold, 0.75);
  EXPECT_TRUE(o.blocking_kernel);
  EXPECT_FALSE(o.run_once);
  EXPECT_EQ(o.processes, 5u);
  EXPECT_EQ(o.repetitions, 1u);
  EXPECT_FALSE(o.random_interleaving);
  EXPECT_FALSE(o.seed.has_value());
}

TEST(RunnerOptions, EveryOptionLandsInItsField) {
  const main::ParsedArguments p = parse({"--filter",
                                         "^spin",
                                         "--axis",
                                         "ns=2000,5000",
                                         "-a",
                                         "n=2^20",
                                         "--format",
                                         "json",
                                         "--output",
                                         "a.json",
                                         "-o",
                                         "b.md",
                                         "--mode",
                                         "graph",
                                         "--min-samples",
                                         "50",
                                         "--max-noise",
                                         "1.5",
                                         "--min-time",
                                         "0.25",
                                         "--timeout",
                                         "3",
                                         "--warmup",
                                         "4",
                                         "--device",
                                         "1",
                                         "-d",
                                         "0",
                                         "--no-l2-flush",
                                         "--no-cupti",
                                         "--quiet"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  const main::RunnerOptions& o = p.options;
  EXPECT_EQ(o.selection.filter, "^spin");
  ASSERT_EQ(o.selection.axes.size(), 2u);
  EXPECT_EQ(o.selection.axes[0].name, "ns");
  EXPECT_EQ(o.selection.axes[0].values, "2000,5000");
  EXPECT_EQ(o.selection.axes[1].name, "n");
  EXPECT_EQ(o.format, Format::json);
  EXPECT_EQ(o.outputs, (std::vector<std::string>{"a.json", "b.md"}));
  EXPECT_EQ(o.mode, MeasureMode::graph);
  EXPECT_EQ(o.stopping.min_samples, 50u);
  EXPECT_DOUBLE_EQ(o.stopping.max_noise, 0.015);
  EXPECT_DOUBLE_EQ(o.stopping.min_time_s, 0.25);
  EXPECT_DOUBLE_EQ(o.stopping.timeout_s, 3.0);
  EXPECT_EQ(o.warmup_samples, 4u);
  EXPECT_EQ(o.devices, (std::vector<int>{1, 0}));
  EXPECT_FALSE(o.l2_flush);
  EXPECT_FALSE(o.cupti);
  EXPECT_TRUE(o.quiet);
}

TEST(RunnerOptions, SamplesIsAFixedCount) {
  const main::ParsedArguments p = parse({"--samples", "300", "--all-devices"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_EQ(p.options.stopping.fixed_samples, 300u);
  EXPECT_TRUE(p.options.all_devices);
}

TEST(RunnerOptions, HelpExitsZeroWithTheOptions) {
  const main::ParsedArguments p = parse({"--help"});
  ASSERT_TRUE(p.exit_status.has_value());
  EXPECT_EQ(*p.exit_status, 0);
  for (const char* option : {"--list", "--filter", "--axis", "--format", "--output",
                             "--min-samples", "--max-noise", "--min-time", "--timeout", "--mode",
                             "--device", "--all-devices", "--no-l2-flush", "--quiet"}) {
    EXPECT_NE(p.out.find(option), std::string::npos) << option;
  }
  EXPECT_TRUE(p.err.empty());
}

TEST(RunnerOptions, BadArgumentsExitTwoWithOneLine) {
  const std::vector<std::vector<std::string>> bad = {{"--frobnicate"},
                                                     {"--mode", "warm"},
                                                     {"--format", "xml"},
                                                     {"--min-samples", "0"},
                                                     {"--timeout", "-1"},
                                                     {"--max-noise", "abc"},
                                                     {"--axis", "novalue"},
                                                     {"--device", "-2"},
                                                     {"--device", "0", "--all-devices"},
                                                     {"--samples", "0"},
                                                     {"--min-time", "x"},
                                                     {"stray"},
                                                     {"-d", "-1"},
                                                     {"--devices", "0,x"},
                                                     {"--devices", "0,,1"},
                                                     {"--device", "all", "-d", "1"},
                                                     {"--throttle-threshold", "100"},
                                                     {"--throttle-threshold", "-5"},
                                                     {"--seed", "3"},
                                                     {"--repetitions", "0"},
                                                     {"-a", "n[log]=1"},
                                                     {"-a", "n=[1,2"},
                                                     {"--benchmark"}};
  for (const auto& args : bad) {
    const main::ParsedArguments p = parse(args);
    ASSERT_TRUE(p.exit_status.has_value()) << args[0];
    EXPECT_EQ(*p.exit_status, 2) << args[0];
    EXPECT_EQ(count_lines(p.err), 1) << p.err;
    EXPECT_EQ(p.err.rfind("bench: ", 0), 0u) << p.err;
    EXPECT_LT(p.err.size(), 300u) << p.err;  // no 310-digit bound of a number check
    EXPECT_TRUE(p.out.empty());
  }
}

TEST(RunnerOptions, ANegativeDeviceIsNamedNotBoundedByTheLargestDouble) {
  const main::ParsedArguments p = parse({"-d", "-1"});
  ASSERT_TRUE(p.exit_status.has_value());
  EXPECT_NE(p.err.find("'-1' is not a device number"), std::string::npos) << p.err;
  EXPECT_EQ(p.err.find("1797"), std::string::npos) << p.err;
}

TEST(RunnerOptions, DevicesTakeNvbenchsCommaListsAndAll) {
  main::ParsedArguments p = parse({"--devices", "0,1", "-d", "3"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_EQ(p.options.devices, (std::vector<int>{0, 1, 3}));
  EXPECT_FALSE(p.options.all_devices);
  p = parse({"-d", "all"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_TRUE(p.options.all_devices);
  EXPECT_TRUE(p.options.devices.empty());
}

TEST(RunnerOptions, AxesAfterABenchmarkBelongToIt) {
  const main::ParsedArguments p = parse({"-a", "n=1", "-b", "sort", "-a", "T=[float,int8]",
                                         "--benchmark", "2", "-a", "n[pow2]=[20:24]", "-a", "m=3"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  const bench::Selection& s = p.options.selection;
  ASSERT_EQ(s.axes.size(), 1u);
  EXPECT_EQ(s.axes[0].name, "n");
  ASSERT_EQ(s.benchmarks.size(), 2u);
  EXPECT_EQ(s.benchmarks[0].which, "sort");
  ASSERT_EQ(s.benchmarks[0].axes.size(), 1u);
  EXPECT_EQ(s.benchmarks[0].axes[0].name, "T");
  EXPECT_EQ(s.benchmarks[0].axes[0].values, "float,int8");
  EXPECT_EQ(s.benchmarks[1].which, "2");
  ASSERT_EQ(s.benchmarks[1].axes.size(), 2u);
  EXPECT_EQ(s.benchmarks[1].axes[0].values, "20:24");
  EXPECT_TRUE(s.benchmarks[1].axes[0].exponents);
  EXPECT_EQ(s.benchmarks[1].axes[1].name, "m");
}

TEST(RunnerOptions, ThrottleThresholdIsAPercentageAsInNvbench) {
  main::ParsedArguments p =
      parse({"--throttle-threshold", "50", "--throttle-recovery-delay", "0.2"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_DOUBLE_EQ(p.options.throttle_threshold, 0.5);
  EXPECT_DOUBLE_EQ(p.options.throttle_recovery_s, 0.2);
  p = parse({"--throttle-threshold", "0"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_DOUBLE_EQ(p.options.throttle_threshold, 0.0);
}

TEST(RunnerOptions, ProfileIsOneSampleWithoutBlockingKernelCuptiOrChildren) {
  main::ParsedArguments p = parse({"--profile"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_TRUE(p.options.run_once);
  EXPECT_FALSE(p.options.blocking_kernel);
  EXPECT_FALSE(p.options.cupti);
  EXPECT_EQ(p.options.processes, 1u);
  p = parse({"--profile", "--processes", "3"});  // an explicit --processes stays
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_EQ(p.options.processes, 3u);
  p = parse({"--run-once"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_TRUE(p.options.run_once);
  EXPECT_TRUE(p.options.blocking_kernel);
  EXPECT_TRUE(p.options.cupti);
  EXPECT_EQ(p.options.processes, 1u);
  p = parse({"--disable-blocking-kernel"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_FALSE(p.options.run_once);
  EXPECT_FALSE(p.options.blocking_kernel);
  EXPECT_EQ(p.options.processes, 5u);
}

TEST(RunnerOptions, RepetitionsShareTheTimeoutAndInterleavingTakesASeed) {
  main::ParsedArguments p = parse({"--repetitions", "4", "--random-interleaving", "--seed", "42"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_EQ(p.options.repetitions, 4u);
  EXPECT_DOUBLE_EQ(p.options.stopping.timeout_s, 5.0 / 4.0);
  EXPECT_TRUE(p.options.random_interleaving);
  ASSERT_TRUE(p.options.seed.has_value());
  EXPECT_EQ(*p.options.seed, 42u);
  // Google Benchmark's spellings.
  p = parse({"--benchmark_enable_random_interleaving=true", "--benchmark_repetitions=3"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_TRUE(p.options.random_interleaving);
  EXPECT_EQ(p.options.repetitions, 3u);
  EXPECT_FALSE(p.options.seed.has_value());  // the runner draws one and prints it
}

TEST(RunnerOptions, AChildTakesTheParentsSeedAndItsShareOfTheTimeout) {
  const main::ParsedArguments p =
      parse({"--random-interleaving", "--repetitions", "2", "--kerntime-worker=1",
             "--kerntime-worker-output=/tmp/x.json", "--kerntime-worker-seed=99"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  ASSERT_TRUE(p.options.worker.has_value());
  EXPECT_EQ(*p.options.worker, 1u);
  ASSERT_TRUE(p.options.seed.has_value());
  EXPECT_EQ(*p.options.seed, 99u);
  EXPECT_DOUBLE_EQ(p.options.stopping.timeout_s, 5.0 / 5.0 / 2.0);
}

std::vector<std::string> describe(const std::vector<main::Output>& outputs) {
  std::vector<std::string> out;
  for (const main::Output& o : outputs) {
    const char* names[] = {"table", "md", "csv", "json"};
    out.push_back(o.path + ":" + names[static_cast<int>(o.format)]);
  }
  return out;
}

std::vector<std::string> outputs_for(std::vector<std::string> args) {
  const main::ParsedArguments p = parse(std::move(args));
  EXPECT_FALSE(p.exit_status.has_value()) << p.err;
  return describe(main::outputs_of(p.options));
}

// One rule with `kerntime compare` and `kerntime report`: --format is the format of the file.
TEST(RunnerOptions, FormatIsTheFormatOfTheOutputFileAsInCompare) {
  using V = std::vector<std::string>;
  EXPECT_EQ(outputs_for({}), (V{"-:table"}));
  EXPECT_EQ(outputs_for({"--format", "csv"}), (V{"-:csv"}));
  EXPECT_EQ(outputs_for({"-o", "r.json"}), (V{"-:table", "r.json:json"}));
  EXPECT_EQ(outputs_for({"--format", "md", "-o", "r.txt"}), (V{"-:table", "r.txt:md"}));
  EXPECT_EQ(outputs_for({"--format", "json", "-o", "a.out", "-o", "b.md"}),
            (V{"-:table", "a.out:json", "b.md:json"}));
  EXPECT_EQ(outputs_for({"--format", "md", "-o", "-", "-o", "r.json"}), (V{"-:md", "r.json:md"}));
  EXPECT_EQ(outputs_for({"-o", "-", "-o", "r.json"}), (V{"-:table", "r.json:json"}));
  EXPECT_EQ(outputs_for({"--quiet", "-o", "r.csv"}), (V{"r.csv:csv"}));
  EXPECT_TRUE(outputs_for({"--quiet"}).empty());
}

// The output and selection flags of NVBench and Google Benchmark, as their users type them.
TEST(RunnerOptions, NvbenchAndGoogleBenchmarkFlagsWork) {
  using V = std::vector<std::string>;
  EXPECT_EQ(outputs_for({"--json", "r.out", "--md", "r.txt", "--csv", "c"}),
            (V{"-:table", "r.out:json", "c:csv", "r.txt:md"}));
  EXPECT_EQ(outputs_for({"--benchmark_out", "g.data"}), (V{"-:table", "g.data:json"}));
  EXPECT_EQ(outputs_for({"--benchmark_out", "g.txt", "--benchmark_out_format", "console",
                         "--benchmark_format", "json"}),
            (V{"-:table", "g.txt:table"}));
  EXPECT_EQ(outputs_for({"--benchmark_format", "console"}), (V{"-:table"}));
  const main::ParsedArguments p = parse(
      {"--benchmark_filter", "copy.*", "--benchmark_list_tests", "--benchmark_min_time", "0.5s"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_EQ(p.options.selection.filter, "copy.*");
  EXPECT_TRUE(p.options.list);
  EXPECT_EQ(p.options.stopping.min_time_s, 0.5);
  const main::ParsedArguments counted = parse({"--benchmark_min_time", "100x"});
  ASSERT_FALSE(counted.exit_status.has_value()) << counted.err;
  EXPECT_EQ(counted.options.stopping.fixed_samples, 100u);
  const main::ParsedArguments bad = parse({"--benchmark_min_time", "soon"});
  EXPECT_EQ(bad.exit_status, 2);
  EXPECT_NE(bad.err.find("--benchmark_min_time soon: give seconds ('0.5s', at most 3600) or a "
                         "sample count ('100x')"),
            std::string::npos)
      << bad.err;
}

TEST(RunnerOptions, VersionNamesKerntimeCudaAndCupti) {
  const main::ParsedArguments p = parse({"--version"});
  EXPECT_EQ(p.exit_status, 0);
  EXPECT_NE(p.out.find(std::string{"benchmark runner)\nCUDA runtime "}), std::string::npos)
      << p.out;
  EXPECT_NE(p.out.find("\nCUPTI "), std::string::npos) << p.out;
}

TEST(RunnerOptions, OutputFormatFollowsTheExtension) {
  using kerntime::format_for_path;
  EXPECT_EQ(format_for_path("r.json"), Format::json);
  EXPECT_EQ(format_for_path("dir/r.md"), Format::markdown);
  EXPECT_EQ(format_for_path("r.csv"), Format::csv);
  EXPECT_EQ(format_for_path("r.txt"), Format::table);
  EXPECT_EQ(format_for_path("json"), Format::table);
  EXPECT_EQ(format_for_path("out.d/table"), Format::table);
  // Any other extension is a mistake that would otherwise write a table under that name.
  try {
    format_for_path("dir/result.junit");
    ADD_FAILURE() << "no error";
  } catch (const kerntime::Error& e) {
    EXPECT_STREQ(e.what(),
                 "cannot tell a format from the extension '.junit' of 'dir/result.junit': the "
                 "formats are .json, .md, .csv and .txt (the table); name the file so, or give "
                 "--format");
  }
}

}  // namespace
}  // namespace kerntime::main
