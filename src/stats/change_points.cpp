// SPDX-License-Identifier: Apache-2.0
#include "stats/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace kerntime::stats {
namespace {

// 1.4826 * MAD estimates the standard deviation of normal values.
constexpr double kMadToSigma = 1.4826;

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The noise of one point from the series itself: the differences of neighbours are noise of
// variance 2 sigma^2 except at the few steps, which the median of their sizes ignores.
// A point that repeats the one before (the same report given for two commits) says nothing of
// the noise and is left out. Equal medians of separate measurements stay: a timer of 32 ns
// steps gives them, and they are evidence of a quiet series. Fewer than two differences: the
// noise is not known from the series (0).
double series_noise(const std::vector<TrendPoint>& points, const std::vector<double>& logs) {
  std::vector<double> sizes;
  for (std::size_t i = 1; i < logs.size(); ++i) {
    if (!points[i].repeats_previous) sizes.push_back(std::fabs(logs[i] - logs[i - 1]));
  }
  if (sizes.size() < 2) return 0.0;
  return kMadToSigma * median_of(sizes) / std::sqrt(2.0);
}

// The noise of a point's median between processes, from the runs inside the points: the pooled
// variance of the runs' log medians over the number of runs a point holds.
double runs_noise(const std::vector<TrendPoint>& points) {
  double sum = 0.0;
  std::size_t pooled = 0;
  for (const TrendPoint& p : points) {
    const std::size_t r = p.run_medians.size();
    if (r < 2) continue;
    double mean = 0.0;
    for (const double m : p.run_medians)
      mean += std::log(m);
    mean /= static_cast<double>(r);
    double squares = 0.0;
    for (const double m : p.run_medians)
      squares += (std::log(m) - mean) * (std::log(m) - mean);
    sum += squares / static_cast<double>(r - 1) / static_cast<double>(r);
    ++pooled;
  }
  return pooled == 0 ? 0.0 : std::sqrt(sum / static_cast<double>(pooled));
}

void segment(const std::vector<double>& logs, std::size_t begin, std::size_t end, double noise,
             const ChangePointOptions& options, std::vector<ChangePoint>& steps) {
  if (end - begin < 2) return;
  std::vector<double> prefix(end - begin + 1, 0.0);
  for (std::size_t i = begin; i < end; ++i)
    prefix[i - begin + 1] = prefix[i - begin] + logs[i];
  const double total = prefix.back();
  std::size_t best = 0;
  double best_score = -1.0;
  double best_difference = 0.0;
  for (std::size_t k = begin + 1; k < end; ++k) {
    const double before = static_cast<double>(k - begin);
    const double after = static_cast<double>(end - k);
    const double left = prefix[k - begin] / before;
    const double right = (total - prefix[k - begin]) / after;
    const double score = std::fabs(right - left) / std::sqrt(1.0 / before + 1.0 / after);
    if (score > best_score) {
      best_score = score;
      best = k;
      best_difference = right - left;
    }
  }
  const bool beyond_threshold = std::fabs(best_difference) > std::log1p(options.threshold);
  const bool beyond_noise = best_score > options.sigmas * noise;
  if (!beyond_threshold || !beyond_noise) return;
  steps.push_back({best, std::expm1(best_difference)});
  segment(logs, begin, best, noise, options, steps);
  segment(logs, best, end, noise, options, steps);
}

}  // namespace

ChangePoints find_change_points(const std::vector<TrendPoint>& points,
                                const ChangePointOptions& options) {
  ChangePoints out;
  std::vector<double> logs;
  logs.reserve(points.size());
  for (const TrendPoint& p : points) {
    bool finite = std::isfinite(p.median) && p.median > 0.0;
    for (const double m : p.run_medians)
      finite = finite && std::isfinite(m) && m > 0.0;
    if (!finite) {
      out.usable = false;
      return out;
    }
    logs.push_back(std::log(p.median));
  }
  out.noise = std::max(series_noise(points, logs), runs_noise(points));
  segment(logs, 0, logs.size(), out.noise, options, out.steps);
  std::sort(out.steps.begin(), out.steps.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  // A split's own difference was taken against levels that later splits divided: each step is
  // said against its neighbouring levels, the segments between the steps. A step that is then
  // under the threshold is no step (its neighbours were the move); dropping it joins two
  // segments, so the rest are said again until every step passes.
  const auto level = [&logs](std::size_t begin, std::size_t end) {
    double sum = 0.0;
    for (std::size_t i = begin; i < end; ++i)
      sum += logs[i];
    return sum / static_cast<double>(end - begin);
  };
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (std::size_t s = 0; s < out.steps.size(); ++s) {
      const std::size_t begin = s == 0 ? 0 : out.steps[s - 1].index;
      const std::size_t end = s + 1 < out.steps.size() ? out.steps[s + 1].index : logs.size();
      const std::size_t at = out.steps[s].index;
      out.steps[s].change = std::expm1(level(at, end) - level(begin, at));
    }
    std::size_t smallest = out.steps.size();
    for (std::size_t s = 0; s < out.steps.size(); ++s) {
      const double size = std::fabs(std::log1p(out.steps[s].change));
      if (size <= std::log1p(options.threshold) &&
          (smallest == out.steps.size() ||
           size < std::fabs(std::log1p(out.steps[smallest].change)))) {
        smallest = s;
      }
    }
    if (smallest < out.steps.size()) {
      out.steps.erase(out.steps.begin() + static_cast<std::ptrdiff_t>(smallest));
      dropped = true;
    }
  }
  return out;
}

}  // namespace kerntime::stats
