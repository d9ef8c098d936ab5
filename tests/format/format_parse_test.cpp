// SPDX-License-Identifier: Apache-2.0
// parse_format() and parse_compare_format() names, and render()'s dispatch.
#include <gtest/gtest.h>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/report_json.hpp>

#include "report/sample_report.hpp"

namespace kerntime {
namespace {

TEST(ParseFormat, AcceptsEveryDocumentedName) {
  EXPECT_EQ(parse_format("table"), Format::table);
  EXPECT_EQ(parse_format("md"), Format::markdown);
  EXPECT_EQ(parse_format("markdown"), Format::markdown);
  EXPECT_EQ(parse_format("csv"), Format::csv);
  EXPECT_EQ(parse_format("json"), Format::json);
}

TEST(ParseFormat, RejectsOtherNamesListingTheChoices) {
  for (const char* name : {"xml", "", "JSON", "table "}) {
    SCOPED_TRACE(name);
    try {
      parse_format(name);
      FAIL() << "expected kerntime::Error";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("unknown format \"") + name + "\": choose table, md, csv or json");
    }
  }
}

// One parser words both commands' errors alike; each lists its own choices.
TEST(ParseFormat, CompareFormatsAreParsedAndWordedTheSameWay) {
  EXPECT_EQ(parse_compare_format("md"), CompareFormat::markdown);
  EXPECT_EQ(parse_compare_format("markdown"), CompareFormat::markdown);
  EXPECT_EQ(parse_compare_format("junit"), CompareFormat::junit);
  EXPECT_EQ(parse_compare_format("html"), CompareFormat::html);
  try {
    parse_compare_format("csv");
    FAIL() << "expected kerntime::Error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "unknown format \"csv\": choose table, md, json, junit or html");
  }
}

TEST(Render, JsonIsToJson) {
  const Report report = testing::sample_report();
  EXPECT_EQ(render(report, Format::json), to_json(report));
}

TEST(Render, EveryFormatEndsWithANewline) {
  for (const Format format : {Format::table, Format::markdown, Format::csv, Format::json}) {
    const std::string text = render(testing::sample_report(), format);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n');
  }
}

TEST(Render, UnknownEnumValueIsAnError) {
  EXPECT_THROW(render(Report{}, static_cast<Format>(42)), Error);
}

}  // namespace
}  // namespace kerntime
