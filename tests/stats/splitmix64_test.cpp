// SPDX-License-Identifier: Apache-2.0
// The one SplitMix64 (splitmix64.hpp) against the reference code's first outputs from seed 0, so
// that a change to it, which would move every bootstrap interval and every sample's padding, fails.
#include "stats/splitmix64.hpp"

#include <cstdint>

#include <gtest/gtest.h>

namespace kerntime::stats {
namespace {

TEST(SplitMix64, MatchesTheReferenceSequenceFromSeedZero) {
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64_next(state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64_next(state), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(splitmix64_next(state), 0x06c45d188009454fULL);
  EXPECT_EQ(state, 3 * 0x9e3779b97f4a7c15ULL);
}

TEST(SplitMix64, TheStepIsTheMixOfTheAdvancedState) {
  static_assert(splitmix64_mix(0) == 0, "the mix is a bijection fixing zero");
  std::uint64_t state = 42;
  const std::uint64_t next = splitmix64_next(state);
  EXPECT_EQ(state, 42 + 0x9e3779b97f4a7c15ULL);
  EXPECT_EQ(next, splitmix64_mix(state));
}

}  // namespace
}  // namespace kerntime::stats
