// SPDX-License-Identifier: Apache-2.0
// Per-sample CUPTI spans from synthetic trace records.
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
  const auto spans = scope_spans(t, {11, 12, 13});
  ASSERT_EQ(spans.size(), 3u);
  ASSERT_TRUE(spans[0] && spans[1]);
  EXPECT_DOUBLE_EQ(*spans[0], 2650.0);  // copy 50 .. kernel 2700
  EXPECT_DOUBLE_EQ(*spans[1], 1500.0);  // kernel 5000 .. memset 6500
  EXPECT_FALSE(spans[2].has_value());   // nothing launched in sample 2
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
  const auto spans = scope_spans(t, {20});
  ASSERT_TRUE(spans[0].has_value());
  EXPECT_DOUBLE_EQ(*spans[0], 900.0);
}

}  // namespace
}  // namespace kerntime::bench
