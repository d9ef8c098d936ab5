// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace kerntime::cupti {

/// A buffer CUPTI handed back, waiting to be read.
struct ReadyBuffer {
  std::uint8_t* data = nullptr;
  std::size_t valid_bytes = 0;
};

/// Host buffers for CUPTI's activity records: preallocated, recycled after reading, capped.
///
/// acquire() and complete() run inside CUPTI's callbacks (on the launching thread or CUPTI's
/// worker), so they only move pointers under one short lock and never call CUPTI; that lock is
/// never held across a CUPTI call either, which rules out the lock-order deadlock kineto hit
/// (404f8cd). Buffers come from std::calloc, aligned to at least the 8 bytes CUPTI requires.
///
/// Every buffer it lends is zero: CUPTI needs zeroed buffers, and unless told that they are
/// (kZeroedOutActivityBuffer) it zeroes each one itself, all of it, inside the CUDA call that
/// needed a new buffer, on the program's thread. New buffers come from std::calloc (zero pages,
/// no writing), and finish() zeroes what CUPTI wrote on the reader's thread. The preallocated
/// ones are made resident as the pool is made (resident_pages.hpp), so that CUPTI's writes into
/// them take no page fault on the program's threads.
///
/// A buffer still lent to CUPTI when the pool is destroyed is not freed here: CUPTI may still
/// write to it. If CUPTI hands it back later, nobody claims it and the callback frees it.
class BufferPool {
 public:
  BufferPool(std::size_t buffer_bytes, std::size_t preallocated, std::size_t max_buffers);
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  std::size_t buffer_bytes() const { return buffer_bytes_; }

  /// A free buffer, allocating one while fewer than max_buffers exist; beyond that a buffer only
  /// if `over_cap` (when refusing would crash the loaded CUPTI). nullptr: none.
  std::uint8_t* acquire(bool over_cap) noexcept;
  /// Queues a buffer CUPTI filled. False when the buffer is not ours (lent by an earlier pool).
  bool complete(std::uint8_t* buffer, std::size_t valid_bytes) noexcept;

  /// Takes the oldest ready buffer; call finish() once it is read.
  bool take(ReadyBuffer& out);
  /// Returns a read buffer to the free list, zeroed again (or frees it when the pool is over
  /// its cap).
  void finish(const ReadyBuffer& buffer) noexcept;
  /// What finish() zeroes beyond the valid bytes: CUPTI writes its records within them, and the
  /// slack covers the start of a record it may have begun after them.
  static constexpr std::size_t kZeroSlackBytes = std::size_t{64} << 10;
  /// Waits until a buffer is ready or `stop` returns true (checked under the lock on wake-up).
  template <class Stop>
  bool wait_ready(Stop stop) {
    std::unique_lock lock{mutex_};
    changed_.wait(lock, [&] { return !ready_.empty() || stop(); });
    return !ready_.empty();
  }
  /// Wakes wait_ready() so that it re-checks its stop condition. Taking the lock first orders
  /// the caller's change of that condition before the waiter's next check: without it the
  /// waiter can check, miss the change and the notification, and sleep forever.
  void wake() {
    { std::lock_guard lock{mutex_}; }
    changed_.notify_all();
  }
  /// Waits until no buffer is being read or one is ready; true when none is ready or being
  /// read (all delivered records are read).
  bool wait_settled();

  std::size_t refused() const;         ///< requests answered with no buffer
  std::size_t allocated() const;       ///< buffers that exist now (free, lent, ready or reading)
  std::size_t lent() const;            ///< buffers CUPTI holds now
  std::size_t peak_allocated() const;  ///< the most buffers that existed at once

 private:
  const std::size_t buffer_bytes_;
  const std::size_t max_buffers_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::uint8_t*> free_;
  std::unordered_set<std::uint8_t*> lent_;
  std::deque<ReadyBuffer> ready_;
  std::size_t reading_ = 0;
  std::size_t allocated_ = 0;
  std::size_t peak_allocated_ = 0;
  std::size_t refused_ = 0;
};

}  // namespace kerntime::cupti
