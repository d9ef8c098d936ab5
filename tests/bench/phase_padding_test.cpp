// SPDX-License-Identifier: Apache-2.0
// A sample's padding puts its timed work on a uniform random position, modulo 4, of its stream's
// launches, whatever its sequence number and whatever ran before it (phase_padding.hpp).
#include "bench/phase_padding.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

#include <gtest/gtest.h>

namespace kerntime::bench {
namespace {

// Where sample i's timed work falls, modulo 4, when each sample itself takes `per_sample`
// launches and the measurement starts at `start`: the padding of every sample so far counts.
std::array<std::size_t, kPhasePositions> positions(std::uint64_t first_seq, std::size_t samples,
                                                   unsigned per_sample, unsigned start) {
  std::array<std::size_t, kPhasePositions> count{};
  std::uint64_t position = start;
  for (std::size_t i = 0; i < samples; ++i) {
    position += padding_launches(first_seq + i);
    ++count[position % kPhasePositions];
    position += per_sample;
  }
  return count;
}

TEST(PhasePadding, EachCountFromZeroToThreeIsAsLikelyOverConsecutiveSequenceNumbers) {
  std::array<std::size_t, kPhasePositions> seen{};
  for (std::uint64_t seq = 1; seq <= 40'000; ++seq) {
    const unsigned n = padding_launches(seq);
    ASSERT_LT(n, kPhasePositions);
    ++seen[n];
  }
  for (const std::size_t c : seen) {
    EXPECT_GT(c, 9'500u);  // 10,000 expected; 5 standard deviations are 433
    EXPECT_LT(c, 10'500u);
  }
}

// What the padding is for: without it, every sample of a measurement of 8 launches a sample
// lands on the measurement's first position, so what ran before decides them all; with it, each
// of the four positions holds about a quarter of the samples, from every start and sample size.
TEST(PhasePadding, EverySampleSizeAndStartMeetsEachPositionAlike) {
  for (const unsigned per_sample : {1u, 2u, 4u, 5u, 8u, 11u}) {
    for (unsigned start = 0; start < kPhasePositions; ++start) {
      for (const std::uint64_t first_seq : {std::uint64_t{1}, std::uint64_t{1'000'003}}) {
        const auto count = positions(first_seq, 4'000, per_sample, start);
        for (unsigned p = 0; p < kPhasePositions; ++p) {
          EXPECT_GT(count[p], 850u) << "per sample " << per_sample << ", start " << start
                                    << ", position " << p;  // 1,000 expected
          EXPECT_LT(count[p], 1'150u)
              << "per sample " << per_sample << ", start " << start << ", position " << p;
        }
      }
    }
  }
}

}  // namespace
}  // namespace kerntime::bench
