// SPDX-License-Identifier: Apache-2.0
// The golden report plus a trace section with one of everything the section holds: a summary
// row with a fixed and one with a mixed launch configuration, a kernel from a CUDA graph, one
// without a launch record or scope, a copy, a memset, and loss counts that are not zero.
#pragma once

#include <kerntime/report.hpp>

#include "report/sample_report.hpp"

namespace kerntime::testing {

inline TraceSection sample_trace_section() {
  TraceSection t;
  t.counts = TraceCounts{3, 1, 1, 5, 2, 1, 0, 1};

  KernelSummary gemm;
  gemm.name = "void gemm<128>(const float*, const float*, float*)";
  gemm.instances = 2;
  gemm.total_ns = 201'500;
  gemm.time_percent = 98.0535;
  gemm.average_ns = 100'750;
  gemm.median_ns = 100'750;
  gemm.min_ns = 100'500;
  gemm.max_ns = 101'000;
  gemm.stddev_ns = 353.5533905932738;
  gemm.grid = Dim3{64, 2, 1};
  gemm.block = Dim3{128, 1, 1};
  KernelSummary weird;
  weird.name = "_Zweird|name";
  weird.instances = 1;
  weird.total_ns = 4'000;
  weird.time_percent = 1.9465;
  weird.average_ns = 4'000;
  weird.median_ns = 4'000;
  weird.min_ns = 4'000;
  weird.max_ns = 4'000;
  weird.mixed_launch_config = true;
  t.kernel_summary = {gemm, weird};

  t.origin_ns = 1'700'000'000'000'009'000ULL;
  TraceKernelRecord first;
  first.name = gemm.name;
  first.mangled_name = "_Z4gemmILi128EEvPKfS1_Pf";
  first.device = 0;
  first.stream = 13;
  first.grid = gemm.grid;
  first.block = gemm.block;
  first.registers_per_thread = 40;
  first.static_shared_memory_bytes = 8192;
  first.dynamic_shared_memory_bytes = 1024;
  first.start_ns = 17'000;
  first.duration_ns = 100'500;
  first.enqueue_ns = 4'250;
  first.queue_delay_ns = 6'000;
  first.scope = "gemm";
  TraceKernelRecord replayed = first;
  replayed.start_ns = 221'000;
  replayed.duration_ns = 101'000;
  replayed.graph_id = 1;
  replayed.graph_node_id = 2;
  replayed.scope = "step";
  TraceKernelRecord orphan;
  orphan.name = weird.name;
  orphan.device = 1;
  orphan.stream = 21;
  orphan.grid = Dim3{1, 1, 1};
  orphan.block = Dim3{32, 1, 1};
  orphan.start_ns = 291'000;
  orphan.duration_ns = 4'000;
  t.kernels = {first, replayed, orphan};

  TraceMemcpyRecord copy;
  copy.kind = MemcpyKind::host_to_device;
  copy.source_kind = MemoryKind::pinned;
  copy.destination_kind = MemoryKind::device;
  copy.bytes = 8 << 20;
  copy.device = 1;
  copy.stream = 21;
  copy.start_ns = 51'000;
  copy.duration_ns = 2'000;
  copy.scope = "upload";
  t.memcpys = {copy};

  TraceMemsetRecord set;
  set.value = 255;
  set.bytes = 1 << 20;
  set.memory_kind = MemoryKind::device;
  set.device = 1;
  set.stream = 21;
  set.start_ns = 71'000;
  set.duration_ns = 900;
  t.memsets = {set};
  t.omitted_records = 0;
  return t;
}

inline Report sample_report_with_trace() {
  Report report = sample_report();
  report.trace = sample_trace_section();
  return report;
}

}  // namespace kerntime::testing
