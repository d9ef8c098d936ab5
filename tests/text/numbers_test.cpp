// SPDX-License-Identifier: Apache-2.0
// The number formats of the text layer (text/numbers.hpp) are total: infinity, NaN, 1e300 and
// denormals give a fixed word or an exponent, never "inf", "nan" or hundreds of digits.
#include "text/numbers.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/duration.hpp>

#include "support/readable_text.hpp"

namespace kerntime::text {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kDenormal = 5e-324;
const double kNan = std::nan("");

TEST(FormatNumbers, ChangesThatDoNotFitAreTooLargeToCompare) {
  EXPECT_EQ(format_change(1.102), "+10.2%");
  EXPECT_EQ(format_change(0.95), "-5.0%");
  EXPECT_EQ(format_change(0.0), "-100.0%");
  EXPECT_EQ(format_change(kInf), "too large to compare");
  EXPECT_EQ(format_change(kNan), "too large to compare");
  EXPECT_EQ(format_change(1e300 / kDenormal), "too large to compare");  // overflows to inf
  EXPECT_EQ(format_change(1e300), "too large to compare");
  // The largest change shown: just under 1e10 %, 12 digits.
  EXPECT_EQ(format_change(1e8), "+9999999900.0%");
  EXPECT_EQ(format_change(1e8 + 2), "too large to compare");
}

TEST(FormatNumbers, ChangeSizesAndPercentages) {
  EXPECT_EQ(format_change_size(0.102), "10.2%");
  EXPECT_EQ(format_change_size(-0.05), "5.0%");
  EXPECT_EQ(format_change_size(kInf), "too large to compare");
  EXPECT_EQ(format_change_size(kNan), "too large to compare");
  EXPECT_EQ(format_change_size(1e300), "too large to compare");
  EXPECT_TRUE(change_fits(99999999.0));
  EXPECT_FALSE(change_fits(1e8));
  EXPECT_FALSE(change_fits(-kInf));
  EXPECT_EQ(format_percent(0.05), "5%");
  EXPECT_EQ(format_percent(kInf), "too large to compare");
  EXPECT_EQ(format_percent(kNan), "too large to compare");
  EXPECT_EQ(format_percent(1e300), "1e+302%");
}

TEST(FormatNumbers, PValuesThatAreNotNumbersAreUndefined) {
  EXPECT_EQ(format_p(0.0034), "0.003");
  EXPECT_EQ(format_p(kNan), "undefined");
  EXPECT_EQ(format_p(kInf), "undefined");
  EXPECT_EQ(p_clause(kNan), "p undefined");
  EXPECT_EQ(p_clause(0.0), "p < 1e-15");
}

TEST(FormatNumbers, FixedDecimalsUpToTwelveDigitsThenAnExponent) {
  EXPECT_EQ(format_fixed(3909.04, 1), "3909.0");
  EXPECT_EQ(format_fixed(10.8375, 3), "10.838");
  EXPECT_EQ(format_fixed(1977.4, 0), "1977");
  EXPECT_EQ(format_fixed(99999999999.94, 1), "99999999999.9");
  EXPECT_EQ(format_fixed(99999999999.96, 1), "1.000e+11");  // would round to 13 digits
  EXPECT_EQ(format_fixed(1e290, 1), "1.000e+290");
  EXPECT_EQ(format_fixed(-1e290, 3), "-1.000e+290");
  EXPECT_EQ(format_fixed(kDenormal, 1), "0.0");
  EXPECT_EQ(format_fixed(kInf, 1), "overflow");
  EXPECT_EQ(format_fixed(kNan, 3), "overflow");
  EXPECT_EQ(format_percent_value(79.5, 1), "79.5%");
  EXPECT_EQ(format_percent_value(1e300, 2), "1.000e+300%");
  EXPECT_EQ(format_percent_value(kInf, 1), "overflow");
}

TEST(FormatNumbers, SiPrefixesEndAtExa) {
  EXPECT_EQ(format_si(1'234'567.0), "1.235M");
  EXPECT_EQ(format_si(999.9e18), "999.9E");
  EXPECT_EQ(format_si(1e21), "1.000e+21");
  EXPECT_EQ(format_si(1e300), "1.000e+300");
  EXPECT_EQ(format_si(-1e300), "-1.000e+300");
  EXPECT_EQ(format_si(kDenormal), "4.941e-324");
  EXPECT_EQ(format_si(kInf), "overflow");
  EXPECT_EQ(format_si(kNan), "overflow");
}

TEST(FormatNumbers, AmountsAndWholeNanoseconds) {
  EXPECT_EQ(format_amount(1.5, "ms"), "1.500 ms");
  EXPECT_EQ(format_amount(1e300, "ns"), "1.000e+291 s");
  EXPECT_EQ(format_amount(1e300, "s"), "1.000e+300 s");  // more ns than a double holds
  EXPECT_EQ(format_amount(kDenormal, "ns"), "4.941e-324 ns");
  EXPECT_EQ(format_amount(2.5, "cycles"), "2.5 cycles");
  EXPECT_EQ(format_amount(kInf, "ns"), "overflow");
  EXPECT_EQ(format_amount(kNan, "cycles"), "overflow");
  EXPECT_EQ(format_whole_ns(400.0), "400 ns");
  EXPECT_EQ(format_whole_ns(999999999999.0), "999999999999 ns");
  EXPECT_EQ(format_whole_ns(1.5e298), "1.500e+289 s");
  EXPECT_EQ(format_whole_ns(kInf), "overflow");
}

TEST(FormatNumbers, ExactNumbersForCsvLeaveNonFiniteValuesEmpty) {
  EXPECT_EQ(format_exact(815.75), "815.75");
  EXPECT_EQ(format_exact(1e300), "1e+300");
  EXPECT_EQ(format_exact(kDenormal), "5e-324");
  EXPECT_EQ(format_exact(kInf), "");
  EXPECT_EQ(format_exact(kNan), "");
}

// Every format of the layer, fed the values that broke the views, stays readable.
TEST(FormatNumbers, NoExtremeValueGivesInfNanOrAWallOfDigits) {
  const double values[] = {kInf,   -kInf, kNan, 1e300, -1e300, kDenormal,
                           1e-300, 1e21,  1e12, 0.0,   -0.0,   std::numeric_limits<double>::max()};
  for (const double v : values) {
    for (const std::string& text :
         {format_change(v), format_change_size(v), format_percent(v), format_p(v), p_clause(v),
          format_fixed(v, 0), format_fixed(v, 1), format_fixed(v, 3), format_percent_value(v, 2),
          format_amount(v, "ns"), format_amount(v, "s"), format_amount(v, "cycles"),
          format_whole_ns(v), format_si(v), format_duration(v)}) {
      EXPECT_EQ(testing::unreadable_part(text), "") << v << " gave '" << text << "'";
    }
  }
}

}  // namespace
}  // namespace kerntime::text
