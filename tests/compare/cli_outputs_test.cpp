// SPDX-License-Identifier: Apache-2.0
// `kerntime compare`'s outputs: JUnit valid against the Jenkins schema (also on bad input, and
// named by file names only), the format an output file's extension names, and JSON and
// Markdown on standard output.
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "support/readable_text.hpp"
#include "xml_check.hpp"

namespace kerntime {
namespace {

using namespace cli_test;

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
  // One file per process: ctest runs this executable's tests in parallel processes.
  const std::string path = temp_path("schema_check." + std::to_string(getpid()) + ".xml");
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

TEST(CompareOutputs, JunitIsValidAgainstTheJenkinsSchema) {
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
TEST(CompareOutputs, TheOutputExtensionChoosesTheFormatOrIsRefused) {
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

TEST(CompareOutputs, JunitOnBadInputStillWritesAnErrorCase) {
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

TEST(CompareOutputs, JunitToAFileAndTheTableToStdout) {
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
TEST(CompareOutputs, TheJunitSuiteIsNamedByFileNamesOnly) {
  const std::string path = temp_path("junit-paths.xml");
  const CommandResult r = kerntime("compare '" + kData + "/base.json' '" + kData +
                                   "/slower.json' --format junit --output '" + path + "'");
  EXPECT_EQ(r.exit_status, 1);
  const std::string xml = read_file(path);
  EXPECT_TRUE(contains(xml, R"(<testsuite name="kerntime compare base.json slower.json" )")) << xml;
}

TEST(CompareOutputs, JsonAndMarkdownOnStdout) {
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
TEST(CompareOutputs, AnOutputFileWithoutFormatTakesItsExtensionsFormat) {
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

}  // namespace
}  // namespace kerntime
