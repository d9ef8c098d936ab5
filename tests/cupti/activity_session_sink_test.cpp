// SPDX-License-Identifier: Apache-2.0
// An activity session that hands its records to a sink (kerntime run's recorder) over a fake
// CUPTI: a sink with no room left for API calls, copies and memsets has them counted instead of
// decoded, and the reader's batch keeps its memory from one buffer to the next; a held reader
// thread leaves buffers waiting (KERNTIME_RUN_COST_PHASES) until released or stopped.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cupti/activity_session.hpp"
#include "cupti/kernel_record.hpp"
#include "fake_cupti.hpp"

namespace kerntime::cupti {
namespace {

class CountingSink final : public ActivitySession::RecordSink {
 public:
  bool room = true;
  std::vector<trace::RecordBatch> batches;
  std::vector<const void*> kernel_memory;  // where each batch's kernels were

  void records(trace::RecordBatch&& batch) override {
    kernel_memory.push_back(batch.kernels.data());
    batches.push_back(batch);  // a copy: the session keeps its own batch
  }
  void dropped(std::uint64_t) override {}
  bool counts_only() const override { return !room; }
};

TracerOptions options() {
  TracerOptions o;
  o.background_reading = false;  // read at flush(), on this thread
  return o;
}

void one_launch(testing::FakeCupti& fake, std::uint32_t id) {
  fake.emit(testing::api_record(id, id * 100, id * 100 + 10));
  fake.emit(testing::kernel_record("_Z1kv", id, id * 100 + 20, id * 100 + 30));
  MemcpyRecord copy{};
  copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  copy.correlationId = id;
  fake.emit(copy);
  fake.complete(0);
}

TEST(ActivitySessionSink, ASinkWithoutRoomHasApiCallsAndCopiesCountedNotDecoded) {
  testing::FakeCupti fake;
  CountingSink sink;
  ActivitySession session{fake, options(), [] { return std::string{}; }};
  session.send_records_to(&sink);
  ASSERT_EQ(session.start(), "");
  one_launch(fake, 1);
  session.flush();
  sink.room = false;
  one_launch(fake, 2);
  one_launch(fake, 3);
  session.flush();
  session.stop();

  ASSERT_EQ(sink.batches.size(), 3u);
  const trace::RecordBatch& full = sink.batches[0];
  EXPECT_EQ(full.kernels.size(), 1u);
  EXPECT_EQ(full.api_calls.size(), 1u);
  EXPECT_EQ(full.memcpys.size(), 1u);
  EXPECT_EQ(full.counted_api_calls, 0u);
  for (std::size_t i = 1; i < 3; ++i) {
    const trace::RecordBatch& counted = sink.batches[i];
    ASSERT_EQ(counted.kernels.size(), 1u);
    EXPECT_EQ(counted.kernels[0].correlation_id, i + 1);
    EXPECT_TRUE(counted.api_calls.empty());
    EXPECT_TRUE(counted.memcpys.empty());
    EXPECT_EQ(counted.counted_api_calls, 1u);
    EXPECT_EQ(counted.counted_memcpys, 1u);
  }
  // The two buffers of one flush were read into one batch's memory.
  EXPECT_EQ(sink.kernel_memory[1], sink.kernel_memory[2]);
}

class TallySink final : public ActivitySession::RecordSink {
 public:
  std::atomic<std::size_t> kernels{0};
  void records(trace::RecordBatch&& batch) override { kernels += batch.kernels.size(); }
  void dropped(std::uint64_t) override {}
  bool counts_only() const override { return false; }
};

// Waits up to 5 s for the reader thread to have read `count` kernels.
bool read_within_seconds(const TallySink& sink, std::size_t count) {
  for (int i = 0; i < 500 && sink.kernels < count; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return sink.kernels >= count;
}

TEST(ActivitySessionSink, AHeldReaderLeavesBuffersUntilReleasedOrStopped) {
  testing::FakeCupti fake;
  TallySink sink;
  TracerOptions background;  // read on the session's own thread
  ActivitySession session{fake, background, [] { return std::string{}; }};
  session.send_records_to(&sink);
  ASSERT_EQ(session.start(), "");
  one_launch(fake, 1);
  ASSERT_TRUE(read_within_seconds(sink, 1));

  session.hold_reading(true);
  one_launch(fake, 2);
  // Held: the thread has a ready buffer and leaves it; 100 ms is 20 of its 5 ms naps.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(sink.kernels, 1u);
  session.hold_reading(false);
  EXPECT_TRUE(read_within_seconds(sink, 2));

  // Held at the end: stopping still reads what waits, and does not wait for a release.
  session.hold_reading(true);
  one_launch(fake, 3);
  session.stop();
  EXPECT_EQ(sink.kernels, 3u);
}

// Once API records stop (kerntime run's timeline has its first launches), the external
// correlation kind, which tags API records only, goes with them; kernels and copies stay.
TEST(ActivitySessionSink, StoppingApiRecordsStopsTheirTagsAndKeepsTheRest) {
  testing::FakeCupti fake;
  ActivitySession session{fake, options(), [] { return std::string{}; }};
  ASSERT_EQ(session.start(), "");
  const auto on = [&](CUpti_ActivityKind kind) {
    return std::find(fake.enabled.begin(), fake.enabled.end(), kind) != fake.enabled.end();
  };
  ASSERT_TRUE(on(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION));
  EXPECT_TRUE(session.stop_api_records());
  EXPECT_FALSE(on(CUPTI_ACTIVITY_KIND_RUNTIME));
  EXPECT_FALSE(on(CUPTI_ACTIVITY_KIND_DRIVER));
  EXPECT_FALSE(on(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION));
  EXPECT_TRUE(on(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  EXPECT_TRUE(on(CUPTI_ACTIVITY_KIND_MEMCPY));
  EXPECT_TRUE(on(CUPTI_ACTIVITY_KIND_MEMSET));
  EXPECT_FALSE(session.stop_api_records());  // nothing left to stop
  session.stop();
}

}  // namespace
}  // namespace kerntime::cupti
