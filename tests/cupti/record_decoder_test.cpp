// SPDX-License-Identifier: Apache-2.0
// Decoding real CUPTI record structs, laid out in a buffer as CUPTI writes them.
#include "cupti/record_decoder.hpp"

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "fake_cupti.hpp"

namespace kerntime::cupti {
namespace {

using testing::api_record;
using testing::FakeCupti;
using testing::kernel_record;
using testing::scope_record;

class Buffer {
 public:
  template <class Record>
  void add(const Record& record) {
    const std::size_t at = bytes_.size();
    bytes_.resize(at + sizeof(Record));
    std::memcpy(bytes_.data() + at, &record, sizeof(Record));
  }
  std::uint8_t* data() { return bytes_.data(); }
  std::size_t size() const { return bytes_.size(); }

 private:
  std::vector<std::uint8_t> bytes_;  // operator new: aligned well beyond CUPTI's 8 bytes
};

TEST(RecordDecoder, ReadsEveryKindKerntimeUses) {
  Buffer buffer;
  KernelRecord kernel = kernel_record("_Z1kv", 10, 5'000, 7'500, 3, 21);
  kernel.graphId = 4;
  kernel.graphNodeId = 99;
  kernel.gridY = 2;
  kernel.blockZ = 4;
  buffer.add(kernel);
  buffer.add(api_record(10, 1'000, 2'000, 211, 77));
  CUpti_ActivityAPI driver = api_record(11, 3'000, 3'100, 300, 78);
  driver.kind = CUPTI_ACTIVITY_KIND_DRIVER;
  buffer.add(driver);
  buffer.add(scope_record(10, 555));
  CUpti_ActivityExternalCorrelation foreign = scope_record(10, 666);
  foreign.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1;
  buffer.add(foreign);

  MemcpyRecord copy{};
  copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
  copy.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  copy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  copy.bytes = 1 << 20;
  copy.start = 8'000;
  copy.end = 9'000;
  copy.deviceId = 2;
  copy.streamId = 5;
  copy.correlationId = 12;
  buffer.add(copy);

  PeerMemcpyRecord peer{};
  peer.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
  peer.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  peer.bytes = 4096;
  peer.start = 10'000;
  peer.end = 10'500;
  peer.deviceId = 1;
  peer.srcDeviceId = 1;
  peer.dstDeviceId = 3;
  peer.correlationId = 13;
  buffer.add(peer);

  MemsetRecord set{};
  set.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  set.value = 0xab;
  set.bytes = 256;
  set.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  set.start = 11'000;
  set.end = 11'100;
  set.correlationId = 14;
  buffer.add(set);

  SynchronizationRecord sync{};
  sync.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
  sync.start = 12'000;
  sync.end = 20'000;
  sync.streamId = 5;
  sync.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  sync.correlationId = 15;
  buffer.add(sync);

  CUpti_ActivityName name{};
  name.kind = CUPTI_ACTIVITY_KIND_NAME;
  buffer.add(name);

  FakeCupti fake;
  trace::RecordBatch batch;
  EXPECT_TRUE(decode_buffer(fake, buffer.data(), buffer.size(), batch));

  ASSERT_EQ(batch.kernels.size(), 1u);
  const trace::RawKernel& k = batch.kernels[0];
  EXPECT_STREQ(k.name, "_Z1kv");
  EXPECT_EQ(k.start_ns, 5'000u);
  EXPECT_EQ(k.end_ns, 7'500u);
  EXPECT_EQ(k.device, 3u);
  EXPECT_EQ(k.stream, 21u);
  EXPECT_EQ(k.correlation_id, 10u);
  EXPECT_EQ(k.grid, (Dim3{128, 2, 1}));
  EXPECT_EQ(k.block, (Dim3{256, 1, 4}));
  EXPECT_EQ(k.registers_per_thread, 32u);
  EXPECT_EQ(k.static_shared_memory_bytes, 1024u);
  EXPECT_EQ(k.dynamic_shared_memory_bytes, 2048u);
  EXPECT_EQ(k.graph_id, 4u);
  EXPECT_EQ(k.graph_node_id, 99u);

  ASSERT_EQ(batch.api_calls.size(), 2u);
  EXPECT_EQ(batch.api_calls[0].kind, ApiKind::runtime);
  EXPECT_EQ(batch.api_calls[0].callback_id, 211u);
  EXPECT_EQ(batch.api_calls[0].thread_id, 77u);
  EXPECT_EQ(batch.api_calls[1].kind, ApiKind::driver);
  EXPECT_EQ(batch.api_calls[1].correlation_id, 11u);

  ASSERT_EQ(batch.scope_tags.size(), 1u);
  EXPECT_EQ(batch.scope_tags[0].scope_id, 555u);
  EXPECT_EQ(batch.foreign_tags, 1u);

  ASSERT_EQ(batch.memcpys.size(), 2u);
  EXPECT_EQ(batch.memcpys[0].kind, MemcpyKind::device_to_host);
  EXPECT_EQ(batch.memcpys[0].source_kind, MemoryKind::device);
  EXPECT_EQ(batch.memcpys[0].destination_kind, MemoryKind::pinned);
  EXPECT_EQ(batch.memcpys[0].bytes, 1u << 20);
  EXPECT_EQ(batch.memcpys[0].source_device, 2);
  EXPECT_EQ(batch.memcpys[0].destination_device, -1);
  EXPECT_EQ(batch.memcpys[1].kind, MemcpyKind::peer_to_peer);
  EXPECT_EQ(batch.memcpys[1].source_device, 1);
  EXPECT_EQ(batch.memcpys[1].destination_device, 3);

  ASSERT_EQ(batch.memsets.size(), 1u);
  EXPECT_EQ(batch.memsets[0].value, 0xabu);
  EXPECT_EQ(batch.memsets[0].memory_kind, MemoryKind::device);
  EXPECT_EQ(batch.memsets[0].correlation_id, 14u);

  ASSERT_EQ(batch.synchronizations.size(), 1u);
  EXPECT_EQ(batch.synchronizations[0].kind, SynchronizationKind::stream_synchronize);
  EXPECT_EQ(batch.synchronizations[0].end, 20'000u);
  EXPECT_EQ(batch.synchronizations[0].event, CUPTI_SYNCHRONIZATION_INVALID_VALUE);

  EXPECT_EQ(batch.unknown_records, 1u);
  EXPECT_EQ(batch.truncated_buffers, 0u);
}

// A reader with no room left for API calls, copies, memsets and synchronizations has them
// counted, not decoded; kernels and scope tags still come in full.
TEST(RecordDecoder, CountsOnlyTheKindsAReaderHasNoRoomFor) {
  Buffer buffer;
  buffer.add(kernel_record("_Z1kv", 10, 5'000, 7'500));
  buffer.add(api_record(10, 1'000, 2'000));
  CUpti_ActivityAPI driver = api_record(11, 3'000, 3'100, 300);
  driver.kind = CUPTI_ACTIVITY_KIND_DRIVER;
  buffer.add(driver);
  buffer.add(scope_record(10, 555));
  MemcpyRecord copy{};
  copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  buffer.add(copy);
  PeerMemcpyRecord peer{};
  peer.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
  buffer.add(peer);
  MemsetRecord set{};
  set.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  buffer.add(set);
  SynchronizationRecord sync{};
  sync.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  buffer.add(sync);
  CUpti_ActivityName name{};
  name.kind = CUPTI_ACTIVITY_KIND_NAME;
  buffer.add(name);

  FakeCupti fake;
  trace::RecordBatch batch;
  EXPECT_TRUE(decode_buffer(fake, buffer.data(), buffer.size(), batch, Decode::counts));
  ASSERT_EQ(batch.kernels.size(), 1u);
  EXPECT_STREQ(batch.kernels[0].name, "_Z1kv");
  ASSERT_EQ(batch.scope_tags.size(), 1u);
  EXPECT_EQ(batch.scope_tags[0].scope_id, 555u);
  EXPECT_TRUE(batch.api_calls.empty());
  EXPECT_TRUE(batch.memcpys.empty());
  EXPECT_TRUE(batch.memsets.empty());
  EXPECT_TRUE(batch.synchronizations.empty());
  EXPECT_EQ(batch.counted_api_calls, 2u);
  EXPECT_EQ(batch.counted_memcpys, 2u);
  EXPECT_EQ(batch.counted_memsets, 1u);
  EXPECT_EQ(batch.counted_synchronizations, 1u);
  EXPECT_EQ(batch.unknown_records, 1u);

  batch.clear();
  EXPECT_TRUE(batch.empty());
  EXPECT_GT(batch.kernels.capacity(), 0u);  // kept for the next buffer
}

TEST(RecordDecoder, StopsAtAnIncompleteRecordAndKeepsTheOnesBefore) {
  Buffer buffer;
  buffer.add(api_record(1, 100, 200));
  buffer.add(kernel_record("k", 1, 300, 400));
  trace::RecordBatch batch;
  FakeCupti fake;
  EXPECT_FALSE(decode_buffer(fake, buffer.data(), buffer.size() - 8, batch));
  EXPECT_EQ(batch.api_calls.size(), 1u);
  EXPECT_TRUE(batch.kernels.empty());
  EXPECT_EQ(batch.truncated_buffers, 1u);
}

TEST(RecordDecoder, EmptyBufferIsFine) {
  trace::RecordBatch batch;
  FakeCupti fake;
  EXPECT_TRUE(decode_buffer(fake, nullptr, 0, batch));
  EXPECT_TRUE(batch.empty());
}

}  // namespace
}  // namespace kerntime::cupti
