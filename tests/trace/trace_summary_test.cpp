// SPDX-License-Identifier: Apache-2.0
// Per-kernel and per-scope summaries of hand-made traces.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/trace.hpp>

namespace kerntime {
namespace {

KernelActivity kernel(std::string_view name, std::uint64_t start, std::uint64_t end,
                      std::uint64_t scope = 0, std::uint32_t stream = 7, Dim3 grid = {64, 1, 1}) {
  KernelActivity k;
  k.name = name;
  k.mangled_name = name;
  k.start_ns = start;
  k.end_ns = end;
  k.stream = stream;
  k.grid = grid;
  k.block = Dim3{128, 1, 1};
  k.scope_id = scope;
  return k;
}

TEST(KernelSummary, HasTheColumnsOfNsysKernelSummary) {
  Trace trace;
  trace.kernels = {kernel("a", 0, 100), kernel("b", 50, 2'050), kernel("a", 200, 400),
                   kernel("a", 500, 800), kernel("a", 900, 1'300)};
  const auto rows = summarize_kernels(trace);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "b");  // largest total first
  EXPECT_EQ(rows[0].total_ns, 2'000u);
  EXPECT_EQ(rows[0].instances, 1u);
  EXPECT_FALSE(rows[0].stddev_ns.has_value());
  EXPECT_NEAR(rows[0].time_percent, 200.0 / 3.0, 1e-9);

  const KernelSummary& a = rows[1];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.instances, 4u);
  EXPECT_EQ(a.total_ns, 1'000u);
  EXPECT_NEAR(a.time_percent, 100.0 / 3.0, 1e-9);
  EXPECT_DOUBLE_EQ(a.average_ns, 250.0);
  EXPECT_DOUBLE_EQ(a.median_ns, 250.0);
  EXPECT_EQ(a.min_ns, 100u);
  EXPECT_EQ(a.max_ns, 400u);
  ASSERT_TRUE(a.stddev_ns.has_value());
  EXPECT_NEAR(*a.stddev_ns, std::sqrt(50'000.0 / 3.0), 1e-9);
  EXPECT_EQ(a.grid, (Dim3{64, 1, 1}));
  EXPECT_EQ(a.block, (Dim3{128, 1, 1}));
  EXPECT_FALSE(a.mixed_launch_config);
}

TEST(KernelSummary, SeparatesOrFlagsLaunchConfigurations) {
  Trace trace;
  trace.kernels = {kernel("k", 0, 10, 0, 7, {64, 1, 1}), kernel("k", 20, 35, 0, 7, {32, 2, 1}),
                   kernel("k", 50, 60, 0, 7, {64, 1, 1})};
  const auto by_name = summarize_kernels(trace);
  ASSERT_EQ(by_name.size(), 1u);
  EXPECT_TRUE(by_name[0].mixed_launch_config);
  EXPECT_EQ(by_name[0].instances, 3u);
  EXPECT_DOUBLE_EQ(by_name[0].median_ns, 10.0);

  const auto by_config = summarize_kernels(trace, KernelSummaryOptions{true});
  ASSERT_EQ(by_config.size(), 2u);
  EXPECT_EQ(by_config[0].total_ns, 20u);
  EXPECT_EQ(by_config[0].instances, 2u);
  EXPECT_EQ(by_config[1].grid, (Dim3{32, 2, 1}));
  EXPECT_FALSE(by_config[0].mixed_launch_config);
}

TEST(KernelSummary, EmptyTraceHasNoRows) {
  EXPECT_TRUE(summarize_kernels(Trace{}).empty());
}

// "step" (1, 4) on thread 1 contains "gemm" (2, 5); "idle" (3) launches nothing.
Trace scoped_trace() {
  Trace trace;
  trace.scopes = {TraceScope{1, 0, "step", 1}, TraceScope{2, 1, "gemm", 1},
                  TraceScope{3, 0, "idle", 1}, TraceScope{4, 0, "step", 1},
                  TraceScope{5, 4, "gemm", 1}};
  trace.kernels = {
      kernel("prep", 100, 200, 1, 7),    // step 1 itself, stream 7
      kernel("mm", 250, 450, 2, 7),      // gemm 2, stream 7
      kernel("mm", 300, 400, 2, 9),      // gemm 2, stream 9 (overlaps)
      kernel("post", 600, 650, 1, 7),    // step 1 itself
      kernel("mm", 1'000, 1'100, 5, 7),  // gemm 5
      kernel("loose", 2'000, 2'010, 0),  // outside any scope
  };
  return trace;
}

TEST(ScopeSummary, CountsSelfAndNestedKernels) {
  const auto rows = summarize_scopes(scoped_trace());
  ASSERT_EQ(rows.size(), 3u);
  const ScopeSummary& step = rows[0];
  EXPECT_EQ(step.name, "step");
  EXPECT_EQ(step.instances, 2u);
  EXPECT_EQ(step.kernels, 5u);
  EXPECT_EQ(step.kernel_time_ns, 100u + 200 + 100 + 50 + 100);
  EXPECT_EQ(step.self_kernels, 2u);
  EXPECT_EQ(step.self_kernel_time_ns, 150u);
  ASSERT_EQ(step.instance_span_ns.size(), 2u);
  EXPECT_DOUBLE_EQ(step.instance_span_ns[0], 550.0);  // 100 .. 650
  EXPECT_DOUBLE_EQ(step.instance_span_ns[1], 100.0);
  EXPECT_DOUBLE_EQ(step.instance_kernel_time_ns[0], 450.0);

  const ScopeSummary& gemm = rows[1];
  EXPECT_EQ(gemm.name, "gemm");
  EXPECT_EQ(gemm.instances, 2u);
  EXPECT_EQ(gemm.kernels, 3u);
  EXPECT_EQ(gemm.self_kernels, 3u);
  ASSERT_EQ(gemm.streams.size(), 2u);
  EXPECT_EQ(gemm.streams[0].stream, 7u);
  EXPECT_EQ(gemm.streams[0].kernels, 2u);
  EXPECT_EQ(gemm.streams[0].kernel_time_ns, 300u);
  EXPECT_EQ(gemm.streams[0].span_ns, 300u);  // 200 + 100 over two openings
  EXPECT_EQ(gemm.streams[1].stream, 9u);
  EXPECT_EQ(gemm.streams[1].span_ns, 100u);
  EXPECT_DOUBLE_EQ(gemm.instance_span_ns[0], 200.0);  // 250 .. 450 over both streams
  EXPECT_DOUBLE_EQ(gemm.instance_kernel_time_ns[0], 300.0);

  const ScopeSummary& idle = rows[2];
  EXPECT_EQ(idle.name, "idle");
  EXPECT_EQ(idle.instances, 1u);
  EXPECT_EQ(idle.kernels, 0u);
  EXPECT_TRUE(idle.instance_span_ns.empty());
  EXPECT_TRUE(idle.streams.empty());
}

TEST(ScopeSummary, RecursiveScopesCountAKernelOnce) {
  Trace trace;
  trace.scopes = {TraceScope{1, 0, "r", 1}, TraceScope{2, 1, "r", 1}};
  trace.kernels = {kernel("k", 10, 20, 2)};
  const auto rows = summarize_scopes(trace);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].instances, 2u);
  EXPECT_EQ(rows[0].kernels, 1u);
  EXPECT_EQ(rows[0].self_kernels, 1u);
  EXPECT_EQ(rows[0].kernel_time_ns, 10u);
  EXPECT_EQ(rows[0].instance_span_ns.size(), 2u);  // both openings saw it
}

TEST(ScopeSummary, IgnoresKernelsOfUnknownScopes) {
  Trace trace;
  trace.kernels = {kernel("k", 10, 20, 77)};
  EXPECT_TRUE(summarize_scopes(trace).empty());
}

}  // namespace
}  // namespace kerntime
