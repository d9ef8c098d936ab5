// SPDX-License-Identifier: Apache-2.0
// kerntime's NVTX handlers as a program's NVTX calls reach them, on a recorder, without NVTX or
// CUDA: once a thread's ranges are known, a push and a pop allocate nothing and take no lock the
// reader thread holds; the ranges the threads close reach the report in the order each closed
// them, however many wait before the reader takes them.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "fake_nvtx.hpp"
#include "inject/run_recorder.hpp"
#include "inject/thread_ranges.hpp"

// Every allocation of the calling thread is counted while `t_counting` is set.
namespace {
thread_local bool t_counting = false;
thread_local std::size_t t_allocations = 0;

void* counted(std::size_t size) {
  if (t_counting) ++t_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc{};
}
void* counted_aligned(std::size_t size, std::align_val_t align) {
  if (t_counting) ++t_allocations;
  const auto alignment = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment))
    return p;
  throw std::bad_alloc{};
}
}  // namespace

void* operator new(std::size_t size) {
  return counted(size);
}
void* operator new[](std::size_t size) {
  return counted(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t size, std::align_val_t align) {
  return counted_aligned(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return counted_aligned(size, align);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}

namespace kerntime::inject {
namespace {

RunSettings settings() {
  RunSettings s;
  s.output_directory = "/tmp";
  return s;
}

const RangeSummary* range_row(const Report& report, const std::string& name) {
  for (const RangeSummary& r : report.trace->range_summary) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

using PushEx = int(NVTX_API*)(const nvtxEventAttributes_t*);
using DomainPushEx = int(NVTX_API*)(nvtxDomainHandle_t, const nvtxEventAttributes_t*);
using DomainPop = int(NVTX_API*)(nvtxDomainHandle_t);
using DomainCreate = nvtxDomainHandle_t(NVTX_API*)(const char*);
using RegisterString = nvtxStringHandle_t(NVTX_API*)(nvtxDomainHandle_t, const char*);

nvtxEventAttributes_t ascii(const char* text) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = text;
  return attributes;
}

TEST(NvtxHooks, APushAndAPopAllocateNothingOnceTheirRangesAreKnown) {
  RunRecorder recorder{settings()};
  const testing::FakeNvtx nvtx{recorder};
  const auto push_ex = testing::FakeNvtx::handler<PushEx>(NVTX_CBID_CORE_RangePushEx);
  const auto domain_push =
      testing::FakeNvtx::handler<DomainPushEx>(NVTX_CBID_CORE2_DomainRangePushEx, true);
  const auto domain_pop =
      testing::FakeNvtx::handler<DomainPop>(NVTX_CBID_CORE2_DomainRangePop, true);
  const nvtxDomainHandle_t domain = testing::FakeNvtx::handler<DomainCreate>(
      NVTX_CBID_CORE2_DomainCreateA, true)("a library's own domain");
  nvtxEventAttributes_t registered = ascii(nullptr);
  registered.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  registered.message.registered = testing::FakeNvtx::handler<RegisterString>(
      NVTX_CBID_CORE2_DomainRegisterStringA, true)(domain, "a registered name, long enough");
  const nvtxEventAttributes_t attention = ascii("aten::scaled_dot_product_attention");
  // Names longer than a std::string holds without allocating, each a path of its own.
  const auto ranges = [&] {
    nvtx.push("transformer block, forward");
    push_ex(&attention);
    domain_push(domain, &registered);
    domain_pop(domain);
    nvtx.pop();
    nvtx.pop();
  };
  for (int i = 0; i < 10; ++i)
    ranges();
  (void)recorder.report(false);  // the reader takes what the thread has closed

  t_allocations = 0;
  t_counting = true;
  for (int i = 0; i < 300; ++i)  // 900 closed ranges: fewer than the thread's ring holds
    ranges();
  t_counting = false;
  EXPECT_EQ(t_allocations, 0u);

  const Report report = recorder.report(false);
  ASSERT_NE(range_row(report, "transformer block, forward"), nullptr);
  EXPECT_EQ(range_row(report, "transformer block, forward")->instances, 310u);
  EXPECT_EQ(range_row(report, "aten::scaled_dot_product_attention")->instances, 310u);
  const RangeSummary* library = range_row(report, "a registered name, long enough");
  ASSERT_NE(library, nullptr);
  EXPECT_EQ(library->domain, "a library's own domain");
  EXPECT_EQ(library->instances, 310u);
}

// Python hands NVTX a new buffer for each name, and reuses freed ones: a cached name is one of
// text, not of where the text is.
TEST(NvtxHooks, ANameBufferReusedForAnotherNameIsAnotherRange) {
  RunRecorder recorder{settings()};
  const testing::FakeNvtx nvtx{recorder};
  char buffer[32];
  for (const char* name : {"load", "step", "load", "save"}) {
    std::strcpy(buffer, name);
    nvtx.push(buffer);
    nvtx.pop();
  }
  const Report report = recorder.report(false);
  ASSERT_EQ(report.trace->range_summary.size(), 3u);
  EXPECT_EQ(range_row(report, "load")->instances, 2u);
  EXPECT_EQ(range_row(report, "step")->instances, 1u);
  EXPECT_EQ(range_row(report, "save")->instances, 1u);
}

// KERNTIME_RUN_COST_PHASES: while idle the hooks record nothing, and a range open across the
// switch still closes itself, not another; with the hooks back, ranges count again.
TEST(NvtxHooks, IdleHooksRecordNothingAndKeepTheStackInStep) {
  RunRecorder recorder{settings()};
  const testing::FakeNvtx nvtx{recorder};
  nvtx.push("step");  // open before the switch, closed during it
  set_nvtx_hooks_idle(true);
  nvtx.push("forward");  // opened and closed while idle
  nvtx.pop();
  nvtx.push("backward");  // opened while idle, closed after
  set_nvtx_hooks_idle(false);
  nvtx.pop();
  nvtx.pop();
  EXPECT_EQ(open_range_path(), 0u);
  nvtx.push("optimizer");
  nvtx.pop();
  const Report report = recorder.report(false);
  ASSERT_NE(range_row(report, "step"), nullptr);
  EXPECT_EQ(range_row(report, "step")->instances, 1u);
  ASSERT_NE(range_row(report, "optimizer"), nullptr);
  EXPECT_EQ(range_row(report, "optimizer")->instances, 1u);
  EXPECT_EQ(range_row(report, "forward"), nullptr);
  EXPECT_EQ(range_row(report, "backward"), nullptr);
}

// Each range's durations are kept in the order its thread closed them (all of them while fewer
// than --samples-per-kernel), through the ring and what spills past it, and past the most a
// thread may leave waiting, when it takes them in itself.
TEST(NvtxHooks, ClosedRangesReachTheReportInTheOrderTheyClosedHoweverManyWait) {
  RunSettings s = settings();
  s.samples_per_kernel = 200'000;
  RunRecorder recorder{s};
  const std::uint64_t step = recorder.range_id("", "step");
  const std::size_t count = ThreadRanges::kMaxSpilled + 3 * ThreadRanges::kRing + 5;
  for (std::size_t i = 0; i < count; ++i)
    recorder.add_range(step, 1'000, 1'000 + i);  // duration i: the order shows
  const Report report = recorder.report(false);
  const Entry* entry = report.find("nvtx:step");
  ASSERT_NE(entry, nullptr);
  ASSERT_EQ(entry->samples.size(), count);
  for (std::size_t i = 0; i < count; ++i)
    ASSERT_EQ(entry->samples[i], static_cast<double>(i)) << "sample " << i;
}

// Threads open the same ranges at once: every instance counts, under one id per name and one
// per nesting, and each thread's durations keep their order.
TEST(NvtxHooks, ThreadsOpeningTheSameRangesAtOnceCountEveryInstance) {
  RunRecorder recorder{settings()};
  const testing::FakeNvtx nvtx{recorder};
  constexpr int kThreads = 4;
  constexpr int kSteps = 3'000;
  std::atomic<bool> stop{false};
  std::thread reader{[&] {
    while (!stop.load())
      (void)recorder.report(false);
  }};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kSteps; ++i) {
        nvtx.push("step");
        nvtx.push("forward");
        nvtx.pop();
        nvtx.pop();
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  stop.store(true);
  reader.join();
  const Report report = recorder.report(false);
  ASSERT_EQ(report.trace->range_summary.size(), 2u);
  EXPECT_EQ(range_row(report, "step")->instances, std::uint64_t{kThreads} * kSteps);
  EXPECT_EQ(range_row(report, "forward")->instances, std::uint64_t{kThreads} * kSteps);
  // One path per nesting, whichever thread opened it first.
  EXPECT_EQ(recorder.range_path_text(recorder.range_path(0, recorder.range_id("", "step"))),
            "range \"step\"");
  EXPECT_EQ(recorder.range_path(0, recorder.range_id("", "step")), 1u);
  EXPECT_EQ(recorder.range_path(1, recorder.range_id("", "forward")), 2u);
}

}  // namespace
}  // namespace kerntime::inject
