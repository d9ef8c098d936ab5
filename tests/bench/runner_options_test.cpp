// SPDX-License-Identifier: Apache-2.0
// The runner's command line parsed into options, and its bad-argument messages.
#include "main/runner_options.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace kerntime::bench {
namespace {

ParsedArguments parse(std::vector<std::string> args) {
  args.insert(args.begin(), "/path/to/bench");
  std::vector<const char*> argv;
  for (const std::string& a : args)
    argv.push_back(a.c_str());
  return parse_runner_arguments(static_cast<int>(argv.size()), argv.data());
}

int count_lines(const std::string& text) {
  int lines = 0;
  for (char c : text)
    lines += c == '\n' ? 1 : 0;
  return lines;
}

TEST(RunnerOptions, DefaultsConvergeFast) {
  const ParsedArguments p = parse({});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  const RunnerOptions& o = p.options;
  EXPECT_EQ(o.mode, MeasureMode::cold);
  EXPECT_EQ(o.format, Format::table);
  EXPECT_EQ(o.stopping.min_samples, 20u);
  EXPECT_DOUBLE_EQ(o.stopping.max_noise, 0.005);
  EXPECT_DOUBLE_EQ(o.stopping.max_ci_half_width, 0.005);
  EXPECT_DOUBLE_EQ(o.stopping.timeout_s, 5.0);
  EXPECT_EQ(o.stopping.fixed_samples, 0u);
  EXPECT_TRUE(o.l2_flush);
  EXPECT_TRUE(o.cupti);
  EXPECT_TRUE(o.devices.empty());
}

TEST(RunnerOptions, EveryOptionLandsInItsField) {
  const ParsedArguments p = parse({"--filter",
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
  const RunnerOptions& o = p.options;
  EXPECT_EQ(o.filter, "^spin");
  ASSERT_EQ(o.axes.size(), 2u);
  EXPECT_EQ(o.axes[0].name, "ns");
  EXPECT_EQ(o.axes[0].values, "2000,5000");
  EXPECT_EQ(o.axes[1].name, "n");
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
  const ParsedArguments p = parse({"--samples", "300", "--all-devices"});
  ASSERT_FALSE(p.exit_status.has_value()) << p.err;
  EXPECT_EQ(p.options.stopping.fixed_samples, 300u);
  EXPECT_TRUE(p.options.all_devices);
}

TEST(RunnerOptions, HelpExitsZeroWithTheOptions) {
  const ParsedArguments p = parse({"--help"});
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
  const std::vector<std::vector<std::string>> bad = {
      {"--frobnicate"},       {"--mode", "warm"},  {"--format", "xml"},
      {"--min-samples", "0"}, {"--timeout", "-1"}, {"--max-noise", "abc"},
      {"--axis", "novalue"},  {"--device", "-2"},  {"--device", "0", "--all-devices"},
      {"--samples", "0"},     {"--min-time", "x"}, {"stray"}};
  for (const auto& args : bad) {
    const ParsedArguments p = parse(args);
    ASSERT_TRUE(p.exit_status.has_value()) << args[0];
    EXPECT_EQ(*p.exit_status, 2) << args[0];
    EXPECT_EQ(count_lines(p.err), 1) << p.err;
    EXPECT_EQ(p.err.rfind("bench: ", 0), 0u) << p.err;
    EXPECT_TRUE(p.out.empty());
  }
}

TEST(RunnerOptions, OutputFormatFollowsTheExtension) {
  EXPECT_EQ(format_for_path("r.json"), Format::json);
  EXPECT_EQ(format_for_path("dir/r.md"), Format::markdown);
  EXPECT_EQ(format_for_path("r.csv"), Format::csv);
  EXPECT_EQ(format_for_path("r.txt"), Format::table);
  EXPECT_EQ(format_for_path("json"), Format::table);
}

}  // namespace
}  // namespace kerntime::bench
