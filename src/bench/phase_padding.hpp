// SPDX-License-Identifier: Apache-2.0
// How many empty kernels go before a sample's timed work. On the H200 (CUDA 13.0, driver
// 580.159.04) a PyTorch reduction, a memset then a kernel, read 0.5 to 1 us longer whenever its
// launch fell on one position, modulo 4, of the launches its stream had seen: every launch on the
// engine's stream, the engine's own and the program's, moves that position by one
// (docs/order-history.md). Every sample of a measurement advances it alike, so the measurement's
// first position, set by all that ran before it, decided the whole measurement: an order effect.
// A sample preceded by a uniform random count of 0 to 3 empty kernels (behind the blocking
// kernel, outside the timed window) starts from a uniform random position, whatever ran before
// it, so every measurement sees the positions in the same proportions.
#pragma once

#include <cstdint>

#include "stats/splitmix64.hpp"

namespace kerntime::bench {

/// The positions a sample's padding chooses among: the period observed.
inline constexpr unsigned kPhasePositions = 4;

/// The empty kernels queued before sample `seq`'s timed work: 0 to kPhasePositions - 1, uniform
/// over sequence numbers and unrelated to any period in them (SplitMix64's output mix).
constexpr unsigned padding_launches(std::uint64_t seq) {
  return static_cast<unsigned>(stats::splitmix64_next(seq) >> 62);
}

}  // namespace kerntime::bench
