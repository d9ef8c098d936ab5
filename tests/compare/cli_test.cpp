// SPDX-License-Identifier: Apache-2.0
// `kerntime compare` and `kerntime report` run as a user runs them: exit statuses 0 / 1 / 2,
// messages that name the file, entry and field, and every output format.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/readable_text.hpp"
#include "support/run_command.hpp"
#include "xml_check.hpp"

namespace kerntime {
namespace {

using testing::CommandResult;
using testing::run_command;

const std::string kData = KERNTIME_TEST_DATA_DIR "/data";

// Runs kerntime in the data directory, so messages carry the short file names users type.
CommandResult kerntime(const std::string& arguments) {
  return run_command("cd '" + kData + "' && NO_COLOR= '" KERNTIME_EXECUTABLE "' " + arguments);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "kerntime_compare_" + name;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int count_lines_with(const std::string& text, const std::string& part) {
  int n = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    n += contains(line, part) ? 1 : 0;
  }
  return n;
}

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

// What validates XML against a schema here: libxml2's xmllint, else the same library through
// Python's lxml (GPU machines often have lxml but not xmllint); empty when neither exists.
std::string xml_validator() {
  static const std::string validator = [] {
    if (run_command("command -v xmllint").exit_status == 0) return std::string("xmllint");
    if (run_command("python3 -c 'import lxml.etree'").exit_status == 0) return std::string("lxml");
    return std::string();
  }();
  return validator;
}

bool have_xmllint() {
  return !xml_validator().empty();
}

// Empty when `xml` is valid against the Jenkins xUnit plugin's JUnit schema, checked by
// libxml2 (a real parser and schema validator), else what the validator said.
std::string schema_problem(const std::string& xml) {
  const std::string path = temp_path("schema_check.xml");
  std::ofstream(path) << xml;
  const std::string schema = KERNTIME_TEST_DATA_DIR "/data/junit-10.xsd";
  const std::string command =
      xml_validator() == "xmllint"
          ? "xmllint --noout --schema '" + schema + "' '" + path + "' 2>&1"
          : "python3 -c 'import sys; from lxml import etree; "
            "s = etree.XMLSchema(etree.parse(sys.argv[1])); "
            "ok = s.validate(etree.parse(sys.argv[2])); print(s.error_log); "
            "sys.exit(0 if ok else 1)' '" +
                schema + "' '" + path + "' 2>&1";
  const CommandResult r = run_command(command);
  return r.exit_status == 0 ? "" : r.out + r.err;
}

TEST(CompareCli, JunitIsValidAgainstTheJenkinsSchema) {
  if (!have_xmllint()) {
    GTEST_SKIP() << "no XML schema validator: install xmllint (Debian libxml2-utils) or lxml";
  }
  for (const char* pair : {"base.json slower.json", "base.json rerun.json",
                           "base.json few_samples.json", "runs_base.json runs_slower.json"}) {
    const CommandResult r = kerntime(std::string("compare ") + pair + " --format junit");
    EXPECT_EQ(schema_problem(r.out), "") << pair << "\n" << r.out;
  }
  // The checker itself rejects what the schema forbids: `skipped` on <testsuites>.
  EXPECT_NE(schema_problem(R"(<testsuites tests="0" skipped="0"></testsuites>)"), "");
}

// -o names the format by its extension; one that names none is an error, never a table.
TEST(CompareCli, TheOutputExtensionChoosesTheFormatOrIsRefused) {
  const std::string junit = temp_path("result.junit");
  std::remove(junit.c_str());
  const CommandResult r = kerntime("compare base.json rerun.json -o '" + junit + "'");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(read_file(junit), "<testsuites name=\"kerntime compare\"")) << junit;
  const std::string html = temp_path("result.html");
  std::remove(html.c_str());
  const CommandResult page = kerntime("compare base.json slower.json -o '" + html + "'");
  EXPECT_EQ(page.exit_status, 1) << page.err;
  EXPECT_EQ(read_file(html).rfind("<!DOCTYPE html>", 0), 0u) << html;
  EXPECT_TRUE(contains(page.out, " regressed ")) << page.out;  // the table still goes to stdout
  const std::string pdf = temp_path("result.pdf");
  std::remove(pdf.c_str());
  const CommandResult bad = kerntime("compare base.json rerun.json -o '" + pdf + "'");
  EXPECT_EQ(bad.exit_status, 2);
  EXPECT_EQ(testing::line_count(bad.err), 1) << bad.err;
  EXPECT_TRUE(contains(bad.err, "cannot tell a format from its extension: the formats are .json"))
      << bad.err;
  EXPECT_TRUE(read_file(pdf).empty());  // nothing written
}

TEST(CompareCli, JunitOnBadInputStillWritesAnErrorCase) {
  const std::string path = temp_path("error.xml");
  std::remove(path.c_str());
  const CommandResult r =
      kerntime("compare base.json malformed.json --format junit --output '" + path + "'");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  const std::string xml = read_file(path);
  EXPECT_TRUE(contains(xml, R"(<testsuites name="kerntime compare" tests="1" failures="0" )"
                            R"(errors="1">)"))
      << xml;
  EXPECT_TRUE(contains(xml, R"(<error type="bad input" message="malformed.json: entries[1].)"))
      << xml;
  if (have_xmllint()) {
    EXPECT_EQ(schema_problem(xml), "") << xml;
  }
  // On stdout too, for CI that redirects it.
  const CommandResult out = kerntime("compare base.json renamed.json --format junit");
  EXPECT_EQ(out.exit_status, 2);
  EXPECT_TRUE(contains(out.out, "no entry names in common")) << out.out;
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

TEST(CompareCli, JunitToAFileAndTheTableToStdout) {
  const std::string path = temp_path("junit.xml");
  std::remove(path.c_str());
  const CommandResult r =
      kerntime("compare base.json slower.json --format junit --output '" + path + "'");
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_TRUE(contains(r.out, "regressed  median")) << "the log still shows the table";
  const std::string xml = read_file(path);
  EXPECT_EQ(testing::xml_problem(xml), "") << xml;
  EXPECT_TRUE(contains(xml, R"(tests="4" failures="1" errors="0" skipped="1")")) << xml;
  // Time: slower.json's saxpy median, 13227.5 ns, in seconds; class: the family.
  EXPECT_TRUE(contains(xml, R"(<testcase name="saxpy" classname="saxpy" time="0.0000132275">)"
                            "\n      <failure type=\"regressed\""))
      << xml;
  EXPECT_TRUE(contains(xml, R"(<testcase name="transpose/64x64" classname="transpose" )"
                            R"(time="0.00007941715">)"))
      << xml;
  // A removed entry's time is the baseline's median.
  EXPECT_TRUE(contains(xml, R"(<testcase name="retired_kernel" classname="retired_kernel" )"
                            R"(time="0.0000050254">)"))
      << xml;
}

// CI systems key a suite's history by its name: the checkout's absolute path must not be in it.
TEST(CompareCli, TheJunitSuiteIsNamedByFileNamesOnly) {
  const std::string path = temp_path("junit-paths.xml");
  const CommandResult r = kerntime("compare '" + kData + "/base.json' '" + kData +
                                   "/slower.json' --format junit --output '" + path + "'");
  EXPECT_EQ(r.exit_status, 1);
  const std::string xml = read_file(path);
  EXPECT_TRUE(contains(xml, R"(<testsuite name="kerntime compare base.json slower.json" )")) << xml;
}

TEST(CompareCli, JsonAndMarkdownOnStdout) {
  CommandResult r = kerntime("compare base.json slower.json --format json");
  EXPECT_EQ(r.exit_status, 1);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["failed"], true);
  EXPECT_EQ(j["summary"]["regressed"], 1);
  EXPECT_EQ(j["entries"][0]["name"], "saxpy");
  // Beyond half the threshold: the interval is widened by the one-run allowance (docs/ci.md).
  EXPECT_GT(j["entries"][0]["ratio_ci"]["low"].get<double>(), 1.025);
  r = kerntime("compare base.json slower.json --format md");
  EXPECT_EQ(r.out.rfind("### kerntime compare: failed", 0), 0u) << r.out;
  EXPECT_TRUE(contains(r.out, "| saxpy | **regressed** |")) << r.out;
}

// One rule for -o FILE in every command: without --format, the file's extension names the
// format (and compare's standard output keeps the table for the log).
TEST(CompareCli, AnOutputFileWithoutFormatTakesItsExtensionsFormat) {
  const std::string json = temp_path("by_extension.json");
  const std::string xml = temp_path("by_extension.xml");
  const std::string md = temp_path("by_extension_report.md");
  CommandResult r = kerntime("compare base.json slower.json -o '" + json + "'");
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_TRUE(contains(r.out, "regressed  median")) << r.out;
  EXPECT_EQ(nlohmann::json::parse(read_file(json))["summary"]["regressed"], 1);
  r = kerntime("compare base.json slower.json -o '" + xml + "'");
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_EQ(testing::xml_problem(read_file(xml)), "");
  r = kerntime("report base.json -o '" + md + "'");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(read_file(md), "| Name | Samples | Median |")) << read_file(md);
  // --format still wins over the extension.
  r = kerntime("report base.json --format csv -o '" + md + "'");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(read_file(md), "saxpy,")) << read_file(md);
}

