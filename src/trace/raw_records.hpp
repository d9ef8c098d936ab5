// SPDX-License-Identifier: Apache-2.0
// Decoded activity records in kerntime's own terms: what the CUPTI decoder produces from one
// buffer and what tests write by hand. No CUPTI types, so the processing behind it (correlation,
// attribution, aggregation) builds and is tested on machines without CUDA's profiling tools.
#pragma once

#include <cstdint>
#include <vector>

#include <kerntime/trace.hpp>

namespace kerntime::trace {

/// A kernel record: the span and launch configuration as the trace keeps them, the name still
/// CUPTI's.
struct RawKernel : GpuSpan, KernelConfig {
  /// Mangled name as CUPTI delivers it. CUPTI shares one string per kernel across records, so
  /// the pointer is a cache key; the text is read (and copied) when the record is appended.
  const char* name = nullptr;
  std::uint32_t name_id = 0;  ///< set by TraceBuilder::append
};

struct RawApi {
  ApiKind kind = ApiKind::runtime;
  std::uint32_t callback_id = 0;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t process_id = 0;
  std::uint32_t thread_id = 0;
  std::uint32_t correlation_id = 0;
  std::uint32_t return_value = 0;
};

/// An external correlation record of kerntime's own kind: the API call with `correlation_id`
/// was made while scope `scope_id` was the innermost pushed on its thread.
struct RawScopeTag {
  std::uint32_t correlation_id = 0;
  std::uint64_t scope_id = 0;
};

struct RawMemcpy : GpuSpan, MemcpyInfo {};

struct RawMemset : GpuSpan, MemsetInfo {};

struct RawSynchronization {
  SynchronizationKind kind = SynchronizationKind::unknown;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t context = 0;
  std::uint32_t stream = 0;
  std::uint32_t event = 0;
  std::uint32_t correlation_id = 0;
};

/// The records of one or more buffers, in the order they were read.
struct RecordBatch {
  std::vector<RawKernel> kernels;
  std::vector<RawApi> api_calls;
  std::vector<RawScopeTag> scope_tags;
  std::vector<RawMemcpy> memcpys;
  std::vector<RawMemset> memsets;
  std::vector<RawSynchronization> synchronizations;
  std::uint64_t unknown_records = 0;    ///< kinds kerntime does not read
  std::uint64_t foreign_tags = 0;       ///< external correlation records of other kinds
  std::uint64_t truncated_buffers = 0;  ///< buffers whose last record was incomplete
  /// Records counted, not decoded, for a reader with no room left for them (Decode::counts).
  std::uint64_t counted_api_calls = 0;
  std::uint64_t counted_memcpys = 0;
  std::uint64_t counted_memsets = 0;
  std::uint64_t counted_synchronizations = 0;

  bool empty() const {
    return kernels.empty() && api_calls.empty() && scope_tags.empty() && memcpys.empty() &&
           memsets.empty() && synchronizations.empty() && unknown_records == 0 &&
           foreign_tags == 0 && truncated_buffers == 0 && counted_api_calls == 0 &&
           counted_memcpys == 0 && counted_memsets == 0 && counted_synchronizations == 0;
  }
  /// Empties the batch for the next buffer; the vectors keep their memory.
  void clear() {
    kernels.clear();
    api_calls.clear();
    scope_tags.clear();
    memcpys.clear();
    memsets.clear();
    synchronizations.clear();
    unknown_records = foreign_tags = truncated_buffers = 0;
    counted_api_calls = counted_memcpys = counted_memsets = counted_synchronizations = 0;
  }
};

}  // namespace kerntime::trace
