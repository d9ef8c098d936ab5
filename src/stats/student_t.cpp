// SPDX-License-Identifier: Apache-2.0
#include "stats/student_t.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <kerntime/error.hpp>

namespace kerntime::stats {
namespace {

// The continued fraction of I_x(a, b), valid (fast converging) for x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double x, double a, double b) {
  constexpr int kMaxIterations = 1000;
  constexpr double kEpsilon = 1e-15;
  constexpr double kTiny = 1e-300;
  const double qab = a + b;
  const double qap = a + 1.0;
  const double qam = a - 1.0;
  double c = 1.0;
  double d = 1.0 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= kMaxIterations; ++m) {
    const double m2 = 2.0 * m;
    // Even step.
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    // Odd step.
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1.0) < kEpsilon) return h;
  }
  return h;  // not reached for the a, b of a t distribution; the last value is still close
}

}  // namespace

double regularized_incomplete_beta(double x, double a, double b) {
  if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0) || !(x <= 1.0)) {
    throw Error("regularized_incomplete_beta: needs a > 0, b > 0 and x in [0, 1] (got x = " +
                std::to_string(x) + ", a = " + std::to_string(a) + ", b = " + std::to_string(b) +
                ")");
  }
  if (x == 0.0) return 0.0;
  if (x == 1.0) return 1.0;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  // The symmetry I_x(a, b) = 1 - I_{1-x}(b, a) keeps the fraction in its fast region.
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_continued_fraction(x, a, b) / a;
  return 1.0 - front * beta_continued_fraction(1.0 - x, b, a) / b;
}

double student_t_cdf(double t, double df) {
  if (!(df > 0.0)) {
    throw Error("student_t_cdf: the degrees of freedom must be positive (got " +
                std::to_string(df) + ")");
  }
  if (std::isnan(t)) throw Error("student_t_cdf: t is NaN");
  if (std::isinf(t)) return t > 0.0 ? 1.0 : 0.0;
  // P(|T| >= |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2).
  const double tail = 0.5 * regularized_incomplete_beta(df / (df + t * t), df / 2.0, 0.5);
  return t >= 0.0 ? 1.0 - tail : tail;
}

double student_t_two_sided_p(double t, double df) {
  if (!(df > 0.0)) {
    throw Error("student_t_two_sided_p: the degrees of freedom must be positive (got " +
                std::to_string(df) + ")");
  }
  if (std::isnan(t)) throw Error("student_t_two_sided_p: t is NaN");
  if (std::isinf(t)) return 0.0;
  // Computed from the tail directly, so a tiny p is not lost to 1 - cdf rounding.
  return regularized_incomplete_beta(df / (df + t * t), df / 2.0, 0.5);
}

double student_t_quantile(double p, double df) {
  if (!(df > 0.0)) {
    throw Error("student_t_quantile: the degrees of freedom must be positive (got " +
                std::to_string(df) + ")");
  }
  if (!(p > 0.0) || !(p < 1.0)) {
    throw Error("student_t_quantile: p must lie strictly between 0 and 1 (got " +
                std::to_string(p) + ")");
  }
  if (p == 0.5) return 0.0;
  // By symmetry, solve for the upper tail and mirror.
  const double upper = p > 0.5 ? 1.0 - p : p;  // the tail mass beyond |t|
  // Bracket: the tail at `high` is below `upper` once high is large enough (doubling).
  double low = 0.0;
  double high = 1.0;
  while (0.5 * student_t_two_sided_p(high, df) > upper) {
    low = high;
    high *= 2.0;
    if (high > 1e300) break;  // p so small that t overflows; return the bracket end
  }
  // Bisection: the tail is monotone in t, so it always converges, and 200 halvings reach the
  // resolution of a double whatever the bracket.
  for (int i = 0; i < 200 && high - low > 1e-13 * high; ++i) {
    const double mid = 0.5 * (low + high);
    if (0.5 * student_t_two_sided_p(mid, df) > upper) {
      low = mid;
    } else {
      high = mid;
    }
  }
  const double t = 0.5 * (low + high);
  return p > 0.5 ? t : -t;
}

}  // namespace kerntime::stats
