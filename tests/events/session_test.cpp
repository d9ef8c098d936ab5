// SPDX-License-Identifier: Apache-2.0
// Event timing on the GPU: accuracy against the calibrated spin kernel, no synchronization on
// the hot path, and aggregation across streams, threads and recycled events.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/session.hpp>

#include "kernels/spin.hpp"
#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

using samples::launch_spin;
using Clock = std::chrono::steady_clock;

class SessionTest : public testing::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess);
    launch_spin(10'000, stream_);  // load the module before anything is timed
    ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  }
  void TearDown() override {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  cudaStream_t stream_ = nullptr;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// An event pair around one launch on an idle stream reads the kernel plus the launch gap: about
// 5 us on an H200 (docs/timing.md), more for a sample whose launch waited for another thread.
// So no sample may be shorter than the kernel, and the median may exceed it by the gap only.
constexpr double kLaunchGapNs = 10'000;

void expect_kernel_time(const std::vector<double>& samples, double kernel_ns) {
  ASSERT_FALSE(samples.empty());
  for (double ns : samples)
    EXPECT_GE(ns, kernel_ns * 0.999) << "shorter than the kernel ran";
  EXPECT_GE(median(samples), kernel_ns);
  EXPECT_LE(median(samples), kernel_ns + kLaunchGapNs);
}

TEST_F(SessionTest, OneMillisecondSpinIsReportedWithinTwoPercent) {
  Session session;
  std::vector<double> enqueue_ns;
  for (int i = 0; i < 20; ++i) {
    const auto begin = Clock::now();
    {
      ScopedTimer timer{session, "spin/1ms", stream_};
      launch_spin(1'000'000, stream_);
    }
    enqueue_ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - begin).count());
  }
  const std::vector<double> gpu = session.samples("spin/1ms");
  ASSERT_EQ(gpu.size(), 20u);
  // The reported figure (the median) is within 2 % of 1 ms; no sample is shorter than the
  // kernel, and none carries more than a few launch gaps.
  EXPECT_LE(std::abs(median(gpu) - 1e6), 0.02 * 1e6) << median(gpu);
  for (double ns : gpu) {
    EXPECT_GE(ns, 1'000'000 * 0.999) << "an event pair cannot read less than the kernel ran";
    EXPECT_LE(ns, 1'050'000) << ns;
  }
  // The host only queued the work: the timed scope returned long before the kernel ended.
  EXPECT_LT(median(enqueue_ns), 0.05 * 1e6) << "median host enqueue " << median(enqueue_ns);
}

