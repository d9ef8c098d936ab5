// SPDX-License-Identifier: Apache-2.0
// Cold measurement on a GPU: accuracy against CUPTI for kernels of known length, with and
// without CUPTI, the SM clock of every sample, and the L2 flush's effect.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <kerntime/measure.hpp>
#include <kerntime/tracer.hpp>

#include "bench/fixed_cost.hpp"
#include "kernels/device_copy.hpp"
#include "kernels/spin.hpp"
#include "spin_reference.hpp"
#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

using testing::cupti_spin_reference_ns;
using testing::tolerance_ns;

class EngineCold : public testing::GpuTest {};

Launcher spin(std::uint64_t ns) {
  return [ns](cudaStream_t stream) { samples::launch_spin(ns, stream); };
}

TEST_F(EngineCold, CuptiHeadlineMatchesTheKernelDurationFrom2usTo100us) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  Engine engine;
  for (std::uint64_t ns : {2'000u, 100'000u}) {
    MeasureOptions options;
    options.name = "spin/" + std::to_string(ns);
    options.tracer = &tracer;
    const Measurement m = engine.measure(spin(ns), options);
    const double truth = cupti_spin_reference_ns(tracer, ns, 200);
    ASSERT_GT(truth, static_cast<double>(ns));
    EXPECT_EQ(m.headline_timer, "cupti-kernel");
    EXPECT_NEAR(m.headline.median, truth, tolerance_ns(truth, 0.02, 250.0)) << options.name;
    EXPECT_NE(m.info.stop_reason, to_string(StopReason::timeout)) << m.info.stop_detail;
    EXPECT_TRUE(m.info.l2_flushed);
    EXPECT_TRUE(m.info.blocking_kernel);
    // The event pair behind the blocking kernel holds the kernel plus the floor around it.
    EXPECT_GT(m.events.median, m.headline.median);
    EXPECT_LT(m.events.median, m.headline.median + 5'000.0);
  }
}

