// SPDX-License-Identifier: Apache-2.0
// Student's t against closed forms (df = 1 is Cauchy, df = 2 has an algebraic CDF) and against
// table values (R's qt / pt, SciPy's stats.t agree to the digits given).
#include "stats/student_t.hpp"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>

namespace kerntime::stats {
namespace {

TEST(StudentT, IncompleteBetaClosedForms) {
  // I_x(1, 1) = x; I_x(a, 1) = x^a; I_0.5(2, 3) = 11 / 16 (a binomial sum).
  EXPECT_NEAR(regularized_incomplete_beta(0.3, 1.0, 1.0), 0.3, 1e-14);
  EXPECT_NEAR(regularized_incomplete_beta(0.7, 3.0, 1.0), 0.343, 1e-14);
  EXPECT_NEAR(regularized_incomplete_beta(0.5, 2.0, 3.0), 11.0 / 16.0, 1e-14);
  // Symmetry I_x(a, b) = 1 - I_{1-x}(b, a) on both branches of the continued fraction.
  EXPECT_NEAR(regularized_incomplete_beta(0.2, 4.5, 0.5),
              1.0 - regularized_incomplete_beta(0.8, 0.5, 4.5), 1e-14);
  EXPECT_EQ(regularized_incomplete_beta(0.0, 2.0, 3.0), 0.0);
  EXPECT_EQ(regularized_incomplete_beta(1.0, 2.0, 3.0), 1.0);
}

TEST(StudentT, CdfKnownValues) {
  EXPECT_NEAR(student_t_cdf(2.0, 10.0), 0.963306, 1e-6);
  EXPECT_NEAR(student_t_cdf(-2.0, 10.0), 0.036694, 1e-6);
  EXPECT_NEAR(student_t_cdf(1.0, 1.0), 0.75, 1e-14);  // Cauchy: 1/2 + atan(t) / pi
  EXPECT_NEAR(student_t_cdf(-3.0, 1.0), 0.5 + std::atan(-3.0) / M_PI, 1e-14);
  EXPECT_NEAR(student_t_cdf(1.0, 2.0), 0.5 + 1.0 / (2.0 * std::sqrt(3.0)), 1e-14);
  EXPECT_EQ(student_t_cdf(0.0, 5.0), 0.5);
  // Large df tends to the normal distribution: Phi(1.96) = 0.9750021.
  EXPECT_NEAR(student_t_cdf(1.96, 1e7), 0.9750021, 1e-6);
  // Non-integer df (Welch): monotone between its integer neighbours.
  EXPECT_GT(student_t_cdf(2.0, 4.5), student_t_cdf(2.0, 4.0));
  EXPECT_LT(student_t_cdf(2.0, 4.5), student_t_cdf(2.0, 5.0));
}

TEST(StudentT, TwoSidedPKeepsTinyValues) {
  EXPECT_NEAR(student_t_two_sided_p(2.0, 10.0), 2.0 * 0.036694, 2e-6);
  // 1 - cdf would round to 0 here; the tail is computed directly.
  const double p = student_t_two_sided_p(60.0, 8.0);
  EXPECT_GT(p, 0.0);
  EXPECT_LT(p, 1e-10);
}

TEST(StudentT, QuantileKnownValues) {
  EXPECT_NEAR(student_t_quantile(0.995, 8.0), 3.355387, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.975, 4.0), 2.776445, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.975, 1.0), 12.706205, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.995, 1.0), 63.656741, 1e-5);
  EXPECT_NEAR(student_t_quantile(0.95, 30.0), 1.697261, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.025, 4.0), -2.776445, 1e-6);
  EXPECT_EQ(student_t_quantile(0.5, 3.0), 0.0);
  EXPECT_NEAR(student_t_quantile(0.975, 1e7), 1.959964, 1e-5);
}

TEST(StudentT, QuantileInvertsCdf) {
  for (double df : {0.5, 1.0, 2.0, 3.7, 8.0, 40.0, 1000.0}) {
    for (double p : {1e-9, 0.001, 0.005, 0.1, 0.3, 0.7, 0.9, 0.995, 0.999999}) {
      const double t = student_t_quantile(p, df);
      EXPECT_NEAR(student_t_cdf(t, df), p, 1e-9 * std::max(1.0, p / (1.0 - p)))
          << "p " << p << ", df " << df;
    }
  }
}

TEST(StudentT, RejectsBadArguments) {
  EXPECT_THROW(student_t_cdf(1.0, 0.0), Error);
  EXPECT_THROW(student_t_cdf(std::nan(""), 3.0), Error);
  EXPECT_THROW(student_t_quantile(0.0, 3.0), Error);
  EXPECT_THROW(student_t_quantile(1.0, 3.0), Error);
  EXPECT_THROW(student_t_quantile(0.5, -1.0), Error);
  EXPECT_THROW(regularized_incomplete_beta(1.5, 1.0, 1.0), Error);
}

}  // namespace
}  // namespace kerntime::stats