TEST_F(SessionTest, TimersDoNotSynchronize) {
  Session session;
  launch_spin(50'000'000, stream_);  // 50 ms holds the stream
  const auto begin = Clock::now();
  for (int i = 0; i < 10; ++i) {
    ScopedTimer timer{session, "queued", stream_};
    launch_spin(1'000, stream_);
  }
  const double host_ms = std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
  EXPECT_LT(host_ms, 25.0) << "ten timed scopes waited for the GPU";
  EXPECT_EQ(session.in_flight(), 10u);
  EXPECT_EQ(session.samples("queued").size(), 10u);
  EXPECT_EQ(session.in_flight(), 0u);
}

TEST_F(SessionTest, FunctionFormReturnsTheCallablesResult) {
  Session session;
  const int value = session.time("function", stream_, [&] {
    launch_spin(100'000, stream_);
    return 42;
  });
  EXPECT_EQ(value, 42);
  const auto s = session.samples("function");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_GE(s[0], 100'000 * 0.999);
}

TEST_F(SessionTest, ConcurrentStreamsEachSeeTheirOwnKernel) {
  Session session;
  constexpr int kStreams = 4;
  std::vector<cudaStream_t> streams(kStreams);
  for (auto& s : streams)
    ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), 0);
  for (int round = 0; round < 10; ++round) {
    for (int i = 0; i < kStreams; ++i) {
      ScopedTimer timer{session, "stream" + std::to_string(i), streams[i]};
      launch_spin(200'000 * (i + 1), streams[i]);
    }
  }
  for (int i = 0; i < kStreams; ++i) {
    const auto s = session.samples("stream" + std::to_string(i));
    ASSERT_EQ(s.size(), 10u);
    SCOPED_TRACE("stream " + std::to_string(i));
    expect_kernel_time(s, 200'000.0 * (i + 1));
  }
  for (auto s : streams)
    cudaStreamDestroy(s);
}

TEST_F(SessionTest, ThreadsAggregateIntoOneRegion) {
  Session session;
  constexpr int kThreads = 4;
  constexpr int kPerThread = 50;
  std::vector<std::thread> threads;
  std::vector<std::string> failures(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        cudaStream_t stream = nullptr;
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        for (int i = 0; i < kPerThread; ++i) {
          ScopedTimer timer{session, "shared", stream};
          launch_spin(50'000, stream);
        }
        cudaStreamSynchronize(stream);
        cudaStreamDestroy(stream);
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  for (const auto& f : failures)
    EXPECT_TRUE(f.empty()) << f;
  const auto s = session.samples("shared");
  ASSERT_EQ(s.size(), static_cast<std::size_t>(kThreads * kPerThread));
  expect_kernel_time(s, 50'000.0);
}

TEST_F(SessionTest, SmallPoolRecyclesWithoutLosingSamples) {
  SessionOptions options;
  options.event_pairs_per_device = 4;
  Session session{options};
  const Region region = session.region("recycled");
  for (int i = 0; i < 100; ++i) {
    ScopedTimer timer{session, region, stream_};
    launch_spin(20'000, stream_);
  }
  const auto s = session.samples("recycled");
  ASSERT_EQ(s.size(), 100u);
  expect_kernel_time(s, 20'000.0);
}

TEST_F(SessionTest, TooManyOpenTimersIsAClearError) {
  SessionOptions options;
  options.event_pairs_per_device = 2;
  Session session{options};
  ScopedTimer a{session, "a", stream_};
  ScopedTimer b{session, "b", stream_};
  try {
    ScopedTimer c{session, "c", stream_};
    FAIL() << "a third open timer got an event pair";
  } catch (const Error& e) {
    EXPECT_NE(std::string{e.what()}.find("event_pairs_per_device"), std::string::npos) << e.what();
  }
}

TEST_F(SessionTest, RegionOfAnotherSessionIsRejected) {
  Session first;
  Session second;
  first.region("a");
  const Region b = first.region("b");
  EXPECT_THROW((ScopedTimer{second, b, stream_}), Error);

  // The same id in both Sessions: the Region still names its own Session, and nothing is timed
  // into the other one's region of that id.
  const Region a = first.region("a");
  const Region x = second.region("x");
  ASSERT_EQ(a.id(), x.id());
  try {
    ScopedTimer timer{second, a, stream_};
    FAIL() << "a Region of another Session was accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string{error.what()}.find("another Session"), std::string::npos) << error.what();
  }
  EXPECT_EQ(second.in_flight(), 0u);
  EXPECT_TRUE(second.samples("x").empty());

  // Its own Session still accepts it.
  {
    ScopedTimer timer{first, a, stream_};
    launch_spin(10'000, stream_);
  }
  EXPECT_EQ(first.samples("a").size(), 1u);
}

TEST_F(SessionTest, ReportHasEveryRegionWithStatistics) {
  Session session;
  for (int i = 0; i < 5; ++i) {
    ScopedTimer timer{session, "spin/100us", stream_};
    launch_spin(100'000, stream_);
  }
  {
    ScopedTimer timer{session, "spin/10us", stream_};
    launch_spin(10'000, stream_);
  }
  const Report report = session.report();
  ASSERT_EQ(report.entries.size(), 2u);
  EXPECT_EQ(report.entries[0].name, "spin/100us");
  EXPECT_EQ(report.entries[0].statistics.count, 5u);
  EXPECT_EQ(report.entries[0].timer, "cuda-event");
  ASSERT_TRUE(report.entries[0].device.has_value());
  EXPECT_GE(report.entries[0].statistics.median, 100'000 * 0.999);
  EXPECT_EQ(report.entries[1].statistics.count, 1u);
  ASSERT_FALSE(report.environment.devices.empty());
  EXPECT_GT(report.environment.driver_version, 0);
}

}  // namespace
}  // namespace kerntime
