// SPDX-License-Identifier: Apache-2.0
// The pacing of the flush at a synchronization (sync_flush_pacer.hpp), on a synthetic clock.
#include "inject/sync_flush_pacer.hpp"

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace kerntime::inject {
namespace {

constexpr std::uint64_t kUs = 1'000;
constexpr std::uint64_t kMs = 1'000'000;

// Flushes of `flush_ns` each at synchronizations `every_ns` apart, for `span_ns`: how many ran.
// Each synchronization comes after a launch of its own.
std::uint64_t flushes(SyncFlushPacer& pacer, std::uint64_t start_ns, std::uint64_t span_ns,
                      std::uint64_t every_ns, std::uint64_t flush_ns) {
  std::uint64_t ran = 0;
  std::uint64_t launches = 0;
  for (std::uint64_t now = start_ns; now < start_ns + span_ns; now += every_ns) {
    if (!pacer.begin(now, ++launches)) continue;
    pacer.done(now, now + flush_ns);
    ++ran;
  }
  return ran;
}

TEST(SyncFlushPacer, AShortProgramFlushesAtEverySynchronization) {
  // The fault tests' program: ten kernels, one synchronization, then the fault.
  SyncFlushPacer pacer;
  EXPECT_TRUE(pacer.begin(5 * kMs, 1));
  pacer.done(5 * kMs, 5 * kMs + 30 * kUs);
  // A start of 100 synchronizations 1 ms apart, each flush 20 us: 2 ms of flushing, the burst.
  SyncFlushPacer start;
  EXPECT_EQ(flushes(start, 0, 100 * kMs, kMs, 20 * kUs), 100u);
}

TEST(SyncFlushPacer, NothingLaunchedSinceTheLastFlushIsNoFlush) {
  // A polling loop of queries after one launch: one flush, and the bucket kept for later.
  SyncFlushPacer pacer;
  EXPECT_FALSE(pacer.begin(0, 0));  // nothing launched yet
  ASSERT_TRUE(pacer.begin(kMs, 1));
  pacer.done(kMs, kMs + 20 * kUs);
  for (std::uint64_t now = 2 * kMs; now < 100 * kMs; now += 10 * kUs)
    EXPECT_FALSE(pacer.begin(now, 1));
  EXPECT_EQ(pacer.tokens_ns(), SyncFlushPacer::kBurstNs - static_cast<std::int64_t>(20 * kUs));
  // A launch since: the next synchronization flushes.
  EXPECT_TRUE(pacer.begin(100 * kMs, 2));
  pacer.done(100 * kMs, 100 * kMs);
  // A flush refused for want of time is not taken as done: the launches are still new.
  SyncFlushPacer spent;
  ASSERT_TRUE(spent.begin(0, 1));
  spent.done(0, 4 * kMs);
  EXPECT_FALSE(spent.begin(kMs, 2));
  EXPECT_TRUE(spent.begin(2'001 * kMs, 2));
  spent.done(2'001 * kMs, 2'001 * kMs);
}

TEST(SyncFlushPacer, ALongLoopSpendsAtMostOnePartInAThousandFlushing) {
  // A training loop synchronizing every 4 ms, each flush 20 us (0.5 % of a step if every step
  // flushed): after the burst, about one step in five flushes.
  SyncFlushPacer pacer;
  const std::uint64_t span = 60'000 * kMs;
  const std::uint64_t ran = flushes(pacer, 0, span, 4 * kMs, 20 * kUs);
  const double share = static_cast<double>(ran * 20 * kUs) / static_cast<double>(span);
  const double burst = static_cast<double>(SyncFlushPacer::kBurstNs + 20 * kUs);
  EXPECT_LE(share, 1.0 / SyncFlushPacer::kShare + burst / static_cast<double>(span));
  EXPECT_GE(share, 0.9 / SyncFlushPacer::kShare);
  // Cheap flushes are not rationed: 2 us each, every 4 ms, is 0.05 % of the time.
  SyncFlushPacer cheap;
  EXPECT_EQ(flushes(cheap, 0, span, 4 * kMs, 2 * kUs), span / (4 * kMs));
}

TEST(SyncFlushPacer, AnExpensiveFlushWaitsUntilItsTimeIsEarnedBack) {
  SyncFlushPacer pacer;
  ASSERT_TRUE(pacer.begin(0, 2));
  pacer.done(0, 10 * kMs);  // 8 ms more than the bucket held
  EXPECT_EQ(pacer.tokens_ns(), -8 * static_cast<std::int64_t>(kMs));
  // 8 ms is earned back in 8 s (counted from the flush's start), not before.
  EXPECT_FALSE(pacer.begin(10 * kMs, 3));
  EXPECT_FALSE(pacer.begin(7'999 * kMs, 4));
  EXPECT_EQ(pacer.tokens_ns(), -1 * static_cast<std::int64_t>(kUs));
  EXPECT_TRUE(pacer.begin(8'001 * kMs, 5));
  pacer.done(8'001 * kMs, 8'001 * kMs);
}

TEST(SyncFlushPacer, TheBucketRefillsAtOnePartInAThousandUpToTheBurst) {
  SyncFlushPacer pacer;
  ASSERT_TRUE(pacer.begin(0, 6));
  pacer.done(0, 2 * kMs);
  EXPECT_EQ(pacer.tokens_ns(), 0);
  // 1 s after the flush began the bucket holds 1 ms.
  ASSERT_TRUE(pacer.begin(1'000 * kMs, 7));
  EXPECT_EQ(pacer.tokens_ns(), static_cast<std::int64_t>(kMs));
  pacer.done(1'000 * kMs, 1'000 * kMs);
  // Credit under a nanosecond is kept: 999 ns and then 1 ns more earn 1 ns.
  SyncFlushPacer fine;
  ASSERT_TRUE(fine.begin(0, 8));
  fine.done(0, 2 * kMs);
  EXPECT_FALSE(fine.begin(999, 9));
  EXPECT_TRUE(fine.begin(1'000, 10));
  EXPECT_EQ(fine.tokens_ns(), 1);
  fine.done(1'000, 1'000);
  // An hour later the bucket holds the burst, no more.
  ASSERT_TRUE(pacer.begin(3'600'000 * kMs, 11));
  EXPECT_EQ(pacer.tokens_ns(), SyncFlushPacer::kBurstNs);
  pacer.done(3'600'000 * kMs, 3'600'000 * kMs);
}

TEST(SyncFlushPacer, OneThreadFlushesAtATimeAndTheOthersGoOn) {
  SyncFlushPacer pacer;
  ASSERT_TRUE(pacer.begin(0, 12));
  EXPECT_FALSE(pacer.begin(1, 13));  // the first flush has not ended
  pacer.done(0, 1);
  EXPECT_TRUE(pacer.begin(2, 14));
  pacer.done(2, 3);

  // Many threads at once: never two flushes inside one another.
  SyncFlushPacer shared;
  std::atomic<int> inside{0};
  std::atomic<int> overlaps{0};
  std::atomic<std::uint64_t> clock{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20'000; ++i) {
        const std::uint64_t now = clock.fetch_add(kUs);
        if (!shared.begin(now, now / kUs + 1)) continue;  // a launch before each
        if (inside.fetch_add(1) != 0) overlaps.fetch_add(1);
        inside.fetch_sub(1);
        shared.done(now, now + 10);
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  EXPECT_EQ(overlaps.load(), 0);
}

}  // namespace
}  // namespace kerntime::inject
