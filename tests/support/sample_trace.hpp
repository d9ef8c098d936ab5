// SPDX-License-Identifier: Apache-2.0
// A small, fixed trace with one of everything the views show: two devices, three streams, two
// host threads, nested scopes, a graph launch, a copy, a memset, a kernel whose launch record
// is missing, one that does not demangle, dropped and timestamp-less records.
#pragma once

#include <kerntime/report.hpp>
#include <kerntime/trace.hpp>

#include "support/synthetic_records.hpp"
#include "trace/trace_builder.hpp"

namespace kerntime::testing {

inline Trace sample_trace() {
  trace::ScopeTable scopes;
  scopes.record(1, 0, "step", 101);
  scopes.record(2, 1, "gemm", 101);
  scopes.record(3, 0, "upload", 102);
  trace::RecordBatch b;
  const std::uint64_t t0 = 1'700'000'000'000'000'000ULL;
  auto launch = [&](std::uint32_t id, std::uint64_t at, std::uint32_t thread, std::uint64_t scope,
                    std::uint32_t cbid = kLaunchKernel) {
    b.api_calls.push_back(raw_api(id, t0 + at, t0 + at + 4'250, thread, cbid));
    if (scope != 0) b.scope_tags.push_back(raw_tag(id, scope));
  };
  launch(1, 0, 7001, 1);
  b.kernels.push_back(raw_kernel("_Z7preparePfi", 1, t0 + 9'000, t0 + 11'600, 0, 13));
  launch(2, 20'000, 7001, 2);
  b.kernels.push_back(raw_kernel("_Z4gemmILi128EEvPKfS1_Pf", 2, t0 + 26'000, t0 + 126'500, 0, 13));
  launch(3, 30'000, 7001, 2);
  b.kernels.push_back(raw_kernel("_Z4gemmILi128EEvPKfS1_Pf", 3, t0 + 127'000, t0 + 228'000, 0, 13));
  launch(4, 40'000, 7001, 1, kGraphLaunch);
  for (std::uint64_t node = 1; node <= 2; ++node) {
    trace::RawKernel k = raw_kernel("_Z7preparePfi", 4, t0 + 230'000 + node * 3'000,
                                    t0 + 232'500 + node * 3'000, 0, 14);
    k.graph_id = 1;
    k.graph_node_id = node;
    k.grid = Dim3{64, 2, 1};
    b.kernels.push_back(k);
  }
  launch(5, 50'000, 7002, 3, 51);  // cudaMemcpyAsync
  trace::RawMemcpy copy;
  copy.kind = MemcpyKind::host_to_device;
  copy.source_kind = MemoryKind::pinned;
  copy.destination_kind = MemoryKind::device;
  copy.bytes = 8 << 20;
  copy.start_ns = t0 + 60'000;
  copy.end_ns = t0 + 62'000;
  copy.device = 1;
  copy.stream = 21;
  copy.destination_device = 1;
  copy.correlation_id = 5;
  b.memcpys.push_back(copy);
  launch(6, 70'000, 7002, 3, 54);  // cudaMemsetAsync
  trace::RawMemset set;
  set.bytes = 1 << 20;
  set.memory_kind = MemoryKind::device;
  set.start_ns = t0 + 80'000;
  set.end_ns = t0 + 80'900;
  set.device = 1;
  set.stream = 21;
  set.correlation_id = 6;
  b.memsets.push_back(set);
  b.kernels.push_back(raw_kernel("_Zweird|name", 7, t0 + 300'000, t0 + 300'800, 1, 21));
  b.kernels.push_back(raw_kernel("lost", 8, 0, 0, 1, 21));

  trace::TraceBuilder builder;
  builder.set_clock(ClockAnchor{t0, 42});
  builder.set_api_name(ApiKind::runtime, kLaunchKernel, "cudaLaunchKernel_v7000");
  builder.set_api_name(ApiKind::runtime, kGraphLaunch, "cudaGraphLaunch_v10000");
  builder.set_api_name(ApiKind::runtime, 51, "cudaMemcpyAsync_v3020");
  builder.set_api_name(ApiKind::runtime, 54, "cudaMemsetAsync_v3020");
  builder.append(b);
  builder.add_dropped(2);
  return builder.build(scopes.snapshot());
}

/// cudaEvent times of the same scopes, as a Session would report them.
inline Report sample_event_report() {
  Report report;
  Entry step;
  step.name = "step";
  step.timer = "cuda-event";
  step.statistics.count = 1;
  step.statistics.median = 245'000;
  Entry gemm = step;
  gemm.name = "gemm";
  gemm.statistics.median = 207'500;
  report.entries = {step, gemm};
  return report;
}

}  // namespace kerntime::testing