TEST(CompareCli, ReportMergesRepeatedRuns) {
  CommandResult r = kerntime("report base.json rerun.json --format json");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["entries"].size(), 4u);
  EXPECT_EQ(j["entries"][0]["name"], "saxpy");
  EXPECT_EQ(j["entries"][0]["samples"].size(), 60u);
  EXPECT_EQ(j["entries"][3]["samples"].size(), 30u);  // retired_kernel: only in base.json

  r = kerntime("report minimal.json --format csv");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "saxpy")) << r.out;
  for (const char* format : {"table", "md"}) {
    EXPECT_EQ(kerntime(std::string("report base.json --format ") + format).exit_status, 0);
  }
  const std::string path = temp_path("merged.json");
  EXPECT_EQ(
      kerntime("report base.json rerun.json --output '" + path + "' --format json").exit_status, 0);
  EXPECT_EQ(kerntime("compare base.json '" + path + "'").exit_status, 0);
}

TEST(CompareCli, ReportKeepsEachFileAsARun) {
  const std::string path = temp_path("runs.json");
  CommandResult r = kerntime("report base.json rerun.json --format json -o '" + path + "'");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read_file(path));
  EXPECT_EQ(j["entries"][0]["runs"], nlohmann::json::array({30, 30}));
  EXPECT_FALSE(j["entries"][3].contains("runs"));  // retired_kernel: one run, written as before
  // A baseline of runs compared with one run works (2 + 1 runs: one degree of freedom, so the
  // verdict is cautious), and the reason says that the counts differ.
  r = kerntime("compare '" + path + "' slower.json");
  EXPECT_NE(r.exit_status, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "run counts differ: 2 baseline, 1 candidate")) << r.out;
}

