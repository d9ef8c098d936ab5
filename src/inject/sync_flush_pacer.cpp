// SPDX-License-Identifier: Apache-2.0
#include "inject/sync_flush_pacer.hpp"

#include <algorithm>

namespace kerntime::inject {

bool SyncFlushPacer::begin(std::uint64_t now_ns, std::uint64_t launches) {
  // Nothing new, or another thread flushing: the caller passes on loads, writing nothing shared.
  if (launches == flushed_launches_.load(std::memory_order_relaxed) ||
      busy_.load(std::memory_order_relaxed)) {
    return false;
  }
  bool expected = false;
  if (!busy_.compare_exchange_strong(expected, true, std::memory_order_acquire)) return false;
  if (!started_) {
    started_ = true;
    refilled_at_ns_ = now_ns;
  }
  if (now_ns > refilled_at_ns_) {
    constexpr auto share = static_cast<std::uint64_t>(kShare);
    const std::uint64_t elapsed = now_ns - refilled_at_ns_;
    tokens_ns_ = std::min(kBurstNs, tokens_ns_ + static_cast<std::int64_t>(elapsed / share));
    // What is under a nanosecond of credit stays to be earned, not lost.
    refilled_at_ns_ = now_ns - elapsed % share;
  }
  if (tokens_ns_ <= 0) {
    busy_.store(false, std::memory_order_release);
    return false;
  }
  flushed_launches_.store(launches, std::memory_order_relaxed);
  return true;
}

void SyncFlushPacer::done(std::uint64_t began_ns, std::uint64_t ended_ns) {
  // A flush that cost more than the bucket held leaves a debt, earned back before the next.
  tokens_ns_ -= static_cast<std::int64_t>(ended_ns > began_ns ? ended_ns - began_ns : 0);
  busy_.store(false, std::memory_order_release);
}

}  // namespace kerntime::inject
