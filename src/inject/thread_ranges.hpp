// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kerntime::inject {

/// One NVTX range instance, opened and closed at these host times (CUPTI's clock).
struct FinishedRange {
  std::uint64_t range = 0;  ///< range id (RangeRegistry)
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

/// What one program thread keeps so that its NVTX hooks take no lock and allocate nothing once
/// its ranges are known: the ids of the range names and nestings it has used, and the ranges it
/// has closed, until the recorder takes them (on its reader thread, or for a report).
///
/// The caches are the owning thread's alone. The finished ranges go through a ring of one
/// writer (the owner) and one reader (whoever holds the recorder's lock); a ring left full
/// spills into chunks behind a lock of this thread's own, which the reader holds only to swap
/// the chunks out. Ranges come out in the order the thread closed them.
class ThreadRanges {
 public:
  static constexpr std::size_t kRing = 1024;
  /// Entries per cache; a cache that fills is emptied and starts again (a program whose range
  /// names never repeat pays the registry's lock on each, as without a cache).
  static constexpr std::size_t kMaxCached = 4096;
  /// Closed ranges held past the ring's (1.5 MiB): a few seconds of a thread that closes tens
  /// of thousands a second while no buffer comes.
  static constexpr std::size_t kMaxSpilled = 64 * kRing;

  ThreadRanges();

  // On the owning thread.
  /// The id cached for range `name` of `domain`; 0: not cached.
  std::uint64_t cached_range(std::string_view domain, std::string_view name) const noexcept;
  void cache_range(std::string_view domain, std::string_view name, std::uint64_t id);
  /// The path id cached for range `range` opened inside path `parent`; 0: not cached.
  std::uint64_t cached_path(std::uint64_t parent, std::uint64_t range) const noexcept;
  void cache_path(std::uint64_t parent, std::uint64_t range, std::uint64_t path);
  /// Hands a closed range to the reader; allocates only while the ring is full. False when the
  /// reader has left kMaxSpilled ranges waiting besides the ring's: the caller takes them in
  /// itself (RunRecorder's lock) and calls again.
  bool finish(const FinishedRange& range);

  /// On one thread at a time: calls `take(const FinishedRange&)` for each finished range, oldest
  /// first.
  template <class Take>
  void drain(Take&& take) {
    if (!spilling_.load(std::memory_order_acquire)) {
      drain_ring(take, head_.load(std::memory_order_acquire));
      return;
    }
    // The ring's entries are older than the spilled ones: both are taken in that order, without
    // the spill lock, so that the owner never waits for what `take` does with them.
    std::uint64_t head = 0;
    {
      std::lock_guard lock{spill_mutex_};
      head = head_.load(std::memory_order_acquire);
      spill_taken_.swap(spill_);
      spilling_.store(false, std::memory_order_release);
    }
    drain_ring(take, head);
    for (std::size_t i = 0; i < spill_taken_.size(); ++i)
      take(spill_taken_[i]);
    spill_taken_.clear();
  }

 private:
  struct RangeEntry {
    std::uint64_t hash = 0;
    std::uint64_t id = 0;  // 0: empty
    std::string domain;
    std::string name;
    bool used() const { return id != 0; }
  };
  struct PathEntry {
    std::uint64_t parent = 0;
    std::uint64_t range = 0;
    std::uint64_t path = 0;  // 0: empty
    bool used() const { return path != 0; }
  };
  template <class Take>
  void drain_ring(Take& take, std::uint64_t head) {
    std::uint64_t tail = tail_.load(std::memory_order_relaxed);
    for (; tail != head; ++tail)
      take(ring_[tail % kRing]);
    tail_.store(tail, std::memory_order_release);
  }

  std::vector<RangeEntry> ranges_;  // open addressing, a power of two long
  std::size_t ranges_used_ = 0;
  std::vector<PathEntry> paths_;
  std::size_t paths_used_ = 0;

  std::unique_ptr<FinishedRange[]> ring_;
  std::atomic<std::uint64_t> head_{0};  // written by the owner
  std::atomic<std::uint64_t> tail_{0};  // written by the reader
  std::mutex spill_mutex_;
  // Set by the owner and cleared by the reader, both holding spill_mutex_; while set, the owner
  // writes spill_ only, so that nothing it closes later is taken before what it spilled.
  std::atomic<bool> spilling_{false};
  /// Ranges in chunks of kRing, so that spilling never copies what it holds.
  class Spill {
   public:
    void push_back(const FinishedRange& range);
    std::size_t size() const { return size_; }
    const FinishedRange& operator[](std::size_t i) const { return chunks_[i / kRing][i % kRing]; }
    void clear() { size_ = 0; }  // the chunks stay for the next spill
    void swap(Spill& other) noexcept {
      chunks_.swap(other.chunks_);
      std::swap(size_, other.size_);
    }

   private:
    std::vector<std::unique_ptr<FinishedRange[]>> chunks_;
    std::size_t size_ = 0;
  };
  Spill spill_;
  Spill spill_taken_;  // the reader's, swapped with spill_ so that both keep their chunks
};

/// Each program thread's ThreadRanges for one recorder, found through a thread_local without a
/// lock after the thread's first NVTX call. Threads past kThreads have none (the caller falls
/// back to the shared paths).
class ThreadRangesSet {
 public:
  static constexpr std::size_t kThreads = 256;

  ThreadRangesSet();
  ~ThreadRangesSet();
  ThreadRangesSet(const ThreadRangesSet&) = delete;
  ThreadRangesSet& operator=(const ThreadRangesSet&) = delete;

  /// The calling thread's; nullptr past kThreads (or when it cannot be allocated).
  ThreadRanges* mine() noexcept;

  /// Every thread's, on one thread at a time (ThreadRanges::drain).
  template <class Take>
  void drain(Take&& take) {
    const std::size_t used = std::min(claimed_.load(std::memory_order_acquire), kThreads);
    for (std::size_t i = 0; i < used; ++i) {
      if (ThreadRanges* ranges = threads_[i].load(std::memory_order_acquire)) ranges->drain(take);
    }
  }

 private:
  const std::uint64_t id_;  // the threads' cached pointers belong to this instance only
  std::atomic<ThreadRanges*> threads_[kThreads] = {};
  std::atomic<std::size_t> claimed_{0};
};

}  // namespace kerntime::inject