TEST(CompareCli, ReportRefusesBadMerges) {
  CommandResult r = kerntime("report base.json base.json --format json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err, "kerntime: base.json is given twice; each report can be merged only once.\n");
  r = kerntime("report base.json ./base.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "./base.json is given twice")) << r.err;
  const std::string copy = temp_path("copy_of_base.json");
  std::ofstream(copy) << read_file(kData + "/base.json");
  r = kerntime("report base.json '" + copy + "'");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "has the same content as base.json")) << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  r = kerntime("report base.json other_gpu.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err.rfind("kerntime: other_gpu.json was measured on another GPU than base.json: "
                        "GPU differs",
                        0),
            0u)
      << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
}

TEST(CompareCli, ReportErrorsExitTwo) {
  CommandResult r = kerntime("report base.json malformed.json");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "malformed.json: entries[1].samples[2]")) << r.err;
  EXPECT_EQ(kerntime("report").exit_status, 2);
  EXPECT_EQ(kerntime("report base.json --format xml").exit_status, 2);
  r = kerntime("report --help");
  EXPECT_EQ(r.exit_status, 0);
  EXPECT_TRUE(contains(r.out, "each file becomes\none run (process)")) << r.out;
}

// Report arguments are bounded, and devices are refused: /dev/zero used to read until
// std::bad_alloc. A FIFO is read (tests/cli/cli_files_test.cpp), but one without a writer, which
// blocked forever, fails at once.
TEST(CompareCli, DevicesAndFifosWithoutAWriterAreRefusedNamingTheFile) {
  CommandResult r = kerntime("report /dev/zero");
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_EQ(r.err,
            "kerntime: /dev/zero: cannot read report: it is a character device, not a regular "
            "file\n");
  const std::string fifo = temp_path("fifo");
  std::remove(fifo.c_str());
  ASSERT_EQ(run_command("mkfifo '" + fifo + "'").exit_status, 0);
  r = kerntime("compare base.json '" + fifo + "'");
  std::remove(fifo.c_str());
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_TRUE(contains(r.err, "nothing was written to the pipe (it is a FIFO without a writer"))
      << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  // A link to a report and standard input still work.
  const std::string link = temp_path("link.json");
  std::remove(link.c_str());
  ASSERT_EQ(run_command("ln -s '" + kData + "/base.json' '" + link + "'").exit_status, 0);
  EXPECT_EQ(kerntime("compare base.json '" + link + "'").exit_status, 0);
  EXPECT_EQ(kerntime("report - < base.json").exit_status, 0);
  std::remove(link.c_str());
}

// Option values out of range are usage errors that name the option and the value: --min-change
// 1e308s used to reach format_duration with infinity, --min-samples past long long was clamped.
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

// `kerntime report --format json` used to drop the trace section of its input, even for one file.
TEST(CompareCli, ReportJsonKeepsTheTraceSection) {
  const std::string golden = KERNTIME_TEST_DATA_DIR "/../report/golden/report_with_trace.json";
  const CommandResult r = kerntime("report '" + golden + "' --format json");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const nlohmann::json out = nlohmann::json::parse(r.out);
  const nlohmann::json in = nlohmann::json::parse(read_file(golden));
  ASSERT_TRUE(out.contains("trace")) << r.out.substr(0, 500);
  EXPECT_EQ(out["trace"], in["trace"]);
}

