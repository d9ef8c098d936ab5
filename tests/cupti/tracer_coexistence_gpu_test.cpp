// SPDX-License-Identifier: Apache-2.0
// kerntime next to another CUPTI activity client in the same process, on a real GPU: CUPTI
// gives the records to one client only, and kerntime must never report an empty trace, a
// per-kernel table of nothing or a fallen-back headline without saying why.
//
// Two programs: this one without KERNTIME_INJECTION_TEST starts the other client itself after
// the Tracer (as a program starting torch.profiler does), so the other client takes the records
// for certain; with it, the other client is loaded through CUDA_INJECTION64_PATH before CUDA
// starts and either side may get the records, depending on who registered last.
#include <cstdlib>
#include <dlfcn.h>
#include <string>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <kerntime/measure.hpp>
#include <kerntime/tracer.hpp>

#include "kernels/spin.hpp"
#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

using ClientStart = int (*)();
using ClientRecords = unsigned long long (*)();

#ifdef KERNTIME_INJECTION_TEST
// Before main, so before CUDA starts: CUDA reads the variable once, at initialization.
const bool injection_set = [] {
  ::setenv("CUDA_INJECTION64_PATH", KERNTIME_OTHER_CLIENT, 1);
  return true;
}();
#endif

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
  for (const std::string& w : warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

class TracerCoexistenceGpu : public testing::GpuTest {};

#ifndef KERNTIME_INJECTION_TEST

void* other_client() {
  void* handle = ::dlopen(KERNTIME_OTHER_CLIENT, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) ADD_FAILURE() << "cannot load " << KERNTIME_OTHER_CLIENT;
  return handle;
}

TEST_F(TracerCoexistenceGpu, AClientStartedLaterTakesTheRecordsAndKerntimeSaysSo) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  void* client = other_client();
  ASSERT_NE(client, nullptr);
  auto start = reinterpret_cast<ClientStart>(::dlsym(client, "other_client_start"));
  auto records = reinterpret_cast<ClientRecords>(::dlsym(client, "other_client_kernel_records"));
  ASSERT_TRUE(start != nullptr && records != nullptr);
  ASSERT_EQ(start(), 1) << "the other client could not register with CUPTI";

  for (int i = 0; i < 3; ++i)
    samples::launch_spin(5'000, nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  tracer.flush();
  const Trace trace = tracer.trace();

  EXPECT_TRUE(trace.kernels.empty()) << "the other client registered last; it gets the records";
  EXPECT_GE(records(), 3u) << "the other client received the kernel records";
  EXPECT_EQ(tracer.status(), TracerStatus::starved);
  const std::string reason = tracer.unavailable_reason();
  EXPECT_NE(reason.find("CUPTI saw 3 kernel launches but delivered no kernel record"),
            std::string::npos)
      << reason;
  EXPECT_NE(reason.find("another CUPTI client in this process"), std::string::npos) << reason;
  EXPECT_TRUE(mentions(trace.warnings, "delivered no kernel record")) << trace.warnings.size();

  // The engine's headline falls back to events with that reason, not a guess.
  MeasureOptions options;
  options.tracer = &tracer;
  options.stopping.max_samples = 20;
  const Measurement m =
      measure([](cudaStream_t stream) { samples::launch_spin(5'000, stream); }, options);
  EXPECT_TRUE(mentions(m.warnings, "another CUPTI client")) << ::testing::PrintToString(m.warnings);
  EXPECT_FALSE(mentions(m.warnings, "another thread")) << ::testing::PrintToString(m.warnings);
  tracer.stop();
  EXPECT_EQ(tracer.status(), TracerStatus::stopped);
}

#else

TEST_F(TracerCoexistenceGpu, AToolLoadedByInjectionIsNeverSilent) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  for (int i = 0; i < 4; ++i)
    samples::launch_spin(5'000, nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  tracer.flush();
  const Trace trace = tracer.trace();

  void* client = ::dlopen(KERNTIME_OTHER_CLIENT, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(client, nullptr) << "CUDA did not load the tool named by CUDA_INJECTION64_PATH";
  auto records = reinterpret_cast<ClientRecords>(::dlsym(client, "other_client_kernel_records"));
  ASSERT_NE(records, nullptr);
  const unsigned long long theirs = records();

  // Whoever got the records, the warnings name the tool and the trace is never silently empty.
  EXPECT_TRUE(
      mentions(trace.warnings, std::string{"CUDA_INJECTION64_PATH ("} + KERNTIME_OTHER_CLIENT))
      << ::testing::PrintToString(trace.warnings);
  if (trace.kernels.empty()) {
    EXPECT_EQ(tracer.status(), TracerStatus::starved);
    EXPECT_NE(tracer.unavailable_reason().find(KERNTIME_OTHER_CLIENT), std::string::npos)
        << tracer.unavailable_reason();
    EXPECT_GE(theirs, 4u);
  } else {
    EXPECT_EQ(tracer.status(), TracerStatus::active) << tracer.unavailable_reason();
    EXPECT_EQ(trace.kernels.size(), 4u);
  }
  std::printf("kernel records: kerntime %zu, the injected tool %llu\n", trace.kernels.size(),
              theirs);
}

#endif

}  // namespace
}  // namespace kerntime
