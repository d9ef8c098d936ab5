// SPDX-License-Identifier: Apache-2.0
// The one JSON string policy: every JSON kerntime writes escapes strings alike and replaces
// bytes that are not UTF-8 with U+FFFD; a bad kernel name never makes invalid JSON or an error.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/compare.hpp>
#include <kerntime/report.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/trace.hpp>
#include <kerntime/trace_format.hpp>

#include "io/json_text.hpp"

namespace kerntime {
namespace {

using Json = nlohmann::json;
const std::string kReplacement = "\xEF\xBF\xBD";

// Valid, invalid and truncated UTF-8, overlong forms, surrogates, control characters.
const std::vector<std::string> kSamples = {
    "",
    "plain",
    "quote \" backslash \\ slash /",
    std::string("controls \b\f\n\r\t \x01\x1f\x7f end"),
    std::string("nul \0 inside", 12),
    "gemm<float, 128> \xC3\xA9\xE2\x82\xAC\xF0\x9F\x9A\x80",
    "lone continuation \x80 and \xBF",
    "bad lead \xC0\xAF \xC1\xBF \xF5\x80 \xFF",
    "truncated \xE2\x82",
    "truncated at end \xF0\x9F\x9A",
    "overlong \xE0\x80\xAF \xF0\x80\x80\xAF",
    "surrogate \xED\xA0\x80",
    "above max \xF4\x90\x80\x80",
    "two in a row \xE2\x82\xE2\x82\xAC",
    "\xff",
};

TEST(JsonStringPolicy, EscapesExactlyAsTheNlohmannDumps) {
  for (const std::string& text : kSamples) {
    EXPECT_EQ(io::json_string(text), io::dump_json(Json(text))) << text;
  }
}

TEST(JsonStringPolicy, ReplacesEachIllFormedSequenceOnce) {
  EXPECT_EQ(io::valid_utf8("ok \xC3\xA9"), "ok \xC3\xA9");
  EXPECT_EQ(io::valid_utf8("a\xffz"), "a" + kReplacement + "z");
  EXPECT_EQ(io::valid_utf8("\xE2\x82z"), kReplacement + "z");          // a truncated sequence: one
  EXPECT_EQ(io::valid_utf8("\xC0\xAF"), kReplacement + kReplacement);  // never valid: each
  for (const std::string& text : kSamples) {
    const std::string quoted = io::json_string(text);
    EXPECT_EQ(Json::parse(quoted).get<std::string>(), io::valid_utf8(text)) << text;
  }
}

Report report_with_names(const std::vector<std::string>& names) {
  Report report;
  for (const std::string& name : names) {
    Entry entry;
    entry.name = name;
    entry.samples = {100, 101, 102, 103, 104, 105};
    entry.statistics = compute_statistics(entry.samples);
    report.entries.push_back(entry);
  }
  return report;
}

// A value dumped alone and indented as it reads nested is the whole document's dump, line for
// line, at every depth, with text after the last line break and without any.
TEST(NestedJson, IndentsEveryLineAsTheWholeDocumentsDump) {
  const Json value = {{"name", "k\nline"}, {"samples", {1.5, 2.0, 3.25}}, {"empty", Json::array()}};
  for (int levels = 0; levels < 4; ++levels) {
    Json document = value;
    for (int i = 0; i < levels; ++i)
      document = Json::array({document});
    const std::string whole = io::dump_json(document, 2);
    const std::string nested = io::nested_json(io::dump_json(value, 2), levels);
    // The value's first brace begins its line after its depth's indent; from there on the
    // document reads as the nested text.
    const std::size_t brace = whole.find('{');
    const std::size_t line = whole.rfind('\n', brace);
    const std::size_t indent = line == std::string::npos ? brace : brace - line - 1;
    EXPECT_EQ(indent, static_cast<std::size_t>(levels) * 2) << whole;
    EXPECT_EQ(whole.substr(brace, nested.size()), nested) << "levels " << levels;
  }
  EXPECT_EQ(io::nested_json("", 2), "");
  EXPECT_EQ(io::nested_json("a", 2), "a");
  EXPECT_EQ(io::nested_json("a\n", 1), "a\n  ");
  EXPECT_EQ(io::nested_json("\n\nb", 2), "\n    \n    b");
}

TEST(JsonStringPolicy, ReportJson) {
  Report report = report_with_names({"kernel\xff", "ok"});
  report.warnings.push_back("bad \xC3");
  const Json json = Json::parse(to_json(report));  // strict: throws on invalid UTF-8
  EXPECT_EQ(json["entries"][0]["name"], "kernel" + kReplacement);
  EXPECT_EQ(json["warnings"][0], "bad " + kReplacement);
}

TEST(JsonStringPolicy, CompareJson) {
  const Report baseline = report_with_names({"kernel\xff", "gone\xfe"});
  const Report candidate = report_with_names({"kernel\xff", "new\xfd"});
  const Comparison comparison = compare(baseline, candidate);
  const Json json = Json::parse(render(comparison, CompareFormat::json));
  const std::string text = json.dump();
  EXPECT_NE(text.find("kernel" + kReplacement), std::string::npos) << text;
  EXPECT_NE(text.find("gone" + kReplacement), std::string::npos) << text;
  EXPECT_NE(text.find("new" + kReplacement), std::string::npos) << text;
}

TEST(JsonStringPolicy, ChromeTrace) {
  static const std::string name = "gemm\xff<\"q\">\n";
  static const std::string scope = "scope\xC3";
  Trace trace;
  KernelActivity kernel;
  kernel.name = name;
  kernel.mangled_name = name;
  kernel.scope_name = scope;
  kernel.start_ns = 1000;
  kernel.end_ns = 3000;
  trace.kernels.push_back(kernel);
  const Json json = Json::parse(to_chrome_trace(trace));
  bool found = false;
  for (const Json& event : json["traceEvents"]) {
    if (event["cat"] == "kernel") {
      EXPECT_EQ(event["name"], "gemm" + kReplacement + "<\"q\">\n");
      EXPECT_EQ(event["args"]["scope"], "scope" + kReplacement);
      found = true;
    }
  }
  EXPECT_TRUE(found) << json.dump(2);
}

}  // namespace
}  // namespace kerntime
