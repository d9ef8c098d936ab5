// SPDX-License-Identifier: Apache-2.0
// CUPTI's duration of a kernel of known length lies between the requested time and the
// requested time plus an empty kernel's duration (measured in the same run) plus 0.2 us: the
// bound trace_bench checks with many runs, here with a few.
#include <algorithm>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <kerntime/session.hpp>
#include <kerntime/tracer.hpp>

#include "kernels/spin.hpp"
#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

class TracerSpinGpu : public testing::GpuTest {};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2.0;
}

TEST_F(TracerSpinGpu, DurationsLieWithinRequestedPlusAnEmptyKernel) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  samples::launch_empty(stream);  // warm-up: module load
  samples::launch_spin(1'000, stream);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  tracer.flush();
  tracer.clear();

  const std::vector<std::uint64_t> lengths = {2'000, 10'000, 100'000, 1'000'000};
  constexpr int kRuns = 9;
  Session session;
  // One launch at a time on an idle GPU, each length in its own scope.
  const auto run = [&](const std::string& name, std::uint64_t ns) {
    ScopedTimer scope{session, name, stream};
    for (int i = 0; i < kRuns; ++i) {
      if (ns == 0) {
        samples::launch_empty(stream);
      } else {
        samples::launch_spin(ns, stream);
      }
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    }
  };
  run("empty", 0);
  for (const std::uint64_t ns : lengths)
    run("spin " + std::to_string(ns), ns);
  tracer.flush();
  const Trace trace = tracer.trace();
  cudaStreamDestroy(stream);

  EXPECT_EQ(trace.dropped_records, 0u);
  EXPECT_EQ(trace.zero_timestamp_records, 0u);
  std::vector<double> empty;
  for (const KernelActivity& k : trace.kernels) {
    if (k.scope_name == "empty") empty.push_back(static_cast<double>(k.duration_ns()));
  }
  ASSERT_EQ(empty.size(), std::size_t{kRuns});
  const double empty_ns = median(empty);
  EXPECT_GT(empty_ns, 0.0);
  EXPECT_LT(empty_ns, 5'000.0);  // an empty kernel runs well under a microsecond or two
  for (const std::uint64_t ns : lengths) {
    std::vector<double> durations;
    for (const KernelActivity& k : trace.kernels) {
      if (k.scope_name == "spin " + std::to_string(ns)) {
        durations.push_back(static_cast<double>(k.duration_ns()));
      }
    }
    ASSERT_EQ(durations.size(), std::size_t{kRuns}) << ns;
    const double requested = static_cast<double>(ns);
    const double d = median(durations);
    EXPECT_GE(d, requested) << "spin " << ns << " ns";
    EXPECT_LE(d, requested + empty_ns + 200.0)
        << "spin " << ns << " ns, empty kernel " << empty_ns << " ns";
  }
}

}  // namespace
}  // namespace kerntime
