// SPDX-License-Identifier: Apache-2.0
// Records through a Tracer over a fake CUPTI: buffers delivered out of order, dropped records,
// the buffer pool, background reading, and scope tagging through the ScopedTimer seam.
#include <atomic>
#include <chrono>
#include <string>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/tracer.hpp>

#include "events/scope_listener.hpp"
#include "tracer_fixture.hpp"

namespace kerntime {
namespace {

using testing::FakeCupti;
using testing::kind;
using testing::mentions;
using testing::position;
using testing::start;

TEST(TracerSession, AttributionSurvivesBuffersDeliveredOutOfOrder) {
  auto t = start();
  for (std::uint32_t id = 1; id <= 50; ++id) {
    // API records in one buffer, kernels in another; the kernels' buffer comes back first.
    t->fake->launch("_Z1kv", id, id * 10'000, id * 10'000 + 5'000, 1'000, 7, 0, 1);
  }
  t->fake->complete(1);
  t->tracer.flush();
  const Trace trace = t->tracer.trace();
  ASSERT_EQ(trace.kernels.size(), 50u);
  EXPECT_EQ(trace.unattributed_kernels, 0u);
  for (const KernelActivity& k : trace.kernels) {
    ASSERT_TRUE(k.launch.has_value());
    EXPECT_EQ(k.queue_delay_ns(), 5'000u);
  }
}

TEST(TracerSession, DroppedRecordsAreReadAtEveryFlushAndAccumulated) {
  auto t = start();
  t->fake->pending_dropped = 17;
  t->tracer.flush();
  t->fake->pending_dropped = 3;
  t->tracer.flush();
  const Trace trace = t->tracer.trace();
  EXPECT_EQ(trace.dropped_records, 20u);
  EXPECT_TRUE(mentions(trace, "CUPTI dropped 20 activity records"));
}

TEST(TracerSession, FullPoolRefusesABufferAndSaysSo) {
  TracerOptions options;
  options.buffer_bytes = 64 << 10;
  options.preallocated_buffers = 1;
  options.max_buffers = 1;
  auto t = start(options);
  EXPECT_TRUE(t->fake->emit(testing::api_record(1, 10, 20), 0));
  EXPECT_FALSE(t->fake->emit(testing::api_record(2, 30, 40), 1));  // a second thread's buffer
  EXPECT_EQ(t->fake->refused_buffers, 1u);
  t->tracer.flush();
  const Trace trace = t->tracer.trace();
  EXPECT_EQ(trace.api_calls.size(), 1u);
  EXPECT_TRUE(mentions(trace, "refused 1 request for a record buffer"));
}

TEST(TracerSession, OldCuptiIsNeverRefusedABuffer) {
  TracerOptions options;
  options.buffer_bytes = 64 << 10;
  options.preallocated_buffers = 1;
  options.max_buffers = 1;
  auto t = start(options, {}, [](FakeCupti& f) { f.api_version = 20; });  // CUDA 12.2
  EXPECT_TRUE(t->fake->emit(testing::api_record(1, 10, 20), 0));
  EXPECT_TRUE(t->fake->emit(testing::api_record(2, 30, 40), 1));
  t->tracer.flush();
  EXPECT_EQ(t->tracer.trace().api_calls.size(), 2u);
}

// A pool of two 64 KiB buffers (250 kernel records each): more buffers' worth goes through it
// only if the background reader reads them and the pool lends them again.
TracerOptions two_small_buffers() {
  TracerOptions options;
  options.buffer_bytes = 64 << 10;
  options.preallocated_buffers = 2;
  options.max_buffers = 2;
  return options;
}

// Emits `records` kernel records (ids after `id`) into lane 0, hands the buffer back as CUPTI
// would, and waits up to 10 s for the background reader to read them. False when a record could
// not be emitted (the client refused a buffer).
template <class Started>
bool emit_buffer_and_wait(Started& t, std::uint32_t& id, int records) {
  for (int i = 0; i < records; ++i) {
    ++id;
    if (!t.fake->emit(testing::kernel_record("_Z1kv", id, id * 10, id * 10 + 5), 0)) return false;
  }
  t.fake->complete(0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (t.tracer.trace().kernels.size() < id && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

TEST(TracerSession, BackgroundReadingRecyclesFullBuffers) {
  auto t = start(two_small_buffers());
  // Ten buffers' worth through a pool of two: only works if full buffers are read and reused
  // while "the program runs" (no flush). Wait for the reader between buffers.
  std::uint32_t id = 0;
  for (int buffer = 0; buffer < 10; ++buffer)
    ASSERT_TRUE(emit_buffer_and_wait(*t, id, 250));
  EXPECT_EQ(t->tracer.trace().kernels.size(), 2'500u);
  EXPECT_EQ(t->fake->refused_buffers, 0u);
}

// CUPTI is told that kerntime's buffers are zero, so that it does not zero each new one itself
// on the program's thread: a buffer lent again after its records were read must be zero again,
// whether CUPTI filled it or handed it back partly filled (a flush at a synchronization).
TEST(TracerSession, RecycledBuffersAreLentZeroed) {
  auto t = start(two_small_buffers());
  const auto& calls = *t->log;
  ASSERT_GE(position(calls, "attribute 5=1"), 0);
  EXPECT_LT(position(calls, "attribute 5=1"), position(calls, "register"));
  std::uint32_t id = 0;
  for (int buffer = 0; buffer < 10; ++buffer) {
    const int records = buffer % 2 == 0 ? 250 : 7 + buffer;  // full, then partly filled
    ASSERT_TRUE(emit_buffer_and_wait(*t, id, records));
  }
  EXPECT_EQ(t->tracer.trace().kernels.size(), id);
  EXPECT_GE(t->fake->reused_buffers, 8u);
  EXPECT_EQ(t->fake->dirty_buffers, 0u) << "of " << t->fake->lent_buffers << " lent";
}

TEST(TracerSession, TagsLaunchesWithTheInnermostScopeOfTheirThread) {
  auto t = start();
  events::ScopeListener* seam = events::scope_listener();
  ASSERT_NE(seam, nullptr);
  const std::uint64_t outer = events::next_scope_id();
  const std::uint64_t inner = events::next_scope_id();
  seam->scope_begin(outer, "outer");
  EXPECT_EQ(t->fake->pushed_on_this_thread(), (std::vector<std::uint64_t>{outer}));
  t->fake->launch("_Z1av", 1, 1'000, 2'000, 100, 7);
  seam->scope_begin(inner, "inner");
  t->fake->launch("_Z1bv", 2, 3'000, 4'000, 100, 7);
  seam->scope_end(inner);
  t->fake->launch("_Z1cv", 3, 5'000, 6'000, 100, 7);
  seam->scope_end(outer);
  t->fake->launch("_Z1dv", 4, 7'000, 8'000, 100, 7);
  EXPECT_TRUE(t->fake->pushed_on_this_thread().empty());

  t->tracer.flush();
  const Trace trace = t->tracer.trace();
  ASSERT_EQ(trace.kernels.size(), 4u);
  EXPECT_EQ(trace.kernels[0].scope_name, "outer");
  EXPECT_EQ(trace.kernels[1].scope_name, "inner");
  EXPECT_EQ(trace.kernels[1].scope_id, inner);
  EXPECT_EQ(trace.kernels[2].scope_name, "outer");
  EXPECT_EQ(trace.kernels[3].scope_id, 0u);
  ASSERT_EQ(trace.scopes.size(), 2u);
  EXPECT_EQ(trace.scopes[1].parent_id, outer);
  EXPECT_EQ(trace.scopes[0].thread_id, static_cast<std::uint64_t>(::syscall(SYS_gettid)));
  EXPECT_FALSE(mentions(trace, "could not tag"));
}

TEST(TracerSession, ScopesOnManyThreads) {
  auto t = start();
  std::atomic<std::uint32_t> next_id{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      const std::uint64_t scope = events::next_scope_id();
      const std::string name = "thread" + std::to_string(i);
      events::scope_listener()->scope_begin(scope, name);
      for (int n = 0; n < 100; ++n) {
        const std::uint32_t id = ++next_id;
        t->fake->launch("_Z1kv", id, id * 100, id * 100 + 50, 10,
                        7 + static_cast<std::uint32_t>(i));
      }
      events::scope_listener()->scope_end(scope);
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  t->tracer.flush();
  const Trace trace = t->tracer.trace();
  ASSERT_EQ(trace.kernels.size(), 400u);
  for (const KernelActivity& k : trace.kernels) {
    EXPECT_EQ(k.scope_name, "thread" + std::to_string(k.stream - 7));
  }
  const auto rows = summarize_scopes(trace);
  ASSERT_EQ(rows.size(), 4u);
  for (const ScopeSummary& row : rows)
    EXPECT_EQ(row.kernels, 100u);
}

TEST(TracerSession, StopDetachesScopesAndLateCallbacksAreHarmless) {
  auto t = start();
  const std::uint64_t scope = events::next_scope_id();
  events::ScopeListener* seam = events::scope_listener();
  seam->scope_begin(scope, "open across stop");
  t->tracer.stop();
  EXPECT_EQ(events::scope_listener(), nullptr);
  seam->scope_end(scope);  // a ScopedTimer that read the listener just before stop
  // CUPTI finishing a buffer after the session ended: it gets one and frees it.
  EXPECT_TRUE(t->fake->emit(testing::api_record(9, 10, 20), 3));
  t->fake->complete(3);
  EXPECT_TRUE(t->tracer.trace().api_calls.empty());
}

TEST(TracerSession, ClearForgetsWarmup) {
  auto t = start();
  t->fake->launch("_Z6warmupv", 1, 1'000, 2'000, 100, 7);
  t->tracer.flush();
  t->tracer.clear();
  t->fake->launch("_Z4workv", 2, 3'000, 4'000, 100, 7);
  t->tracer.flush();
  const Trace trace = t->tracer.trace();
  ASSERT_EQ(trace.kernels.size(), 1u);
  EXPECT_EQ(trace.kernels[0].name, "work()");
}

}  // namespace
}  // namespace kerntime
