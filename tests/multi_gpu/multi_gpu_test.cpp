// SPDX-License-Identifier: Apache-2.0
// Two devices at once: event pools per device, a scope whose launches run on both devices,
// and a peer copy, checked against the device each record names.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/kerntime.hpp>

#include "kernels/spin.hpp"
#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

bool two_gpus_required() {
  const char* value = std::getenv("KERNTIME_REQUIRE_TWO_GPUS");
  return value != nullptr && std::string_view{value} == "1";
}

// Streams on devices 0 and 1; skips (or fails when two GPUs are required) with fewer.
class TwoGpuTest : public testing::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    const int count = query_gpu_status().device_count;
    if (count < 2) {
      if (two_gpus_required()) {
        FAIL() << "KERNTIME_REQUIRE_TWO_GPUS=1 but only " << count << " GPU is visible";
      }
      GTEST_SKIP() << "needs two GPUs, " << count << " visible";
    }
    for (int d = 0; d < 2; ++d) {
      ASSERT_EQ(cudaSetDevice(d), cudaSuccess);
      ASSERT_EQ(cudaStreamCreateWithFlags(&streams_[d], cudaStreamNonBlocking), cudaSuccess);
      samples::launch_spin(1'000, streams_[d]);  // load the module on this device
      ASSERT_EQ(cudaStreamSynchronize(streams_[d]), cudaSuccess);
    }
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    int can_access = 0;
    ASSERT_EQ(cudaDeviceCanAccessPeer(&can_access, 0, 1), cudaSuccess);
    peer_access_ = can_access != 0;
    if (peer_access_) {
      const cudaError_t enabled = cudaDeviceEnablePeerAccess(1, 0);
      ASSERT_TRUE(enabled == cudaSuccess || enabled == cudaErrorPeerAccessAlreadyEnabled);
      (void)cudaGetLastError();
    }
    RecordProperty("peer_access", peer_access_ ? "yes" : "no");
    std::printf("device 0 -> 1 peer access: %s\n", peer_access_ ? "yes" : "no");
  }
  void TearDown() override {
    for (int d = 0; d < 2; ++d) {
      if (streams_[d] == nullptr) continue;
      cudaSetDevice(d);
      cudaStreamDestroy(streams_[d]);
    }
    cudaSetDevice(0);
  }
  cudaStream_t streams_[2] = {nullptr, nullptr};
  bool peer_access_ = false;
};

TEST_F(TwoGpuTest, EachDeviceTimesItsOwnStreamsIntoItsOwnEntry) {
  SessionOptions options;
  options.devices = {0, 1};
  Session session{options};
  for (int i = 0; i < 10; ++i) {
    for (int d = 0; d < 2; ++d) {
      // The current device stays 0: the timer must follow the stream, not the current device.
      ScopedTimer timer{session, "spin/device" + std::to_string(d), streams_[d]};
      ASSERT_EQ(cudaSetDevice(d), cudaSuccess);
      samples::launch_spin(100'000 * (d + 1), streams_[d]);
      ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    }
  }
  const Report report = session.report();
  ASSERT_EQ(report.entries.size(), 2u);
  for (int d = 0; d < 2; ++d) {
    const Entry& entry = report.entries[static_cast<std::size_t>(d)];
    ASSERT_TRUE(entry.device.has_value());
    EXPECT_EQ(*entry.device, d);
    EXPECT_EQ(entry.statistics.count, 10u);
    EXPECT_GE(entry.statistics.min, 100'000.0 * (d + 1) * 0.999);
    EXPECT_LE(entry.statistics.median, 100'000.0 * (d + 1) + 10'000.0);
  }
  EXPECT_EQ(report.environment.devices.size(), 2u);
}

TEST_F(TwoGpuTest, OneScopeLaunchingOnBothDevicesIsAttributedPerDevice) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  Session session;
  constexpr std::size_t kBytes = std::size_t{64} << 20;
  void* source = nullptr;
  void* destination = nullptr;
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&source, kBytes), cudaSuccess);
  ASSERT_EQ(cudaMemset(source, 1, kBytes), cudaSuccess);
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&destination, kBytes), cudaSuccess);
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  tracer.clear();
  {
    ScopedTimer timer{session, "both-devices", streams_[0]};
    samples::launch_spin(200'000, streams_[0]);
    ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
    samples::launch_spin(300'000, streams_[1]);
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    ASSERT_EQ(cudaMemcpyPeerAsync(destination, 1, source, 0, kBytes, streams_[0]), cudaSuccess);
  }
  for (int d = 0; d < 2; ++d) {
    ASSERT_EQ(cudaSetDevice(d), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  tracer.flush();
  const Trace trace = tracer.trace();
  EXPECT_EQ(trace.dropped_records, 0u);

  int spins_seen[2] = {0, 0};
  for (const KernelActivity& k : trace.kernels) {
    if (k.scope_name != "both-devices") continue;
    ASSERT_LT(k.device, 2u);
    ++spins_seen[k.device];
    const double requested = k.device == 0 ? 200'000.0 : 300'000.0;
    EXPECT_GE(static_cast<double>(k.duration_ns()), requested) << "device " << k.device;
    EXPECT_LE(static_cast<double>(k.duration_ns()), requested + 5'000.0) << "device " << k.device;
  }
  EXPECT_EQ(spins_seen[0], 1);
  EXPECT_EQ(spins_seen[1], 1);

  // With peer access the copy is one peer-to-peer record; without it (the GPUs cannot reach
  // each other, as in some virtual machines) the driver stages it through host memory: a copy
  // out of device 0 and one into device 1. Either way every record names its devices.
  std::vector<const MemcpyActivity*> copies;
  for (const MemcpyActivity& m : trace.memcpys) {
    if (m.bytes == kBytes) copies.push_back(&m);
  }
  if (peer_access_) {
    ASSERT_EQ(copies.size(), 1u);
    EXPECT_EQ(copies[0]->kind, MemcpyKind::peer_to_peer) << to_string(copies[0]->kind);
    EXPECT_EQ(copies[0]->source_device, 0);
    EXPECT_EQ(copies[0]->destination_device, 1);
  } else {
    ASSERT_EQ(copies.size(), 2u);
    const MemcpyActivity* out =
        copies[0]->kind == MemcpyKind::device_to_host ? copies[0] : copies[1];
    const MemcpyActivity* in = out == copies[0] ? copies[1] : copies[0];
    EXPECT_EQ(out->kind, MemcpyKind::device_to_host) << to_string(out->kind);
    EXPECT_EQ(out->source_device, 0);
    EXPECT_EQ(in->kind, MemcpyKind::host_to_device) << to_string(in->kind);
    EXPECT_EQ(in->destination_device, 1);
  }
  for (const MemcpyActivity* m : copies)
    EXPECT_GT(m->end_ns, m->start_ns);

  const auto event_samples = session.samples("both-devices");
  ASSERT_EQ(event_samples.size(), 1u);
  EXPECT_GE(event_samples[0], 200'000.0);  // the device-0 stream's own work: spin and copy

  cudaFree(source);
  cudaSetDevice(1);
  cudaFree(destination);
  cudaSetDevice(0);
}

}  // namespace
}  // namespace kerntime
