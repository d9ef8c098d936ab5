// SPDX-License-Identifier: Apache-2.0
// `kerntime compare` run as a user runs it: its verdicts and exit statuses 0 / 1 / 2, messages
// that name the file, entry and field, and inputs at the edges of what numbers hold. Its output
// formats: cli_outputs_test.cpp; `kerntime report`: report_cli_test.cpp.
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "support/readable_text.hpp"

namespace kerntime {
namespace {

using namespace cli_test;

TEST(CompareCli, RerunOfTheSameBuildPasses) {
  const CommandResult r = kerntime("compare base.json rerun.json");
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(count_lines_with(r.out, " same "), 3) << r.out;
  EXPECT_TRUE(contains(r.out, "retired_kernel")) << r.out;
  EXPECT_TRUE(contains(r.out,
                       "0 regressed, 0 improved, 3 same, 0 inconclusive, 0 added, 1 "
                       "removed: passed"))
      << r.out;
  EXPECT_FALSE(contains(r.out, "\x1b[")) << "stdout is not a terminal: no colour";
}

TEST(CompareCli, SlowerKernelFailsAndIsTheOnlyOneNamed) {
  const CommandResult r = kerntime("compare base.json slower.json");
  EXPECT_EQ(r.exit_status, 1) << r.out << r.err;
  EXPECT_EQ(count_lines_with(r.out, "regressed  median"), 1) << r.out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (contains(line, "regressed  median")) {
      EXPECT_EQ(line.rfind("saxpy ", 0), 0u) << line;
    }
  }
}

TEST(CompareCli, ThresholdsDecide) {
  EXPECT_EQ(kerntime("compare base.json slower.json --threshold 15%").exit_status, 0);
  EXPECT_EQ(kerntime("compare base.json slower.json --threshold 'sax*=12%'").exit_status, 0);
  // A later pattern overrides an earlier one; a bare value anywhere only sets the default.
  EXPECT_EQ(kerntime("compare base.json slower.json --threshold 'sax*=12%' "
                     "--threshold 'saxpy=3%' --threshold 20%")
                .exit_status,
            1);
}

TEST(CompareCli, RemovedAndInconclusiveFailOnlyWhenAsked) {
  EXPECT_EQ(kerntime("compare base.json rerun.json --fail-on-removed").exit_status, 1);
  const CommandResult few = kerntime("compare base.json few_samples.json");
  EXPECT_EQ(few.exit_status, 0) << few.out;
  EXPECT_TRUE(contains(few.out, "too few samples (30 baseline, 3 candidate)")) << few.out;
  EXPECT_EQ(kerntime("compare base.json few_samples.json --fail-on-inconclusive").exit_status, 1);
  EXPECT_EQ(kerntime("compare base.json few_samples.json --min-samples 2 --alpha 0.2").exit_status,
            0);
}

TEST(CompareCli, AddedEntries) {
  const CommandResult r = kerntime("compare rerun.json base.json");
  EXPECT_EQ(r.exit_status, 0);
  EXPECT_TRUE(contains(r.out, "added")) << r.out;
  EXPECT_TRUE(contains(r.out, "only in the candidate")) << r.out;
}

TEST(CompareCli, MinimalFileWorks) {
  const CommandResult r = kerntime("compare minimal.json minimal.json");
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  // 12 samples of one process per side: the 12 us saxpy cannot be shown "same" within 5 % once
  // its interval is widened by the 400 ns allowance for a process shift (docs/ci.md); it is
  // inconclusive, the longer two are same.
  EXPECT_EQ(count_lines_with(r.out, " same "), 2) << r.out;
  EXPECT_EQ(count_lines_with(r.out, " inconclusive "), 1) << r.out;
  EXPECT_EQ(kerntime("compare base.json minimal.json").exit_status, 0);
}

TEST(CompareCli, DifferentGpuIsAWarningAboveTheVerdicts) {
  const CommandResult r = kerntime("compare base.json other_gpu.json");
  EXPECT_EQ(r.exit_status, 0);
  const std::size_t warning = r.out.find(
      "warning: GPU differs: baseline \"NVIDIA H200\", candidate \"NVIDIA A100-SXM4-80GB\"");
  ASSERT_NE(warning, std::string::npos) << r.out;
  EXPECT_LT(warning, r.out.find("Verdict"));
}

TEST(CompareCli, MalformedInputExitsTwoNamingFileEntryAndField) {
  CommandResult r = kerntime("compare base.json malformed.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "kerntime: malformed.json: entries[1].samples[2]: expected a finite number, got "
            "\"abc\"\n");
  r = kerntime("compare not_json.json base.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err.rfind("kerntime: not_json.json: ", 0), 0u) << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  r = kerntime("compare base.json missing.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "missing.json")) << r.err;
}

