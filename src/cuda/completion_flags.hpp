// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace kerntime::cuda {

/// One flag per slot in pinned, mapped host memory, which the GPU sets in stream order
/// (cuStreamWriteValue32). A kernel fault (illegal address, device-side assert, trap) makes
/// every later CUDA call fail with the same error, events included; these flags are plain host
/// memory, so the host can still tell which timed scopes the GPU finished and name the one the
/// fault happened in, without CUDA_LAUNCH_BLOCKING.
///
/// Diagnostic only: where mapped memory or stream memory operations are missing, available()
/// is false and mark() does nothing. Calls on different slots may run on any threads at once;
/// a slot belongs to one scope at a time.
class CompletionFlags {
 public:
  /// Allocates on `device` (the caller makes it current). Never throws for CUDA conditions.
  explicit CompletionFlags(std::size_t count);
  ~CompletionFlags();
  CompletionFlags(const CompletionFlags&) = delete;
  CompletionFlags& operator=(const CompletionFlags&) = delete;

  bool available() const { return host_ != nullptr; }
  /// Clears `slot`'s flag before its scope's work is enqueued.
  void arm(std::uint32_t slot);
  /// Enqueues the write that sets `slot`'s flag once `stream` reaches this point. Skipped while
  /// the stream is being captured into a graph, where the write would become part of the graph.
  void mark(std::uint32_t slot, cudaStream_t stream);
  /// Whether the GPU got past mark(slot): false for a slot it has not reached.
  bool reached(std::uint32_t slot) const;

 private:
  volatile std::uint32_t* host_ = nullptr;
  std::uint64_t device_address_ = 0;
};

/// Whether `error` is a fault of a kernel that leaves the CUDA context unusable (every later
/// call returns it): an illegal address, a device-side assert, a trap, an illegal instruction.
bool is_sticky_kernel_fault(cudaError_t error);

}  // namespace kerntime::cuda
