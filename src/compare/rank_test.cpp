// SPDX-License-Identifier: Apache-2.0
#include "compare/rank_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace kerntime::compare_detail {
namespace {

struct Ranked {
  double u = 0.0;
  double tie_term = 0.0;  // sum of t^3 - t over groups of t tied values
};

// Ranks the pooled samples once: U follows from b's rank sum, and the tie groups found on the way
// give the variance correction.
Ranked rank_pooled(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<std::pair<double, bool>> pooled;  // (value, from b)
  pooled.reserve(a.size() + b.size());
  for (double v : a) {
    pooled.emplace_back(v, false);
  }
  for (double v : b) {
    pooled.emplace_back(v, true);
  }
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });

  Ranked result;
  double rank_sum_b = 0.0;
  std::size_t i = 0;
  while (i < pooled.size()) {
    std::size_t j = i + 1;
    while (j < pooled.size() && pooled[j].first == pooled[i].first)
      ++j;
    const double t = static_cast<double>(j - i);
    const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum_b += mid_rank;
    }
    result.tie_term += t * t * t - t;
    i = j;
  }
  const double m = static_cast<double>(b.size());
  result.u = rank_sum_b - m * (m + 1.0) / 2.0;
  return result;
}

// Reports usually hold many entries with the same sample count, so the last distribution is
// kept: comparing 50 entries of 100 samples then costs one O(n^2 m) computation, not 100.
const std::vector<double>& cached_null_distribution(std::size_t n, std::size_t m) {
  struct Cache {
    std::size_t n = 0;
    std::size_t m = 0;
    std::vector<double> pmf;
  };
  thread_local Cache cache;
  if (cache.pmf.empty() || cache.n != n || cache.m != m) {
    cache.pmf = mann_whitney_null_distribution(n, m);
    cache.n = n;
    cache.m = m;
  }
  return cache.pmf;
}

}  // namespace

std::vector<double> mann_whitney_null_distribution(std::size_t n, std::size_t m) {
  // The counts of U are the coefficients of the Gaussian binomial coefficient
  // prod_{i=1..s} (1 - q^(l+i)) / (1 - q^i), s = min(n, m), l = max(n, m). Multiplying before
  // dividing keeps every intermediate a coefficient of a Gaussian binomial, so no huge partition
  // counts cancel; the largest value, C(n + m, n), is far inside double range at kExactMaxPairs.
  const std::size_t s = std::min(n, m);
  const std::size_t l = std::max(n, m);
  const std::size_t top = n * m;
  std::vector<double> c(top + 1, 0.0);
  c[0] = 1.0;
  for (std::size_t i = 1; i <= s; ++i) {
    const std::size_t shift = l + i;
    for (std::size_t k = top; k >= shift; --k) {
      c[k] -= c[k - shift];
    }
    for (std::size_t k = i; k <= top; ++k) {
      c[k] += c[k - i];
    }
  }
  double total = 0.0;
  for (double& v : c) {
    v = std::max(v, 0.0);  // rounding can leave -0.0 or -1e-300 where the count is zero
    total += v;
  }
  for (double& v : c) {
    v /= total;
  }
  return c;
}

double mann_whitney_sd(std::size_t n, std::size_t m, double tie_term) {
  const double nn = static_cast<double>(n);
  const double mm = static_cast<double>(m);
  const double big_n = nn + mm;
  if (big_n < 2.0) return 0.0;
  const double variance = nn * mm / 12.0 * ((big_n + 1.0) - tie_term / (big_n * (big_n - 1.0)));
  return variance > 0.0 ? std::sqrt(variance) : 0.0;
}

double mann_whitney_normal_p(double u, std::size_t n, std::size_t m, double tie_term) {
  const double sd = mann_whitney_sd(n, m, tie_term);
  if (sd == 0.0) return 1.0;  // every value tied: no evidence either way
  const double mean = static_cast<double>(n) * static_cast<double>(m) / 2.0;
  const double z = std::max(0.0, std::abs(u - mean) - 0.5) / sd;
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

RankTestResult mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  const Ranked ranked = rank_pooled(a, b);
  RankTestResult result;
  result.u = ranked.u;
  result.tie_term = ranked.tie_term;
  const std::size_t pairs = a.size() * b.size();
  if (ranked.tie_term == 0.0 && pairs <= kExactMaxPairs) {
    const std::vector<double>& pmf = cached_null_distribution(a.size(), b.size());
    // Without ties U is an integer; round away the representation error of the rank sum.
    const auto u = static_cast<std::size_t>(std::llround(ranked.u));
    double lower = 0.0;
    for (std::size_t k = 0; k <= u; ++k) {
      lower += pmf[k];
    }
    double upper = 0.0;
    for (std::size_t k = u; k < pmf.size(); ++k) {
      upper += pmf[k];
    }
    result.p_value = std::min(1.0, 2.0 * std::min(lower, upper));
    result.exact = true;
  } else {
    result.p_value = mann_whitney_normal_p(ranked.u, a.size(), b.size(), ranked.tie_term);
  }
  return result;
}

double smallest_two_sided_p(std::size_t n, std::size_t m) {
  if (n == 0 || m == 0) return 1.0;
  const double nn = static_cast<double>(n);
  const double mm = static_cast<double>(m);
  const double log_choose =
      std::lgamma(nn + mm + 1.0) - std::lgamma(nn + 1.0) - std::lgamma(mm + 1.0);
  return std::min(1.0, 2.0 * std::exp(-log_choose));
}

std::optional<std::size_t> excluded_differences(std::size_t n, std::size_t m, double level,
                                                bool exact, double tie_term) {
  const double tail = (1.0 - level) / 2.0;
  if (exact) {
    const std::vector<double>& pmf = cached_null_distribution(n, m);
    double cdf = 0.0;
    std::optional<std::size_t> excluded;
    for (std::size_t c = 0; c < pmf.size(); ++c) {
      cdf += pmf[c];
      if (cdf > tail) break;
      excluded = c;  // "at most c differences below zero" is still in the rejection region
    }
    return excluded;
  }
  // The normal test with continuity correction rejects in the lower tail when
  // U <= n m / 2 - 0.5 - z sd: the largest such U is the number of differences to exclude.
  const double half = static_cast<double>(n) * static_cast<double>(m) / 2.0;
  const double bound = half - 0.5 - normal_upper_quantile(tail) * mann_whitney_sd(n, m, tie_term);
  if (bound < 0.0) return std::nullopt;
  return static_cast<std::size_t>(std::floor(bound));
}

double normal_upper_quantile(double upper_tail) {
  // Bisection on erfc: called once per comparison, exact to double precision, no tables.
  double lo = -40.0;
  double hi = 40.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2.0;
    const double tail = 0.5 * std::erfc(mid / std::sqrt(2.0));
    if (tail > upper_tail) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return (lo + hi) / 2.0;
}

}  // namespace kerntime::compare_detail