TEST(CompareCli, UsageErrorsExitTwo) {
  EXPECT_EQ(kerntime("compare base.json").exit_status, 2);
  CommandResult r = kerntime("compare base.json rerun.json --threshold 5");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "threshold '5' is ambiguous")) << r.err;
  EXPECT_EQ(kerntime("compare base.json rerun.json --format xml").exit_status, 2);
  EXPECT_EQ(kerntime("compare base.json rerun.json --alpha 2").exit_status, 2);
  EXPECT_EQ(kerntime("compare base.json rerun.json --color sometimes").exit_status, 2);
  r = kerntime("compare base.json renamed.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "no entry names in common")) << r.err;
}

TEST(CompareCli, ColourWhenForced) {
  const CommandResult r = kerntime("compare base.json slower.json --color always");
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_TRUE(contains(r.out, "\x1b[1;31mregressed\x1b[0m")) << r.out;
}

TEST(CompareCli, DashReadsStandardInputAndWritesStandardOutput) {
  CommandResult r = kerntime("compare base.json - < slower.json");
  EXPECT_EQ(r.exit_status, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "Baseline base.json, candidate <stdin>")) << r.out;
  r = kerntime("compare - rerun.json --format json -o - < base.json");
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["baseline"], "<stdin>");
  r = kerntime("compare - - < base.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "cannot both be standard input")) << r.err;
  r = kerntime("report - --format json -o - < base.json");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["entries"].size(), 4u);
  r = kerntime("compare base.json - < malformed.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err.rfind("kerntime: <stdin>: entries[1].samples[2]", 0), 0u) << r.err;
}

TEST(CompareCli, TimerMismatchOnEveryEntryIsBadInputNotAPass) {
  // CUPTI missing on the candidate's runner: every kernel timed with corrected events instead.
  const std::string path = temp_path("other_timer.json");
  std::string text = read_file(kData + "/runs_slower.json");
  for (std::size_t at = text.find("cupti-kernel"); at != std::string::npos;
       at = text.find("cupti-kernel", at)) {
    text.replace(at, 12, "cuda-event-corrected");
  }
  std::ofstream(path) << text;
  const CommandResult r = kerntime("compare runs_base.json '" + path + "'");
  EXPECT_EQ(r.exit_status, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err,
                       "was measured with another timer (baseline cupti-kernel, "
                       "candidate cuda-event-corrected)"))
      << r.err;
}

TEST(CompareCli, RunsJudgeShortKernels) {
  CommandResult r = kerntime("compare runs_base.json runs_slower.json");
  EXPECT_EQ(r.exit_status, 1) << r.out << r.err;
  EXPECT_FALSE(contains(r.out, "note: one run per side")) << r.out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("spin_2us ", 0) == 0) {
      EXPECT_TRUE(contains(line, " 5+5 ")) << line;
      EXPECT_TRUE(contains(line, " regressed ")) << line;
    }
  }
  r = kerntime("compare runs_base.json runs_rerun.json");
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_EQ(count_lines_with(r.out, " regressed "), 0) << r.out;
  EXPECT_EQ(count_lines_with(r.out, " improved "), 0) << r.out;
}

