// SPDX-License-Identifier: Apache-2.0
// How often each verdict came out of a simulation's pairs: the one tally the simulation tests of
// the within-run and the per-process rules share.
#pragma once

#include <gtest/gtest.h>

#include <kerntime/compare.hpp>

namespace kerntime::testing {

/// Shares of the pairs that ended in each verdict, from 0 to 1.
struct VerdictRates {
  double regressed = 0.0;
  double same = 0.0;
  double inconclusive = 0.0;
  double improved = 0.0;
};

/// Calls `decide(i)` for each of `pairs` simulated pairs and tallies the verdicts it returns.
/// A paired entry is never added or removed, so those verdicts fail the test.
template <class Decide>
VerdictRates verdict_rates(int pairs, Decide decide) {
  int counts[4] = {0, 0, 0, 0};
  for (int i = 0; i < pairs; ++i) {
    switch (decide(i)) {
      case Verdict::regressed:
        ++counts[0];
        break;
      case Verdict::same:
        ++counts[1];
        break;
      case Verdict::inconclusive:
        ++counts[2];
        break;
      case Verdict::improved:
        ++counts[3];
        break;
      default:
        ADD_FAILURE() << "a paired entry cannot be added or removed";
    }
  }
  const auto rate = [pairs](int count) { return static_cast<double>(count) / pairs; };
  return VerdictRates{rate(counts[0]), rate(counts[1]), rate(counts[2]), rate(counts[3])};
}

}  // namespace kerntime::testing
