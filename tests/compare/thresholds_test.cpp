// SPDX-License-Identifier: Apache-2.0
#include "compare/thresholds.hpp"

#include <string>

#include <gtest/gtest.h>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>

namespace kerntime {
namespace {

TEST(CompareThresholds, ParsesPercentagesAndFractions) {
  EXPECT_DOUBLE_EQ(parse_fraction("5%"), 0.05);
  EXPECT_DOUBLE_EQ(parse_fraction(" 2.5 % "), 0.025);
  EXPECT_DOUBLE_EQ(parse_fraction("0.03"), 0.03);
  EXPECT_DOUBLE_EQ(parse_fraction("0%"), 0.0);
}

TEST(CompareThresholds, RejectsAmbiguousAndInvalidValues) {
  EXPECT_THROW(parse_fraction("5"), Error);  // 5 % or 500 %? Say which.
  EXPECT_THROW(parse_fraction("abc"), Error);
  EXPECT_THROW(parse_fraction("%"), Error);
  EXPECT_THROW(parse_fraction("-1%"), Error);
  EXPECT_THROW(parse_fraction("100%"), Error);
  EXPECT_THROW(parse_fraction("0x1p-3"), Error);
  EXPECT_THROW(parse_fraction("inf%"), Error);
  try {
    parse_fraction("5");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("5%"), std::string::npos) << e.what();
  }
}

TEST(CompareThresholds, GlobMatching) {
  EXPECT_TRUE(glob_match("gemm/*", "gemm/fp16"));
  EXPECT_TRUE(glob_match("gemm/*", "gemm/fp16/large"));  // '*' crosses '/'
  EXPECT_TRUE(glob_match("gemm/*", "gemm/"));
  EXPECT_FALSE(glob_match("gemm/*", "gemm"));
  EXPECT_FALSE(glob_match("gemm/*", "sgemm/fp16"));
  EXPECT_TRUE(glob_match("*copy*", "device_copy_4GiB"));
  EXPECT_TRUE(glob_match("k?", "k1"));
  EXPECT_FALSE(glob_match("k?", "k12"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("a*b*c", "aXXbYYbZc"));
  EXPECT_FALSE(glob_match("a*b*c", "aXXbYYbZ"));
  EXPECT_TRUE(glob_match("exact", "exact"));
  EXPECT_FALSE(glob_match("exact", "exactly"));
}

TEST(CompareThresholds, BareValueSetsDefaultAndLaterPatternsWin) {
  Thresholds t;
  EXPECT_DOUBLE_EQ(t.for_entry("anything"), 0.05);
  t.add("gemm/*=10%");
  t.add("gemm/fp16=20%");
  t.add("3%");  // sets the default wherever it appears; patterns keep their values
  EXPECT_DOUBLE_EQ(t.default_fraction, 0.03);
  EXPECT_DOUBLE_EQ(t.for_entry("saxpy"), 0.03);
  EXPECT_DOUBLE_EQ(t.for_entry("gemm/fp32"), 0.10);
  EXPECT_DOUBLE_EQ(t.for_entry("gemm/fp16"), 0.20);
  t.add("gemm/*=1%");  // later and broader: overrides the fp16 rule too
  EXPECT_DOUBLE_EQ(t.for_entry("gemm/fp16"), 0.01);
}

TEST(CompareThresholds, RejectsAPatternWithoutName) {
  Thresholds t;
  EXPECT_THROW(t.add("=5%"), Error);
  EXPECT_THROW(t.add("gemm/*=lots"), Error);
  EXPECT_TRUE(t.rules.empty());
}

}  // namespace
}  // namespace kerntime