TEST(CompareCli, OutOfRangeOptionValuesExitTwoNamingTheOption) {
  CommandResult r = kerntime("compare base.json rerun.json --min-change 1e308s");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "kerntime: --min-change: duration '1e308s' is too large: it overflows a number of "
            "nanoseconds; write a duration such as 500ns, 0.5us or 2ms.\n");
  r = kerntime("compare base.json rerun.json --min-samples 99999999999999999999");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err,
            "kerntime: --min-samples: '99999999999999999999' is not a whole number from 1 to "
            "1000000000000.\n");
  for (const char* bad : {"0", "-3", "2.5", "5x", "1000000000001"}) {
    r = kerntime(std::string("compare base.json rerun.json --min-samples ") + bad);
    EXPECT_EQ(r.exit_status, 2) << bad;
    EXPECT_TRUE(contains(r.err, std::string("--min-samples: '") + bad + "'")) << r.err;
    EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  }
  EXPECT_EQ(kerntime("compare base.json rerun.json --min-samples 5 --min-change 2ms").exit_status,
            0);
}

// A path with a line break used to split the one-line message; it is quoted and escaped.
TEST(CompareCli, APathWithALineBreakKeepsTheMessageOneLine) {
  CommandResult r = kerntime("report \"$(printf 'no\\nsuch.json')\"");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err, "kerntime: \"no\\nsuch.json\": cannot open report: No such file or directory\n");
  r = kerntime("compare base.json \"$(printf 'no\\033such.json')\"");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err,
            "kerntime: \"no\\u001bsuch.json\": cannot open report: No such file or directory\n");
  r = kerntime("report base.json -o \"$(printf 'missing\\ndir')/out.json\"");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "\"missing\\ndir/out.json\"")) << r.err;
}

// Six samples of 1e308 are a valid report; every format used to disagree on the verdict (exit 2
// in the table, Markdown and JUnit, exit 0 with "ratio": null in JSON). One verdict, one exit
// status everywhere, and the median computed without overflow.
TEST(CompareCli, HugeSamplesGetOneVerdictInEveryFormat) {
  const std::string path = temp_path("huge.json");
  {
    std::ofstream out(path);
    out << R"({"schema": "kerntime-report/1", "entries": [{"name": "huge", "unit": "ns",
      "samples": [1e308, 1e308, 1e308, 1e308, 1e308, 1e308]}]})";
  }
  for (const char* format : {"table", "md", "json", "junit"}) {
    const CommandResult r =
        kerntime("compare '" + path + "' '" + path + "' --format " + std::string{format});
    EXPECT_EQ(r.exit_status, 0) << format << ": " << r.out << r.err;
    EXPECT_EQ(r.err, "") << format;
    if (std::string{format} == "json") {
      const nlohmann::json j = nlohmann::json::parse(r.out);
      EXPECT_EQ(j["entries"][0]["verdict"], "same") << r.out;
      EXPECT_EQ(j["entries"][0]["ratio"], 1.0) << r.out;
    } else {
      EXPECT_TRUE(contains(r.out, "same")) << format << ": " << r.out;
    }
  }
}

TEST(CompareCli, CompareShowsBothSidesRates) {
  const CommandResult r = kerntime("compare '" + kEngineReport + "' '" + kEngineReport + "'");
  ASSERT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "Baseline rate")) << r.out;
  EXPECT_TRUE(contains(r.out, "3909.0 GB/s (79.5%)                3909.0 GB/s (79.5%)")) << r.out;
  EXPECT_TRUE(contains(r.out, "127.0 GB/s (2.6%), 10.838 TFLOP/s")) << r.out;
  // The sort's declared elements, read from the file, at each side's median of 812.5 us.
  EXPECT_TRUE(contains(r.out, "10.3 GB/s (0.2%), 1.291G items/s")) << r.out;
  const CommandResult json =
      kerntime("compare '" + kEngineReport + "' '" + kEngineReport + "' --format json");
  ASSERT_EQ(json.exit_status, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_NEAR(j["entries"][0]["candidate"]["throughput"]["gb_per_s"].get<double>(), 3909.0, 0.1);
  EXPECT_TRUE(j["entries"][1]["baseline"]["throughput"].is_null());
}

