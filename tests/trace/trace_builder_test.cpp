// SPDX-License-Identifier: Apache-2.0
// Correlation and attribution on synthetic records: the result must not depend on record order
// or on how records were split into buffers, and bad records are counted, never used.
#include "trace/trace_builder.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/synthetic_records.hpp"

namespace kerntime::trace {
namespace {

using testing::mentions;
using testing::raw_api;
using testing::raw_kernel;
using testing::raw_tag;

// (scope 3). Six launches: 10, 11 in outer; 12, 13 in inner; 14 in other; 15 outside any scope.
struct Scenario {
  ScopeTable scopes;
  std::vector<RecordBatch> pieces;  // apis, tags, kernels: three buffers

  Scenario() {
    scopes.record(1, 0, "outer", 42);
    scopes.record(2, 1, "inner", 42);
    scopes.record(3, 0, "other", 43);
    RecordBatch apis;
    RecordBatch tags;
    RecordBatch kernels;
    const std::uint32_t threads[] = {42, 42, 42, 42, 43, 42};
    const std::uint64_t scope_of[] = {1, 1, 2, 2, 3, 0};
    for (std::uint32_t i = 0; i < 6; ++i) {
      const std::uint32_t id = 10 + i;
      const std::uint64_t t = 1'000'000 + i * 10'000;
      apis.api_calls.push_back(raw_api(id, t, t + 3'000, threads[i]));
      // Inside "inner", CUPTI reports the innermost id only; the outer tag is added for launch 13
      // to check that the innermost still wins when both appear.
      if (scope_of[i] != 0) tags.scope_tags.push_back(raw_tag(id, scope_of[i]));
      if (id == 13) tags.scope_tags.push_back(raw_tag(id, 1));
      kernels.kernels.push_back(raw_kernel("_Z6kernelPfi", id, t + 5'000, t + 7'000 + i));
    }
    pieces = {apis, tags, kernels};
  }
};

struct Attribution {
  std::uint32_t correlation_id;
  std::uint64_t scope_id;
  std::string scope_name;
  std::uint64_t launch_start;
  std::uint32_t thread;
  std::uint64_t duration;
  bool operator==(const Attribution& o) const {
    return correlation_id == o.correlation_id && scope_id == o.scope_id &&
           scope_name == o.scope_name && launch_start == o.launch_start && thread == o.thread &&
           duration == o.duration;
  }
};

std::vector<Attribution> attributions(const Trace& trace) {
  std::vector<Attribution> result;
  for (const KernelActivity& k : trace.kernels) {
    result.push_back(Attribution{k.correlation_id, k.scope_id, std::string{k.scope_name},
                                 k.launch ? k.launch->start_ns : 0,
                                 k.launch ? k.launch->thread_id : 0, k.duration_ns()});
  }
  return result;
}

TEST(TraceBuilder, AttributesKernelsToInnermostScopeAndLaunch) {
  Scenario s;
  TraceBuilder builder;
  for (RecordBatch& piece : s.pieces)
    builder.append(piece);
  const Trace trace = builder.build(s.scopes.snapshot());

  ASSERT_EQ(trace.kernels.size(), 6u);
  const std::uint64_t expected_scope[] = {1, 1, 2, 2, 3, 0};
  const char* expected_name[] = {"outer", "outer", "inner", "inner", "other", ""};
  for (std::size_t i = 0; i < 6; ++i) {
    const KernelActivity& k = trace.kernels[i];
    EXPECT_EQ(k.correlation_id, 10 + i);
    EXPECT_EQ(k.scope_id, expected_scope[i]) << "launch " << k.correlation_id;
    EXPECT_EQ(k.scope_name, expected_name[i]);
    ASSERT_TRUE(k.launch.has_value());
    EXPECT_EQ(k.launch->start_ns, 1'000'000 + i * 10'000);
    EXPECT_EQ(k.name, "kernel(float*, int)");
    EXPECT_EQ(k.mangled_name, "_Z6kernelPfi");
    EXPECT_EQ(k.duration_ns(), 2'000 + i);
    EXPECT_EQ(k.enqueue_ns(), 3'000u);
    EXPECT_EQ(k.queue_delay_ns(), 5'000u);
    EXPECT_EQ(k.grid, (Dim3{128, 1, 1}));
    EXPECT_EQ(k.block, (Dim3{256, 1, 1}));
    EXPECT_EQ(k.registers_per_thread, 32u);
    EXPECT_EQ(k.static_shared_memory_bytes, 1024u);
    EXPECT_EQ(k.dynamic_shared_memory_bytes, 2048u);
  }
  EXPECT_EQ(trace.kernels[4].launch->thread_id, 43u);
  EXPECT_EQ(trace.unattributed_kernels, 0u);
  EXPECT_TRUE(trace.warnings.empty());
  ASSERT_EQ(trace.api_calls.size(), 6u);
  EXPECT_EQ(trace.api_calls[2].scope_name, "inner");
  ASSERT_EQ(trace.scopes.size(), 3u);
  EXPECT_EQ(trace.scopes[1].parent_id, 1u);
  EXPECT_EQ(trace.scopes[2].thread_id, 43u);
}

TEST(TraceBuilder, ResultDoesNotDependOnOrderOrBufferBoundaries) {
  Scenario s;
  TraceBuilder reference;
  for (RecordBatch& piece : s.pieces)
    reference.append(piece);
  const std::vector<Attribution> expected = attributions(reference.build(s.scopes.snapshot()));

  // Every order of the three buffers.
  std::vector<int> order{0, 1, 2};
  do {
    TraceBuilder builder;
    for (int i : order)
      builder.append(s.pieces[static_cast<std::size_t>(i)]);
    EXPECT_EQ(attributions(builder.build(s.scopes.snapshot())), expected);
  } while (std::next_permutation(order.begin(), order.end()));

  // One record per buffer, in reverse order of everything (kernels before their launches).
  TraceBuilder one_by_one;
  for (auto piece = s.pieces.rbegin(); piece != s.pieces.rend(); ++piece) {
    for (auto k = piece->kernels.rbegin(); k != piece->kernels.rend(); ++k) {
      RecordBatch b;
      b.kernels.push_back(*k);
      one_by_one.append(b);
    }
    for (auto t = piece->scope_tags.rbegin(); t != piece->scope_tags.rend(); ++t) {
      RecordBatch b;
      b.scope_tags.push_back(*t);
      one_by_one.append(b);
    }
    for (auto a = piece->api_calls.rbegin(); a != piece->api_calls.rend(); ++a) {
      RecordBatch b;
      b.api_calls.push_back(*a);
      one_by_one.append(b);
    }
  }
  EXPECT_EQ(attributions(one_by_one.build(s.scopes.snapshot())), expected);
}

TEST(TraceBuilder, KernelDeliveredBeforeItsLaunchInALaterBuild) {
  Scenario s;
  TraceBuilder builder;
  builder.append(s.pieces[2]);  // kernels only
  Trace early = builder.build(s.scopes.snapshot());
  EXPECT_EQ(early.unattributed_kernels, 6u);
  EXPECT_FALSE(early.kernels[0].launch.has_value());
  EXPECT_TRUE(mentions(early, "no launch API record for 6 kernels"));

  builder.append(s.pieces[0]);
  builder.append(s.pieces[1]);
  const Trace late = builder.build(s.scopes.snapshot());
  EXPECT_EQ(late.unattributed_kernels, 0u);
  EXPECT_EQ(late.kernels[3].scope_name, "inner");
}

TEST(TraceBuilder, DroppedRecordsAccumulateAndWarn) {
  TraceBuilder builder;
  builder.add_dropped(17);
  builder.add_dropped(3);
  const Trace trace = builder.build({});
  EXPECT_EQ(trace.dropped_records, 20u);
  EXPECT_TRUE(mentions(trace, "CUPTI dropped 20 activity records"));
}

TEST(TraceBuilder, ClearForgetsRecordsButKeepsScopesAndStrings) {
  Scenario s;
  TraceBuilder builder;
  for (RecordBatch& piece : s.pieces)
    builder.append(piece);
  const Trace before = builder.build(s.scopes.snapshot());
  builder.add_dropped(5);
  builder.clear_records();
  EXPECT_EQ(builder.record_count(), 0u);
  const Trace after = builder.build(s.scopes.snapshot());
  EXPECT_TRUE(after.kernels.empty());
  EXPECT_EQ(after.dropped_records, 0u);
  EXPECT_EQ(after.scopes.size(), 3u);
  // The earlier Trace's views still point at live text.
  EXPECT_EQ(before.kernels[2].scope_name, "inner");
  EXPECT_EQ(before.kernels[0].name, "kernel(float*, int)");
}

TEST(TraceBuilder, TraceStringsOutliveTheBuilder) {
  Trace copy;
  {
    Scenario s;
    TraceBuilder builder;
    for (RecordBatch& piece : s.pieces)
      builder.append(piece);
    copy = builder.build(s.scopes.snapshot());
  }
  EXPECT_EQ(copy.kernels[4].scope_name, "other");
  EXPECT_EQ(copy.kernels[4].name, "kernel(float*, int)");
  ASSERT_NE(copy.find_scope(2), nullptr);
  EXPECT_EQ(copy.find_scope(2)->name, "inner");
  EXPECT_EQ(copy.find_scope(99), nullptr);
}

}  // namespace
}  // namespace kerntime::trace
