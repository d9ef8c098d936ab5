// SPDX-License-Identifier: Apache-2.0
// A small trace whose nsys-style summaries are worked out by hand in trace_summaries_test.cpp:
// three launches of one kernel (one queued, one starting before its call returns, one starting
// exactly at its end), a kernel on another thread and device, a kernel without a launch record,
// copies both ways, a memset, a driver call inside a runtime call and one made directly.
// Times are offsets in ns from t0.
#pragma once

#include <kerntime/trace.hpp>

#include "support/synthetic_records.hpp"
#include "trace/trace_builder.hpp"

namespace kerntime::testing {

inline constexpr std::uint64_t kSummaryT0 = 1'700'000'000'000'000'000ULL;
inline constexpr std::uint32_t kMemcpyAsync = 51;
inline constexpr std::uint32_t kMemsetAsync = 54;
inline constexpr std::uint32_t kDriverLaunch = 307;
inline constexpr std::uint32_t kDriverAlloc = 9;

inline Trace summary_trace() {
  const std::uint64_t t0 = kSummaryT0;
  trace::RecordBatch b;
  auto call = [&](std::uint32_t id, std::uint64_t start, std::uint64_t end, std::uint32_t thread,
                  std::uint32_t cbid, ApiKind kind = ApiKind::runtime) {
    b.api_calls.push_back(raw_api(id, t0 + start, t0 + end, thread, cbid, kind));
  };
  auto kernel = [&](const char* name, std::uint32_t id, std::uint64_t start, std::uint64_t end,
                    std::uint32_t device = 0) {
    b.kernels.push_back(raw_kernel(name, id, t0 + start, t0 + end, device));
  };
  auto copy = [&](std::uint32_t id, MemcpyKind kind, std::uint64_t bytes, std::uint64_t start,
                  std::uint64_t end) {
    trace::RawMemcpy m;
    m.kind = kind;
    m.bytes = bytes;
    m.correlation_id = id;
    m.start_ns = t0 + start;
    m.end_ns = t0 + end;
    b.memcpys.push_back(m);
  };

  // Thread 7001: kernel A three times. Queue 6000 ns; none (starts at 22000, call ends 23000);
  // 0 ns (starts when the call ends).
  call(1, 0, 4'000, 7001, kLaunchKernel);
  call(1, 1'000, 3'000, 7001, kDriverLaunch, ApiKind::driver);  // the runtime call's own work
  kernel("_Z1Av", 1, 10'000, 15'000);
  call(2, 20'000, 23'000, 7001, kLaunchKernel);
  kernel("_Z1Av", 2, 22'000, 30'000);
  call(3, 40'000, 42'000, 7001, kLaunchKernel);
  kernel("_Z1Av", 3, 42'000, 44'000);
  // Copies and a memset: 1 MB and 3 MB host to device, 0.5 MB back, a 4 MB memset.
  call(4, 50'000, 51'000, 7001, kMemcpyAsync);
  copy(4, MemcpyKind::host_to_device, 1'000'000, 52'000, 54'000);
  call(5, 60'000, 61'000, 7001, kMemcpyAsync);
  copy(5, MemcpyKind::host_to_device, 3'000'000, 62'000, 68'000);
  call(6, 70'000, 70'500, 7001, kMemsetAsync);
  trace::RawMemset set;
  set.bytes = 4'000'000;
  set.correlation_id = 6;
  set.start_ns = t0 + 71'000;
  set.end_ns = t0 + 72'000;
  b.memsets.push_back(set);
  call(7, 80'000, 81'000, 7001, kMemcpyAsync);
  copy(7, MemcpyKind::device_to_host, 500'000, 82'000, 85'000);
  call(8, 90'000, 99'000, 7001, kDriverAlloc, ApiKind::driver);  // made by the program itself
  // Thread 7002: kernel B on device 1, queued 1000 ns.
  call(9, 5'000, 6'000, 7002, kLaunchKernel);
  kernel("_Z1Bv", 9, 7'000, 9'000, 1);
  // No launch record: in the kernel table, not in the launch summary.
  kernel("_Z1Cv", 99, 100'000, 101'000);

  trace::TraceBuilder builder;
  builder.set_api_name(ApiKind::runtime, kLaunchKernel, "cudaLaunchKernel_v7000");
  builder.set_api_name(ApiKind::runtime, kMemcpyAsync, "cudaMemcpyAsync_v3020");
  builder.set_api_name(ApiKind::runtime, kMemsetAsync, "cudaMemsetAsync_v3020");
  builder.set_api_name(ApiKind::driver, kDriverLaunch, "cuLaunchKernel");
  builder.set_api_name(ApiKind::driver, kDriverAlloc, "cuMemAlloc_v2");
  builder.append(b);
  return builder.build(trace::ScopeSnapshot{});
}

}  // namespace kerntime::testing
