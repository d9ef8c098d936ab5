// SPDX-License-Identifier: Apache-2.0
// Per-sample CUPTI spans and sums from synthetic trace records.
#include "bench/cupti_spans.hpp"

#include <gtest/gtest.h>

namespace kerntime::bench {
namespace {

KernelActivity kernel(std::uint64_t scope, std::uint64_t start, std::uint64_t end) {
  KernelActivity k;
  k.scope_id = scope;
  k.start_ns = start;
  k.end_ns = end;
  return k;
}

TEST(ScopeSpans, FirstStartToLastEndOfEachScope) {
  Trace t;
  t.kernels = {kernel(0, 0, 50),        // the engine's own kernels carry no scope
               kernel(11, 100, 2700),   // sample 0
               kernel(12, 5000, 6000),  // sample 1: kernel, then a memset after it
               kernel(99, 1, 2)};       // someone else's scope
  MemsetActivity memset;
  memset.scope_id = 12;
  memset.start_ns = 6400;
  memset.end_ns = 6500;
  t.memsets = {memset};
  MemcpyActivity copy;
  copy.scope_id = 11;
  copy.start_ns = 50;
  copy.end_ns = 90;
  t.memcpys = {copy};
  const auto times = scope_times(t, {11, 12, 13});
  ASSERT_EQ(times.size(), 3u);
  ASSERT_TRUE(times[0] && times[1]);
  EXPECT_DOUBLE_EQ(times[0]->span_ns, 2650.0);  // copy 50 .. kernel 2700
  EXPECT_DOUBLE_EQ(times[0]->sum_ns, 2640.0);   // 40 + 2600: the gap 90 .. 100 left out
  EXPECT_EQ(times[0]->activities, 2u);
  EXPECT_DOUBLE_EQ(times[1]->span_ns, 1500.0);  // kernel 5000 .. memset 6500
  EXPECT_DOUBLE_EQ(times[1]->sum_ns, 1100.0);   // 1000 + 100
  EXPECT_FALSE(times[2].has_value());           // nothing launched in sample 2
}

TEST(ScopeSpans, NestedScopesCountForTheirSample) {
  Trace t;
  TraceScope outer;
  outer.id = 20;
  TraceScope inner;
  inner.id = 21;
  inner.parent_id = 20;
  TraceScope deeper;
  deeper.id = 22;
  deeper.parent_id = 21;
  t.scopes = {outer, inner, deeper};
  t.kernels = {kernel(20, 1000, 1100), kernel(22, 1200, 1900)};
  const auto times = scope_times(t, {20});
  ASSERT_TRUE(times[0].has_value());
  EXPECT_DOUBLE_EQ(times[0]->span_ns, 900.0);
  EXPECT_DOUBLE_EQ(times[0]->sum_ns, 800.0);
}

// Kernels of two streams that overlap: busy time adds up past the span.
TEST(ScopeSpans, OverlappingActivitiesSumPastTheSpan) {
  Trace t;
  t.kernels = {kernel(30, 1000, 3000), kernel(30, 1500, 2500)};
  const auto times = scope_times(t, {30});
  ASSERT_TRUE(times[0].has_value());
  EXPECT_DOUBLE_EQ(times[0]->span_ns, 2000.0);
  EXPECT_DOUBLE_EQ(times[0]->sum_ns, 3000.0);
  EXPECT_EQ(times[0]->activities, 2u);
}

}  // namespace
}  // namespace kerntime::bench