// Issue 25: a ratio that overflows (5e-324 ns against 1e300 ns) read "median inf% slower" and
// "a shift ... of up to inf ns", durations had 300 digits. Every format says it in words now, and
// all agree on the exit status.
TEST(CompareCli, ExtremeMediansAreReadableInEveryFormat) {
  const std::string tiny = temp_path("tiny.json");
  const std::string huge = temp_path("huge1e300.json");
  const auto write = [](const std::string& path, const char* first, const char* second) {
    std::ofstream out(path);
    out << R"({"schema": "kerntime-report/1", "entries": [{"name": "up", "unit": "ns", "samples": [)"
        << first << "," << first << "," << first << "," << first << "," << first << "," << first
        << R"(]}, {"name": "down", "unit": "ns", "samples": [)" << second << "," << second << ","
        << second << "," << second << "," << second << "," << second << R"(]}]})";
  };
  write(tiny, "5e-324", "1e300");
  write(huge, "1e300", "5e-324");
  for (const char* format : {"table", "md", "junit", "json"}) {
    const CommandResult r =
        kerntime("compare '" + tiny + "' '" + huge + "' --format " + std::string{format});
    EXPECT_EQ(r.exit_status, 0) << format << ": " << r.out << r.err;
    EXPECT_EQ(r.err, "") << format;
    if (std::string{format} == "json") {
      const nlohmann::json j = nlohmann::json::parse(r.out);
      EXPECT_TRUE(j["entries"][0]["ratio"].is_null()) << r.out;
      EXPECT_EQ(testing::unreadable_part(j["entries"][0]["reason"].get<std::string>()), "");
      continue;
    }
    EXPECT_EQ(testing::unreadable_part(r.out), "") << format << ": " << r.out;
    EXPECT_TRUE(contains(r.out, "median change too large to compare")) << format << ": " << r.out;
    EXPECT_TRUE(contains(r.out, "4.941e-324 ns")) << format << ": " << r.out;
  }
  for (const char* format : {"table", "md", "csv"}) {
    const CommandResult r = kerntime("report '" + tiny + "' --format " + std::string{format});
    EXPECT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(testing::unreadable_part(r.out, std::string{format} != "csv"), "") << r.out;
  }
}

// An engine report whose samples are denormal: its declared bytes give an infinite GB/s. The
// table said "GB/s inf", and --format json refused to write the report it had just read.
TEST(CompareCli, DeclaredWorkOverADenormalMedianIsOverflow) {
  nlohmann::json report = nlohmann::json::parse(read_file(kEngineReport));
  for (auto& entry : report["entries"]) {
    for (auto& sample : entry["samples"])
      sample = 5e-324;
    entry.erase("statistics");
  }
  const std::string path = temp_path("denormal_engine.json");
  std::ofstream(path) << report.dump();
  const CommandResult table = kerntime("report '" + path + "'");
  ASSERT_EQ(table.exit_status, 0) << table.err;
  EXPECT_EQ(testing::unreadable_part(table.out), "") << table.out;
  EXPECT_TRUE(contains(table.out, "1977  overflow  overflow")) << table.out;
  const CommandResult csv = kerntime("report '" + path + "' --format csv");
  ASSERT_EQ(csv.exit_status, 0) << csv.err;
  EXPECT_EQ(testing::unreadable_part(csv.out, false), "") << csv.out;
  const CommandResult json = kerntime("report '" + path + "' --format json");
  ASSERT_EQ(json.exit_status, 0) << json.err;
  const nlohmann::json out = nlohmann::json::parse(json.out);
  const nlohmann::json& rates = out["entries"][0]["measurement"]["throughput"];
  EXPECT_FALSE(rates.contains("gb_per_s")) << rates;
  EXPECT_FALSE(rates.contains("peak_bandwidth_percent")) << rates;
  const CommandResult compared = kerntime("compare '" + path + "' '" + kEngineReport + "'");
  EXPECT_EQ(testing::unreadable_part(compared.out), "") << compared.out;
  EXPECT_TRUE(contains(compared.out, "GB/s overflow")) << compared.out;
}

// Two reports with trace sections: merge_reports() keeps neither (separate runs share no
// clock). That used to happen without a word; one line on standard error says so now.

}  // namespace
}  // namespace kerntime
