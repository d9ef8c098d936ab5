// SPDX-License-Identifier: Apache-2.0
// Kernel names as they were at launch, for the records CUPTI delivers after the kernel's module
// was unloaded. CUPTI frees a kernel's name with its module and gives the memory, at the same
// address, to the next module's kernel: a record still buffered then names the new kernel (seen
// on the H200: modules A and B loaded and unloaded in turn, every record named A). Flushing
// CUPTI inside its unload callback hangs, so the names are taken from the launches instead:
// each launch notes its correlation id and name pointer in a ring (lock-free, no allocation),
// and CUPTI's unload callback, while the names still hold, copies those noted since the last
// unload. A record launched before the latest unload takes its kept name.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "trace/raw_records.hpp"

namespace kerntime::inject {

class LaunchNames {
 public:
  /// Launches noted between two unloads without loss (a ring: older ones are overwritten).
  static constexpr std::size_t kNoted = std::size_t{1} << 16;
  /// Launches whose names are kept (16 bytes each); past it (by a quarter, so that trimming is
  /// rare) the oldest are forgotten.
  static constexpr std::size_t kKept = std::size_t{1} << 20;
  /// A name longer than this is kept cut (no kernel name comes near it).
  static constexpr std::size_t kMaxName = std::size_t{1} << 16;

  LaunchNames() = default;
  LaunchNames(const LaunchNames&) = delete;
  LaunchNames& operator=(const LaunchNames&) = delete;

  /// Inside a launch, on the launching thread: no lock, no allocation. `name` must stay
  /// readable until its module is unloaded (CUPTI's launch-callback symbol name does).
  void note(std::uint32_t correlation_id, const char* name) noexcept;

  /// Before a module is unloaded or a context destroyed (CUPTI's resource callback), while
  /// every noted name is still readable: copies the names of the launches noted since the last
  /// call (of this or of keep_noted).
  void keep_before_unload() { keep_noted(); }

  /// The same, from any thread (the record reader's): a name noted and not yet kept belongs to
  /// a module not yet unloaded, and its unload's callback waits for this call's lock before the
  /// module goes. After a first unload, a record's name read through CUPTI's pointer as it
  /// arrives may be an earlier kernel's even while its own module is loaded (on the H200, with
  /// records flushed at synchronizations, 300 of 1,000 launches of module B came named as
  /// module A); names kept at launch are right. Returns at once when nothing new was noted.
  void keep_noted();

  /// The highest correlation id kept so far; 0: none kept (no unload yet).
  std::uint32_t kept_through() const noexcept {
    return kept_through_.load(std::memory_order_acquire);
  }

  /// Gives each kernel of `kernels` launched before the latest unload the name kept for its
  /// launch: a pointer owned by this object, the same for the same text. Kernels without a kept
  /// name (graph launches, a ring that overflowed) keep CUPTI's. Returns how many were renamed.
  std::size_t restore_names(std::vector<trace::RawKernel>& kernels) const;

  /// Launches noted but overwritten before an unload could keep their names, or that found
  /// their entry taken (a launch read again after an unfinished one may count twice).
  std::uint64_t lost() const noexcept { return lost_.load(std::memory_order_relaxed); }

 private:
  struct Entry {
    // Its ring position + 1 once written; 0 before; kWriting while a launch writes it.
    std::atomic<std::uint64_t> stamp{0};
    std::atomic<std::uint32_t> correlation_id{0};
    std::atomic<const char*> name{nullptr};
  };

  Entry noted_[kNoted];
  std::atomic<std::uint64_t> next_{0};
  std::atomic<std::uint32_t> kept_through_{0};
  std::atomic<std::uint64_t> lost_{0};

  mutable std::mutex mutex_;
  std::uint64_t read_up_to_ = 0;  // the ring position keep_before_unload reads from next
  // Node-based: a text's address never moves, so the pointers handed out stay valid.
  std::unordered_set<std::string> texts_;
  // (correlation id, kept text), sorted by correlation id.
  std::vector<std::pair<std::uint32_t, const char*>> kept_;
};

}  // namespace kerntime::inject
