// SPDX-License-Identifier: Apache-2.0
// Record checks on synthetic records: bad timestamps are counted and excluded, graph launches,
// names, devices and streams, API records, copies and memsets.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/synthetic_records.hpp"
#include "trace/trace_builder.hpp"

namespace kerntime::trace {
namespace {

using testing::mentions;
using testing::raw_api;
using testing::raw_kernel;
using testing::raw_tag;

TEST(TraceBuilder, ZeroAndInvertedTimestampsAreCountedAndExcluded) {
  RecordBatch batch;
  batch.api_calls.push_back(raw_api(1, 100, 200));
  batch.api_calls.push_back(raw_api(2, 0, 0));      // zero
  batch.api_calls.push_back(raw_api(3, 500, 400));  // inverted
  batch.kernels.push_back(raw_kernel("good", 1, 1'000, 2'000));
  batch.kernels.push_back(raw_kernel("zero", 1, 0, 0));
  batch.kernels.push_back(raw_kernel("zero_end", 1, 5'000, 0));
  batch.kernels.push_back(raw_kernel("inverted", 1, 9'000, 8'999));
  RawMemcpy copy;
  copy.correlation_id = 2;
  copy.bytes = 4096;
  batch.memcpys.push_back(copy);  // zero timestamps
  RawMemset set;
  set.start_ns = 7'000;
  set.end_ns = 6'000;
  batch.memsets.push_back(set);  // inverted
  TraceBuilder builder;
  builder.append(batch);
  const Trace trace = builder.build({});

  ASSERT_EQ(trace.kernels.size(), 1u);
  EXPECT_EQ(trace.kernels[0].name, "good");
  EXPECT_EQ(trace.kernels[0].duration_ns(), 1'000u);
  EXPECT_TRUE(trace.memcpys.empty());
  EXPECT_TRUE(trace.memsets.empty());
  ASSERT_EQ(trace.api_calls.size(), 1u);
  EXPECT_EQ(trace.zero_timestamp_records, 4u);      // api 2, two kernels, the copy
  EXPECT_EQ(trace.inverted_timestamp_records, 3u);  // api 3, a kernel, the memset
  EXPECT_TRUE(mentions(trace, "excluded 4 records without timestamps"));
  EXPECT_TRUE(mentions(trace, "excluded 3 records that end before they start"));
}

TEST(TraceBuilder, GraphLaunchCoversEveryNodeWithOneCorrelationId) {
  ScopeTable scopes;
  scopes.record(9, 0, "replay", 42);
  RecordBatch batch;
  batch.api_calls.push_back(raw_api(50, 10'000, 12'000, 42, testing::kGraphLaunch));
  batch.scope_tags.push_back(raw_tag(50, 9));
  for (std::uint64_t node = 1; node <= 3; ++node) {
    RawKernel k = raw_kernel("node_kernel", 50, 20'000 + node * 1'000, 20'500 + node * 1'000);
    k.graph_id = 5;
    k.graph_node_id = node;
    batch.kernels.push_back(k);
  }
  TraceBuilder builder;
  builder.set_api_name(ApiKind::runtime, testing::kGraphLaunch, "cudaGraphLaunch_v10000");
  builder.append(batch);
  const Trace trace = builder.build(scopes.snapshot());
  ASSERT_EQ(trace.kernels.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const KernelActivity& k = trace.kernels[i];
    EXPECT_EQ(k.correlation_id, 50u);
    EXPECT_EQ(k.graph_id, 5u);
    EXPECT_EQ(k.graph_node_id, i + 1);
    EXPECT_EQ(k.scope_name, "replay");
    ASSERT_TRUE(k.launch.has_value());
    EXPECT_EQ(k.launch->name, "cudaGraphLaunch");
    EXPECT_EQ(k.queue_delay_ns(), 11'000u + i * 1'000);
  }
  EXPECT_EQ(trace.unattributed_kernels, 0u);
}

TEST(TraceBuilder, NamesThatFailToDemangleStayMangled) {
  RecordBatch batch;
  batch.kernels.push_back(raw_kernel("_Zbroken!", 1, 100, 200));
  batch.kernels.push_back(raw_kernel("plain_c_kernel", 2, 300, 400));
  batch.kernels.push_back(raw_kernel(nullptr, 3, 500, 600));
  TraceBuilder builder;
  builder.append(batch);
  const Trace trace = builder.build({});
  ASSERT_EQ(trace.kernels.size(), 3u);
  EXPECT_EQ(trace.kernels[0].name, "_Zbroken!");
  EXPECT_EQ(trace.kernels[0].mangled_name, "_Zbroken!");
  EXPECT_EQ(trace.kernels[1].name, "plain_c_kernel");
  EXPECT_EQ(trace.kernels[2].name, "<unknown kernel>");
  EXPECT_TRUE(mentions(trace, "could not demangle 1 kernel name"));
}

TEST(TraceBuilder, KeepsDevicesAndStreamsAndSortsByStart) {
  RecordBatch batch;
  for (std::uint32_t device = 0; device < 4; ++device) {
    for (std::uint32_t stream = 0; stream < 3; ++stream) {
      const std::uint32_t id = 100 + device * 10 + stream;
      const std::uint64_t start = 1'000'000 - id * 100;  // later ids start earlier
      batch.api_calls.push_back(raw_api(id, start - 5'000, start - 4'000, 42 + device));
      batch.kernels.push_back(raw_kernel("k", id, start, start + 10, device, stream + 13));
    }
  }
  TraceBuilder builder;
  builder.append(batch);
  const Trace trace = builder.build({});
  ASSERT_EQ(trace.kernels.size(), 12u);
  for (std::size_t i = 1; i < trace.kernels.size(); ++i) {
    EXPECT_LE(trace.kernels[i - 1].start_ns, trace.kernels[i].start_ns);
  }
  for (const KernelActivity& k : trace.kernels) {
    EXPECT_EQ(k.correlation_id, 100 + k.device * 10 + (k.stream - 13));
    EXPECT_EQ(k.context, k.device + 1);
    EXPECT_EQ(k.launch->thread_id, 42 + k.device);
  }
  EXPECT_EQ(trace.kernels.front().device, 3u);
}

TEST(TraceBuilder, CountsKernelsThatStartBeforeTheirLaunch) {
  RecordBatch batch;
  batch.api_calls.push_back(raw_api(1, 10'000, 11'000));
  batch.kernels.push_back(raw_kernel("k", 1, 9'000, 9'500));
  TraceBuilder builder;
  builder.append(batch);
  const Trace trace = builder.build({});
  EXPECT_EQ(trace.kernels_before_launch, 1u);
  EXPECT_FALSE(trace.kernels[0].queue_delay_ns().has_value());
  EXPECT_EQ(trace.kernels[0].enqueue_ns(), 1'000u);
  EXPECT_TRUE(mentions(trace, "different clocks"));
}

TEST(TraceBuilder, PrefersTheRuntimeCallWhenADriverCallSharesItsId) {
  RecordBatch batch;
  batch.api_calls.push_back(raw_api(1, 1'000, 1'500, 42, 300, ApiKind::driver));
  batch.api_calls.push_back(raw_api(1, 900, 2'000, 42, testing::kLaunchKernel));
  batch.kernels.push_back(raw_kernel("k", 1, 5'000, 6'000));
  TraceBuilder builder;
  builder.set_api_name(ApiKind::runtime, testing::kLaunchKernel, "cudaLaunchKernel_v7000");
  builder.append(batch);
  const Trace trace = builder.build({});
  ASSERT_TRUE(trace.kernels[0].launch.has_value());
  EXPECT_EQ(trace.kernels[0].launch->kind, ApiKind::runtime);
  EXPECT_EQ(trace.kernels[0].launch->name, "cudaLaunchKernel");
  EXPECT_EQ(trace.api_calls[1].name, "driver API function 300");
}

TEST(TraceBuilder, ReportsUnnamedApiFunctionsOnce) {
  RecordBatch batch;
  batch.api_calls.push_back(raw_api(1, 1, 2, 42, 211));
  batch.api_calls.push_back(raw_api(2, 3, 4, 42, 211));
  batch.api_calls.push_back(raw_api(3, 5, 6, 42, 17, ApiKind::driver));
  TraceBuilder builder;
  builder.append(batch);
  using Pair = std::pair<ApiKind, std::uint32_t>;
  EXPECT_EQ(builder.unnamed_api_functions(),
            (std::vector<Pair>{{ApiKind::runtime, 211}, {ApiKind::driver, 17}}));
  builder.set_api_name(ApiKind::runtime, 211, "cudaLaunchKernel_v7000");
  EXPECT_EQ(builder.unnamed_api_functions(), (std::vector<Pair>{{ApiKind::driver, 17}}));
}

TEST(TraceBuilder, CopiesAndMemsetsAreAttributedToo) {
  ScopeTable scopes;
  scopes.record(4, 0, "upload", 42);
  RecordBatch batch;
  batch.api_calls.push_back(raw_api(7, 1'000, 2'000));
  batch.scope_tags.push_back(raw_tag(7, 4));
  RawMemcpy copy;
  copy.kind = MemcpyKind::host_to_device;
  copy.bytes = 1'000'000'000;
  copy.start_ns = 10'000;
  copy.end_ns = 1'010'000;  // 1 ms
  copy.correlation_id = 7;
  copy.destination_device = 2;
  batch.memcpys.push_back(copy);
  RawMemset set;
  set.bytes = 4096;
  set.start_ns = 2'000'000;
  set.end_ns = 2'004'096;
  set.correlation_id = 8;  // no launch record
  batch.memsets.push_back(set);
  TraceBuilder builder;
  builder.append(batch);
  const Trace trace = builder.build(scopes.snapshot());
  ASSERT_EQ(trace.memcpys.size(), 1u);
  EXPECT_EQ(trace.memcpys[0].scope_name, "upload");
  EXPECT_DOUBLE_EQ(trace.memcpys[0].bandwidth_gb_per_s(), 1000.0);
  EXPECT_EQ(trace.memcpys[0].destination_device, 2);
  EXPECT_EQ(to_string(trace.memcpys[0].kind), "HtoD");
  ASSERT_EQ(trace.memsets.size(), 1u);
  EXPECT_FALSE(trace.memsets[0].launch.has_value());
  EXPECT_DOUBLE_EQ(trace.memsets[0].bandwidth_gb_per_s(), 1.0);
  EXPECT_EQ(trace.unattributed_kernels, 0u);  // only kernels count there
}
}  // namespace
}  // namespace kerntime::trace
