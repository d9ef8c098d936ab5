// SPDX-License-Identifier: Apache-2.0
// Student's t distribution: the reference distribution of a mean difference whose variance is
// estimated from a few values (compare's per-process rule, where the process is the unit).
#pragma once

namespace kerntime::stats {

/// The regularized incomplete beta function I_x(a, b) for a, b > 0 and x in [0, 1], by the
/// continued fraction of Numerical Recipes (modified Lentz), accurate to about 1e-14.
/// Throws kerntime::Error for arguments outside those ranges.
double regularized_incomplete_beta(double x, double a, double b);

/// P(T <= t) for Student's t with `df` > 0 degrees of freedom (df need not be an integer, so
/// Welch's approximation works too). Throws kerntime::Error when df <= 0 or t is NaN.
double student_t_cdf(double t, double df);

/// The t with P(T <= t) = p, for p in (0, 1) and df > 0: a bracketed bisection on the CDF, which
/// cannot diverge, to a relative precision of about 1e-12. Throws kerntime::Error otherwise.
double student_t_quantile(double p, double df);

/// Two-sided p of a t statistic: P(|T| >= |t|).
double student_t_two_sided_p(double t, double df);

}  // namespace kerntime::stats
