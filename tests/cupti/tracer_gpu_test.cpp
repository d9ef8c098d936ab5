// SPDX-License-Identifier: Apache-2.0
// The Tracer on a real GPU with the real CUPTI.
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <kerntime/session.hpp>
#include <kerntime/tracer.hpp>

#include "kernels/spin.hpp"
#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

class TracerGpu : public testing::GpuTest {};

TEST_F(TracerGpu, AttributesAKernelInAScopedTimerWithAPlausibleDuration) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  Session session;
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  samples::launch_spin(10'000, stream);  // warmup, outside any scope
  {
    ScopedTimer timer{session, "spin 100us", stream};
    samples::launch_spin(100'000, stream);
  }
  tracer.flush();
  const Trace trace = tracer.trace();
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);

  EXPECT_EQ(trace.dropped_records, 0u);
  EXPECT_EQ(trace.unattributed_kernels, 0u) << trace.warnings.size();
  ASSERT_EQ(trace.kernels.size(), 2u);
  const KernelActivity& warmup = trace.kernels[0];
  EXPECT_EQ(warmup.scope_id, 0u);
  const KernelActivity& spin = trace.kernels[1];
  EXPECT_NE(spin.name.find("spin"), std::string_view::npos) << spin.name;
  EXPECT_EQ(spin.scope_name, "spin 100us");
  EXPECT_GE(spin.duration_ns(), 100'000u);
  EXPECT_LT(spin.duration_ns(), 150'000u);
  ASSERT_TRUE(spin.launch.has_value());
  EXPECT_NE(spin.launch->name.find("Launch"), std::string_view::npos) << spin.launch->name;
  EXPECT_GT(spin.launch->enqueue_ns(), 0u);
  EXPECT_LT(spin.launch->enqueue_ns(), 1'000'000u);
  ASSERT_TRUE(spin.queue_delay_ns().has_value());
  EXPECT_EQ(spin.grid, (Dim3{1, 1, 1}));
  EXPECT_EQ(spin.block, (Dim3{1, 1, 1}));

  const auto scopes = summarize_scopes(trace);
  ASSERT_EQ(scopes.size(), 1u);
  EXPECT_EQ(scopes[0].kernels, 1u);
  ASSERT_EQ(scopes[0].instance_span_ns.size(), 1u);
  // The event window contains the kernel, so it is at least as long as CUPTI's span.
  const std::vector<double> event_times = session.samples("spin 100us");
  ASSERT_EQ(event_times.size(), 1u);
  EXPECT_GE(event_times[0] + 1'000.0, scopes[0].instance_span_ns[0]);
}

TEST_F(TracerGpu, DetachesSoThatASecondTracerCanStart) {
  {
    Tracer first;
    ASSERT_TRUE(first.active()) << first.unavailable_reason();
    samples::launch_empty(nullptr);
    first.flush();
    EXPECT_EQ(first.trace().kernels.size(), 1u);
  }
  Tracer second;
  ASSERT_TRUE(second.active()) << second.unavailable_reason();
  samples::launch_empty(nullptr);
  samples::launch_empty(nullptr);
  second.flush();
  const Trace trace = second.trace();
  EXPECT_EQ(trace.kernels.size(), 2u);
  EXPECT_EQ(trace.zero_timestamp_records, 0u);
}

TEST_F(TracerGpu, RecordsCopiesWithBandwidth) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  constexpr std::size_t kBytes = std::size_t{64} << 20;
  void* device = nullptr;
  void* host = nullptr;
  ASSERT_EQ(cudaMalloc(&device, kBytes), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&host, kBytes), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(device, host, kBytes, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(device, 0, kBytes), cudaSuccess);
  tracer.flush();
  const Trace trace = tracer.trace();
  cudaFree(device);
  cudaFreeHost(host);
  ASSERT_EQ(trace.memcpys.size(), 1u);
  EXPECT_EQ(trace.memcpys[0].kind, MemcpyKind::host_to_device);
  EXPECT_EQ(trace.memcpys[0].bytes, kBytes);
  EXPECT_GT(trace.memcpys[0].bandwidth_gb_per_s(), 1.0);
  ASSERT_TRUE(trace.memcpys[0].launch.has_value());
  EXPECT_EQ(trace.memcpys[0].launch->name, "cudaMemcpy");
  ASSERT_EQ(trace.memsets.size(), 1u);
  EXPECT_EQ(trace.memsets[0].bytes, kBytes);
}

TEST_F(TracerGpu, ManyThreadsManyLaunchesNothingLost) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  Session session;
  constexpr int kThreads = 4;
  constexpr int kLaunches = 20'000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&session, t] {
      cudaStream_t stream = nullptr;
      cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
      {
        ScopedTimer timer{session, "burst " + std::to_string(t), stream};
        for (int i = 0; i < kLaunches; ++i)
          samples::launch_empty(stream);
      }
      cudaStreamSynchronize(stream);
      cudaStreamDestroy(stream);
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  tracer.flush();
  const Trace trace = tracer.trace();
  EXPECT_EQ(trace.dropped_records, 0u);
  EXPECT_EQ(trace.zero_timestamp_records, 0u);
  EXPECT_EQ(trace.unattributed_kernels, 0u);
  ASSERT_EQ(trace.kernels.size(), static_cast<std::size_t>(kThreads) * kLaunches);
  const auto scopes = summarize_scopes(trace);
  ASSERT_EQ(scopes.size(), static_cast<std::size_t>(kThreads));
  for (const ScopeSummary& scope : scopes)
    EXPECT_EQ(scope.kernels, std::size_t{kLaunches});
}

}  // namespace
}  // namespace kerntime
