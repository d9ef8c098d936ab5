// SPDX-License-Identifier: Apache-2.0
// Steps in a benchmark's history: the points of a series of reports (one per commit) after which
// an entry's level moved by more than a relative threshold and by more than the noise between
// processes lets chance explain. Binary segmentation on the logarithm of the medians, so that a
// step is a ratio and the noise a relative one, as `kerntime compare` judges a change.
#pragma once

#include <cstddef>
#include <vector>

namespace kerntime::stats {

/// One point of the series: an entry's median in one report and, when that report holds several
/// runs (processes), each run's median. A median <= 0 or not finite makes the series unusable.
struct TrendPoint {
  double median = 0.0;
  std::vector<double> run_medians{};
  /// The same measurement as the point before (one report given for two commits): its
  /// difference from that point says nothing of the noise.
  bool repeats_previous = false;
};

struct ChangePointOptions {
  double threshold = 0.05;  ///< smallest relative step worth marking, as compare's threshold
  /// How many standard errors of a level's difference a step must exceed. Four keeps a series
  /// of 20 points of pure noise from being marked in practice (about 1 in 16,000 per split).
  double sigmas = 4.0;
};

/// A step: the points from `index` on sit at another level than those before.
struct ChangePoint {
  std::size_t index = 0;
  /// Level after / level before - 1, each level the geometric mean of the points between this
  /// step and its neighbours (or the ends).
  double change = 0.0;
};

struct ChangePoints {
  std::vector<ChangePoint> steps;  ///< by index
  /// The relative noise of one point between processes that the steps were judged against:
  /// the larger of the series' own (from its successive differences, robust to the steps, leaving
  /// out points that repeat the one before) and the spread of the runs inside the points. 0: not
  /// known (fewer than two differences, no runs) or none seen; then the threshold decides.
  double noise = 0.0;
  bool usable = true;  ///< false: a median was <= 0 or not finite; no steps were looked for
};

/// The steps of `points` (in order, oldest first). A step is accepted where the means of the
/// logarithms before and after differ by more than log(1 + threshold) and by more than `sigmas`
/// times noise * sqrt(1/n_before + 1/n_after); then each side is searched again. Each step's
/// change is then said against the levels on its sides, and a step that is under the threshold
/// so said is dropped.
ChangePoints find_change_points(const std::vector<TrendPoint>& points,
                                const ChangePointOptions& options = {});

}  // namespace kerntime::stats
