// SPDX-License-Identifier: Apache-2.0
// The golden report plus a trace section with one of everything the section holds: a summary
// row with a fixed and one with a mixed launch configuration, a kernel from a CUDA graph, one
// without a launch record or scope, a copy, a memset, API calls (some of them omitted), and loss
// counts that are not zero. The
// strings are literals, which outlive the section (TraceSection::strings stays empty).
#pragma once

#include <kerntime/report.hpp>

#include "report/sample_report.hpp"

namespace kerntime::testing {

inline TraceSection sample_trace_section() {
  TraceSection t;
  t.counts.kernels = 3;
  t.counts.memcpys = 1;
  t.counts.memsets = 1;
  t.counts.api_calls = 5;
  t.counts.dropped_records = 2;
  t.counts.zero_timestamp_records = 1;
  t.counts.unattributed_kernels = 1;
  t.counts.kernels_before_launch = 1;

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

  const std::uint64_t origin = 1'700'000'000'000'009'000ULL;
  t.origin_ns = origin;
  KernelActivity first;
  first.name = "void gemm<128>(const float*, const float*, float*)";
  first.mangled_name = "_Z4gemmILi128EEvPKfS1_Pf";
  first.device = 0;
  first.stream = 13;
  first.grid = gemm.grid;
  first.block = gemm.block;
  first.registers_per_thread = 40;
  first.static_shared_memory_bytes = 8192;
  first.dynamic_shared_memory_bytes = 1024;
  first.start_ns = origin + 17'000;
  first.end_ns = first.start_ns + 100'500;
  // Called 6 us before the kernel started, enqueued in 4.25 us.
  first.launch = LaunchCall{ApiKind::runtime,
                            "cudaLaunchKernel",
                            first.start_ns - 6'000,
                            first.start_ns - 6'000 + 4'250,
                            7,
                            4242};
  first.scope_name = "gemm";
  KernelActivity replayed = first;
  replayed.start_ns = origin + 221'000;
  replayed.end_ns = replayed.start_ns + 101'000;
  // A graph launch whose kernel seems to start before the call (clocks disagree): an enqueue
  // time but no queue delay.
  replayed.launch = LaunchCall{ApiKind::runtime, "cudaGraphLaunch", replayed.start_ns + 500,
                               replayed.start_ns + 3'500, 7};
  replayed.graph_id = 1;
  replayed.graph_node_id = 2;
  replayed.scope_name = "step";
  KernelActivity orphan;
  orphan.name = "_Zweird|name";
  orphan.mangled_name = orphan.name;
  orphan.device = 1;
  orphan.stream = 21;
  orphan.grid = Dim3{1, 1, 1};
  orphan.block = Dim3{32, 1, 1};
  orphan.start_ns = origin + 291'000;
  orphan.end_ns = orphan.start_ns + 4'000;
  t.kernels = {first, replayed, orphan};

  MemcpyActivity copy;
  copy.kind = MemcpyKind::host_to_device;
  copy.source_kind = MemoryKind::pinned;
  copy.destination_kind = MemoryKind::device;
  copy.bytes = 8 << 20;
  copy.destination_device = 1;
  copy.device = 1;
  copy.stream = 21;
  copy.start_ns = origin + 51'000;
  copy.end_ns = copy.start_ns + 2'000;
  copy.launch =
      LaunchCall{ApiKind::driver, "cuMemcpyHtoDAsync_v2", origin - 3'000, origin + 2'000, 8, 0};
  copy.scope_name = "upload";
  t.memcpys = {copy};

  MemsetActivity set;
  set.value = 255;
  set.bytes = 1 << 20;
  set.memory_kind = MemoryKind::device;
  set.device = 1;
  set.stream = 21;
  set.start_ns = origin + 71'000;
  set.end_ns = set.start_ns + 900;
  t.memsets = {set};

  // Two of the five API calls listed: the kernel's launch and a failed synchronize; the other
  // three are counted only (the record limit), which omitted_records says.
  ApiCall launch;
  launch.kind = ApiKind::runtime;
  launch.name = "cudaLaunchKernel";
  launch.start_ns = first.launch->start_ns;
  launch.end_ns = first.launch->end_ns;
  launch.thread_id = 7;
  launch.process_id = 4242;
  launch.scope_name = "gemm";
  ApiCall sync;
  sync.kind = ApiKind::runtime;
  sync.name = "cudaStreamSynchronize";
  sync.start_ns = origin - 8'000;
  sync.end_ns = origin + 1'000;
  sync.thread_id = 8;
  sync.return_value = 700;  // cudaErrorIllegalAddress
  t.api_calls = {sync, launch};
  t.omitted_records = 3;
  return t;
}

inline Report sample_report_with_trace() {
  Report report = sample_report();
  report.trace = sample_trace_section();
  return report;
}

}  // namespace kerntime::testing
