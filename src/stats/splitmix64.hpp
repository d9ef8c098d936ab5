// SPDX-License-Identifier: Apache-2.0
// SplitMix64 (Steele, Lea and Flood; the constants of Vigna's reference code), written once for
// the three places that need cheap, seed-determined bits: the bootstrap's generator seeding, the
// injected tracer's reservoir slots and the engine's phase padding. Written out rather than taken
// from <random> so that the bits are identical across standard libraries and platforms.
#pragma once

#include <cstdint>

namespace kerntime::stats {

/// SplitMix64's output mix: a bijection of 64-bit words whose every output bit depends on every
/// input bit.
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The generator's step: advances `state` by the golden-ratio increment and mixes the result.
constexpr std::uint64_t splitmix64_next(std::uint64_t& state) {
  state += 0x9e3779b97f4a7c15ULL;
  return splitmix64_mix(state);
}

}  // namespace kerntime::stats
