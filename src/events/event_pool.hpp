// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuda/completion_flags.hpp"

namespace kerntime::events {

/// One closed timer: both events recorded, result not read yet.
struct ClosedTimer {
  std::uint32_t slot = 0;
  std::uint32_t region = 0;
};

/// Event pairs of one device, created once and reused.
///
/// A slot is free, open (start recorded, owned by one ScopedTimer) or closed (stop recorded,
/// queued in FIFO order until its elapsed time is read). All storage is allocated in the
/// constructor, so acquiring and closing never allocate. Not thread-safe: the Session's lock
/// guards it.
class EventPool {
 public:
  /// `completion_flags`: allocate the flags that name a faulting scope (SessionOptions).
  EventPool(int device, std::size_t pairs, bool completion_flags = true);
  ~EventPool();
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;

  int device() const { return device_; }
  std::size_t capacity() const { return starts_.size(); }

  /// Takes a free slot; false when every slot is open or closed.
  bool try_acquire(std::uint32_t& slot);
  /// Returns an open slot whose start event could not be recorded.
  void release(std::uint32_t slot) { free_.push_back(slot); }
  /// Queues an open slot whose stop event was recorded.
  void close(std::uint32_t slot, std::uint32_t region);

  std::size_t closed_count() const { return closed_count_; }
  std::size_t open_count() const { return capacity() - free_.size() - closed_count_; }
  /// The oldest closed timer; requires closed_count() > 0.
  const ClosedTimer& oldest_closed() const { return closed_[closed_head_]; }
  /// The i-th closed timer, oldest first; requires i < closed_count().
  const ClosedTimer& closed_at(std::size_t i) const {
    return closed_[(closed_head_ + i) % closed_.size()];
  }
  /// Frees the oldest closed timer's slot after its result was read.
  void retire_oldest();

  cudaEvent_t start(std::uint32_t slot) const { return starts_[slot]; }
  cudaEvent_t stop(std::uint32_t slot) const { return stops_[slot]; }
  /// Which scopes the GPU finished, readable after a kernel fault (cuda/completion_flags.hpp).
  cuda::CompletionFlags& completion() { return *completion_; }
  const cuda::CompletionFlags& completion() const { return *completion_; }

 private:
  int device_;
  std::vector<cudaEvent_t> starts_;
  std::vector<cudaEvent_t> stops_;
  std::vector<std::uint32_t> free_;  // reserved to capacity: push_back never allocates
  std::vector<ClosedTimer> closed_;  // ring buffer of capacity entries
  std::size_t closed_head_ = 0;
  std::size_t closed_count_ = 0;
  std::unique_ptr<cuda::CompletionFlags> completion_;
};

/// The device a stream belongs to (the current device for the legacy and per-thread streams).
int device_of(cudaStream_t stream);

}  // namespace kerntime::events
