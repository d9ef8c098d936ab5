// SPDX-License-Identifier: Apache-2.0
// format_duration(): 4 significant digits, unit chosen after rounding, sign kept.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include <kerntime/format.hpp>

namespace kerntime {
namespace {

TEST(FormatDuration, UsesOneUnitPerMagnitude) {
  EXPECT_EQ(format_duration(812), "812.0 ns");
  EXPECT_EQ(format_duration(2593), "2.593 us");
  EXPECT_EQ(format_duration(1006000), "1.006 ms");
  EXPECT_EQ(format_duration(12.35e9), "12.35 s");
  EXPECT_EQ(format_duration(1), "1.000 ns");
  EXPECT_EQ(format_duration(45.25), "45.25 ns");
  EXPECT_EQ(format_duration(1000), "1.000 us");
  EXPECT_EQ(format_duration(1e6), "1.000 ms");
  EXPECT_EQ(format_duration(1e9), "1.000 s");
}

TEST(FormatDuration, RoundsToFourSignificantDigits) {
  EXPECT_EQ(format_duration(814.15625), "814.2 ns");
  EXPECT_EQ(format_duration(2595.625), "2.596 us");
  EXPECT_EQ(format_duration(1007570.7), "1.008 ms");
  EXPECT_EQ(format_duration(123456789), "123.5 ms");
  EXPECT_EQ(format_duration(99999), "100.0 us");
}

TEST(FormatDuration, RoundingUpToTheNextUnitChangesTheUnit) {
  EXPECT_EQ(format_duration(999.96), "1.000 us");
  EXPECT_EQ(format_duration(999.95), "1.000 us");  // 999.950000000000045 as a double
  EXPECT_EQ(format_duration(999.94), "999.9 ns");
  EXPECT_EQ(format_duration(999949), "999.9 us");
  EXPECT_EQ(format_duration(999950.1), "1.000 ms");
  EXPECT_EQ(format_duration(999999999), "1.000 s");
  EXPECT_EQ(format_duration(9.9996), "10.00 ns");
  EXPECT_EQ(format_duration(99.996), "100.0 ns");
}

TEST(FormatDuration, ZeroHasNoDecimalsAndNoSign) {
  EXPECT_EQ(format_duration(0.0), "0 ns");
  EXPECT_EQ(format_duration(-0.0), "0 ns");
}

TEST(FormatDuration, NegativeDurationsKeepTheirSign) {
  EXPECT_EQ(format_duration(-1500), "-1.500 us");
  EXPECT_EQ(format_duration(-812), "-812.0 ns");
  EXPECT_EQ(format_duration(-999.96), "-1.000 us");
  EXPECT_EQ(format_duration(-2.5e9), "-2.500 s");
  EXPECT_EQ(format_duration(-0.25), "-0.2500 ns");
}

TEST(FormatDuration, BelowOneNanosecondStaysInNanoseconds) {
  EXPECT_EQ(format_duration(0.5), "0.5000 ns");
  EXPECT_EQ(format_duration(0.0012345), "0.001234 ns");
  EXPECT_EQ(format_duration(0.99996), "1.000 ns");
}

TEST(FormatDuration, SecondsDoNotSwitchToExponents) {
  EXPECT_EQ(format_duration(999.96e9), "1000 s");
  EXPECT_EQ(format_duration(1234.5e9), "1234 s");  // 1234.5 rounds half to even
  EXPECT_EQ(format_duration(12345.6e9), "12346 s");
  EXPECT_EQ(format_duration(3.6e15), "3600000 s");
}

// Infinity or NaN reach a view only from an overflow (a spread of samples near 1e308); the
// text layer is total, so the view shows a word instead of failing or printing "inf".
TEST(FormatDuration, NonFiniteValuesAreOverflow) {
  EXPECT_EQ(format_duration(std::nan("")), "overflow");
  EXPECT_EQ(format_duration(std::numeric_limits<double>::infinity()), "overflow");
  EXPECT_EQ(format_duration(-std::numeric_limits<double>::infinity()), "overflow");
}

// Fixed-point notation wrote 5e-324 ns as 323 zeros and 1e300 ns as 292 digits of seconds.
TEST(FormatDuration, ExtremesKeepFourDigitsWithAnExponent) {
  EXPECT_EQ(format_duration(5e-324), "4.941e-324 ns");
  EXPECT_EQ(format_duration(0.0001), "1.000e-04 ns");
  EXPECT_EQ(format_duration(0.00099996), "0.001000 ns");  // rounds up into fixed point
  EXPECT_EQ(format_duration(-2e-10), "-2.000e-10 ns");
  EXPECT_EQ(format_duration(999999999999e9), "999999999999 s");  // 12 digits, 31,700 years
  EXPECT_EQ(format_duration(1e21), "1.000e+12 s");
  EXPECT_EQ(format_duration(1e300), "1.000e+291 s");
  EXPECT_EQ(format_duration(-std::numeric_limits<double>::max()), "-1.798e+299 s");
}

}  // namespace
}  // namespace kerntime