// A call of two kernels: the headline is their span, from the first start to the last end;
// the sum of their own durations and their count are kept beside it (docs/timing.md).
TEST_F(EngineCold, TwoKernelsPerCallKeepTheirSumBesideTheSpan) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  Engine engine;
  MeasureOptions options;
  options.name = "two-spins";
  options.tracer = &tracer;
  const Measurement m = engine.measure(
      [](cudaStream_t stream) {
        samples::launch_spin(3'000, stream);
        samples::launch_spin(5'000, stream);
      },
      options);
  const double truth =
      cupti_spin_reference_ns(tracer, 3'000, 100) + cupti_spin_reference_ns(tracer, 5'000, 100);
  ASSERT_EQ(m.headline_timer, "cupti-kernel");
  ASSERT_TRUE(m.cupti_sum && m.info.median_cupti_sum_ns && m.info.activities_per_call);
  EXPECT_EQ(*m.info.activities_per_call, 2.0);
  EXPECT_NEAR(*m.info.median_cupti_sum_ns, truth, tolerance_ns(truth, 0.02, 250.0));
  EXPECT_DOUBLE_EQ(m.cupti_sum->median, *m.info.median_cupti_sum_ns);
  // The second kernel starts after the first ends, and nothing else is between them.
  EXPECT_GT(m.headline.median, *m.info.median_cupti_sum_ns);
  EXPECT_LT(m.headline.median, *m.info.median_cupti_sum_ns + 3'000.0);
}

// The cache file stays out of the user's home and off, and what an earlier test of this
// process measured is forgotten (ctest runs each test alone, the binary runs them together).
void isolate_cache() {
  ::setenv("KERNTIME_CACHE_DIR", (::testing::TempDir() + "kerntime_engine_cold_cache").c_str(), 1);
  ::setenv("KERNTIME_NO_CACHE", "1", 1);
  bench::forget_remembered_fixed_costs();
}

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
  for (const std::string& w : warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

// No Tracer and nothing remembered: the engine borrows CUPTI once for its calibration, so the
// events-only headline meets the CUPTI target.
TEST_F(EngineCold, EventsOnlyHeadlineBorrowsCuptiForTheFixedCost) {
  isolate_cache();
  Engine engine;
  std::vector<Measurement> results;
  for (std::uint64_t ns : {2'000u, 100'000u}) {
    MeasureOptions options;
    options.name = "spin/" + std::to_string(ns);
    results.push_back(engine.measure(spin(ns), options));
  }
  Tracer tracer;  // only now: the measurements above ran without a Tracer of the test's
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  for (const Measurement& m : results) {
    const std::uint64_t ns = m.name == "spin/2000" ? 2'000 : 100'000;
    const double truth = cupti_spin_reference_ns(tracer, ns, 200);
    EXPECT_EQ(m.headline_timer, "cuda-event-corrected");
    EXPECT_GT(m.info.event_floor_ns, 1'000.0);
    ASSERT_TRUE(m.info.kernel_fixed_cost_ns.has_value()) << ::testing::PrintToString(m.warnings);
    EXPECT_EQ(m.info.kernel_fixed_cost_source, "borrowed-cupti");
    EXPECT_GT(*m.info.kernel_fixed_cost_ns, 0.0);
    EXPECT_LT(*m.info.kernel_fixed_cost_ns, m.info.event_floor_ns);
    EXPECT_NEAR(m.headline.median, truth, tolerance_ns(truth, 0.02, 250.0)) << m.name;
    EXPECT_FALSE(mentions(m.warnings, "may read low")) << ::testing::PrintToString(m.warnings);
  }
}

// Nothing known and borrowing off (--no-cupti): the floor alone, within the old events target,
// and the measurement says it may read low and why.
TEST_F(EngineCold, WithoutAFixedCostTheHeadlineSaysItMayReadLow) {
  isolate_cache();
  Engine engine;
  MeasureOptions options;
  options.name = "spin/10000";
  options.borrow_cupti = false;
  const Measurement m = engine.measure(spin(10'000), options);
  EXPECT_FALSE(m.info.kernel_fixed_cost_ns.has_value());
  EXPECT_EQ(m.info.kernel_fixed_cost_source, "");
  EXPECT_TRUE(mentions(m.warnings, "may read low by about 0.5 to 1.1 us"))
      << ::testing::PrintToString(m.warnings);
  EXPECT_TRUE(mentions(m.warnings, "MeasureOptions::borrow_cupti is off"))
      << ::testing::PrintToString(m.warnings);
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  const double truth = cupti_spin_reference_ns(tracer, 10'000, 200);
  EXPECT_NEAR(m.headline.median, truth, tolerance_ns(truth, 0.03, 1'000.0));
  EXPECT_LT(m.headline.median, truth);  // low, as it says
}

// A calibration with the user's Tracer measures the fixed cost; a later engine without CUPTI
// (the Tracer stopped: another tool could hold CUPTI now) uses it, from the process's memory.
TEST_F(EngineCold, ATracersCalibrationIsRememberedForLaterEventsOnlyMeasurements) {
  isolate_cache();
  double truth = 0.0;
  double fixed = 0.0;
  double traced_events = 0.0;
  {
    Tracer tracer;
    ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
    Engine engine;
    MeasureOptions options;
    options.name = "spin/10000";
    options.tracer = &tracer;
    const Measurement m = engine.measure(spin(10'000), options);
    EXPECT_EQ(m.headline_timer, "cupti-kernel");
    ASSERT_TRUE(m.info.kernel_fixed_cost_ns.has_value());
    EXPECT_EQ(m.info.kernel_fixed_cost_source, "tracer");
    fixed = *m.info.kernel_fixed_cost_ns;
    traced_events = m.events.median;
    truth = cupti_spin_reference_ns(tracer, 10'000, 200);
  }
  Engine later;
  MeasureOptions options;
  options.name = "spin/10000";
  options.borrow_cupti = false;
  const Measurement m = later.measure(spin(10'000), options);
  EXPECT_EQ(m.headline_timer, "cuda-event-corrected");
  EXPECT_EQ(m.info.kernel_fixed_cost_source, "process");
  EXPECT_EQ(m.info.kernel_fixed_cost_ns, fixed);
  // The headline is the events less the floor plus the fixed cost: a miss says which moved.
  EXPECT_NEAR(m.headline.median, truth, tolerance_ns(truth, 0.02, 250.0))
      << "events " << m.events.median << " ns (with the Tracer " << traced_events
      << " ns), so a floor of " << m.events.median + fixed - m.headline.median << " ns; fixed cost "
      << fixed << " ns";
}

// Another CUPTI subscriber holds CUPTI from the start (as Nsight or torch.profiler do) and
// nothing was calibrated before: the engine leaves that CUPTI alone and calibrates in a
// `kerntime calibrate` process of its own, so a short kernel's events-only headline meets the
// CUPTI target.
TEST_F(EngineCold, ACuptiHeldByAnotherSubscriberIsCalibratedInAProcessOfItsOwn) {
  isolate_cache();
  ::setenv("KERNTIME_CLI", KERNTIME_CLI_PATH, 1);
  double truth = 0.0;
  {
    Tracer reference;
    ASSERT_TRUE(reference.active()) << reference.unavailable_reason();
    truth = cupti_spin_reference_ns(reference, 2'000, 200);
  }
  Tracer holder;  // the other client: while it is active, CUPTI is not free here
  ASSERT_TRUE(holder.active()) << holder.unavailable_reason();
  Engine engine;
  MeasureOptions options;
  options.name = "spin/2000";
  const Measurement m = engine.measure(spin(2'000), options);
  ::unsetenv("KERNTIME_CLI");
  EXPECT_EQ(m.headline_timer, "cuda-event-corrected");
  EXPECT_EQ(m.info.kernel_fixed_cost_source, kFixedCostFromProcessOfItsOwn)
      << ::testing::PrintToString(m.warnings);
  EXPECT_NEAR(m.headline.median, truth, tolerance_ns(truth, 0.02, 250.0));
}

// The same without the calibration process: the fixed cost is unknown and the warning says
// who holds CUPTI and how far off the headline may be.
TEST_F(EngineCold, ACuptiHeldByAnotherSubscriberIsNotBorrowed) {
  isolate_cache();
  ::setenv("KERNTIME_NO_CALIBRATION_PROCESS", "1", 1);
  Tracer holder;
  ASSERT_TRUE(holder.active()) << holder.unavailable_reason();
  Engine engine;
  MeasureOptions options;
  options.name = "spin/10000";
  const Measurement m = engine.measure(spin(10'000), options);
  ::unsetenv("KERNTIME_NO_CALIBRATION_PROCESS");
  EXPECT_FALSE(m.info.kernel_fixed_cost_ns.has_value());
  EXPECT_TRUE(mentions(m.warnings, "another kerntime::Tracer is active in this process"))
      << ::testing::PrintToString(m.warnings);
  EXPECT_TRUE(mentions(m.warnings, "KERNTIME_NO_CALIBRATION_PROCESS is set"));
  EXPECT_TRUE(mentions(m.warnings, "may read low by"));
}

TEST_F(EngineCold, EverySampleReadsAPlausibleSmClock) {
  Engine engine;
  MeasureOptions options;
  options.stopping.fixed_samples = 200;
  const Measurement m = engine.measure(spin(10'000), options);
  ASSERT_GT(m.info.normal_sm_clock_mhz, 0.0);
  std::size_t with_clock = 0;
  for (const SampleRecord& s : m.samples)
    with_clock += s.sm_clock_mhz ? 1 : 0;
  EXPECT_GE(with_clock * 10, m.samples.size() * 9);
  ASSERT_TRUE(m.info.median_sm_clock_mhz.has_value());
  EXPECT_GT(*m.info.median_sm_clock_mhz, 0.5 * m.info.normal_sm_clock_mhz);
  EXPECT_LT(*m.info.median_sm_clock_mhz, 1.1 * m.info.normal_sm_clock_mhz);
  EXPECT_GT(m.info.host_overhead_ns, 0.0);
}

TEST_F(EngineCold, TheL2FlushMakesAnL2SizedCopySlower) {
  constexpr std::size_t kBytes = std::size_t{8} << 20;  // 16 MiB moved: well inside the L2
  void* buffers = nullptr;
  ASSERT_EQ(cudaMalloc(&buffers, 2 * kBytes), cudaSuccess);
  char* src = static_cast<char*>(buffers);
  const Launcher copy = [src](cudaStream_t stream) {
    samples::launch_device_copy(src + kBytes, src, kBytes, stream);
  };
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  Engine engine;
  MeasureOptions options;
  options.tracer = &tracer;
  options.name = "copy/flushed";
  const Measurement flushed = engine.measure(copy, options);
  options.name = "copy/warm";
  options.l2_flush = false;
  const Measurement warm = engine.measure(copy, options);
  cudaFree(buffers);
  EXPECT_TRUE(flushed.info.l2_flushed);
  EXPECT_FALSE(warm.info.l2_flushed);
  EXPECT_GT(flushed.headline.median, 1.3 * warm.headline.median)
      << "flushed " << flushed.headline.median << " ns, warm " << warm.headline.median << " ns";
}

}  // namespace
}  // namespace kerntime