// A report of the benchmark engine (tests/format/golden/engine_report.json) keeps how each
// entry was measured through `kerntime report`, and `kerntime compare` rates both sides.
const std::string kEngineReport = KERNTIME_TEST_DATA_DIR "/../format/golden/engine_report.json";

TEST(CompareCli, ReportShowsHowTheEngineMeasuredEachEntry) {
  const CommandResult table = kerntime("report '" + kEngineReport + "'");
  ASSERT_EQ(table.exit_status, 0) << table.err;
  EXPECT_TRUE(contains(table.out, "How the benchmark engine measured each entry:")) << table.out;
  EXPECT_TRUE(contains(table.out, "device_copy/bytes=67108864/cold      cold  cupti-kernel"))
      << table.out;
  EXPECT_TRUE(contains(table.out, "608.0 ns (cache)")) << table.out;
  EXPECT_TRUE(contains(table.out, "3909.0   79.5%")) << table.out;
  // The sort's elements and counters, read from the file: items/s and segments/s at its median
  // of 812.5 us, bytes/elem as declared.
  EXPECT_TRUE(contains(table.out, "TFLOP/s  Items/s  segments/s  bytes/elem  Stop")) << table.out;
  EXPECT_TRUE(contains(table.out, "-   1.291G      40.33M           4  stable")) << table.out;
  const CommandResult csv = kerntime("report '" + kEngineReport + "' --format csv");
  ASSERT_EQ(csv.exit_status, 0) << csv.err;
  EXPECT_TRUE(contains(csv.out, ",kernel_fixed_cost_source,")) << csv.out;
  EXPECT_TRUE(contains(csv.out, ",work_elements,items_per_s,segments/s,bytes/elem\n")) << csv.out;
  const CommandResult json = kerntime("report '" + kEngineReport + "' --format json");
  ASSERT_EQ(json.exit_status, 0) << json.err;
  const nlohmann::json out = nlohmann::json::parse(json.out);
  const nlohmann::json in = nlohmann::json::parse(read_file(kEngineReport));
  EXPECT_EQ(out["entries"][0]["measurement"], in["entries"][0]["measurement"]);
  EXPECT_FALSE(out["entries"][1].contains("measurement"));  // the /events twin
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
TEST(CompareCli, ReportSaysWhenMergingDropsTraceSections) {
  const std::string golden = KERNTIME_TEST_DATA_DIR "/../report/golden/report_with_trace.json";
  nlohmann::json report = nlohmann::json::parse(read_file(golden));
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& entry : report["entries"]) {
    if (!entry["samples"].empty()) entries.push_back(entry);  // a run needs samples to merge
  }
  report["entries"] = entries;
  const std::string first = temp_path("traced1.json");
  const std::string second = temp_path("traced2.json");
  std::ofstream(first) << report.dump();
  report["environment"]["created_utc"] = "2026-01-01T00:00:00Z";
  for (auto& entry : report["entries"]) {
    for (auto& sample : entry["samples"])
      sample = sample.get<double>() * 1.01;
  }
  std::ofstream(second) << report.dump();
  const std::string untraced = temp_path("untraced.json");
  report.erase("trace");
  report["environment"]["created_utc"] = "2026-01-02T00:00:00Z";
  std::ofstream(untraced) << report.dump();

  const std::string out = temp_path("traced_merged.json");
  CommandResult r =
      kerntime("report '" + first + "' '" + second + "' --format json -o '" + out + "'");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("kerntime report: warning: dropped the trace sections of ", 0), 0u)
      << r.err;
  EXPECT_TRUE(contains(r.err, "traced1.json")) << r.err;
  EXPECT_TRUE(contains(r.err, "traced2.json")) << r.err;
  EXPECT_TRUE(contains(r.err, "share no clock")) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(read_file(out)).contains("trace"));
  // Shown with the table too; one file keeps its trace and says nothing.
  r = kerntime("report '" + first + "' '" + second + "'");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_EQ(testing::line_count(r.err), 1) << r.err;
  r = kerntime("report '" + first + "' --format json");
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(nlohmann::json::parse(r.out).contains("trace"));
  // Only a file with a trace section is named.
  r = kerntime("report '" + first + "' '" + untraced + "' --format json");
  EXPECT_EQ(r.exit_status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "dropped the trace section of ")) << r.err;
  EXPECT_FALSE(contains(r.err, "untraced.json")) << r.err;
}

}  // namespace
}  // namespace kerntime
