// SPDX-License-Identifier: Apache-2.0
// The last kernels a process launched, kept where a crash report can read them: CUPTI's launch
// callback publishes every launch into its thread's slot (preallocated, no lock, no allocation,
// a few plain stores), which keeps the thread's last kRecent launches. The report writer reads
// the newest one after the process aborted or faulted, without calling CUDA or CUPTI (the
// driver may be what crashed); a GPU fault reads them all, to name the kernels still running.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace kerntime::inject {

/// One launch as the report names it.
struct LastLaunch {
  std::string
      kernel;  ///< CUPTI's name (mangled or not; at most kNameBytes - 1 bytes); empty: a graph
  bool graph = false;
  bool name_truncated = false;
  std::int32_t device = -1;      ///< -1: not known
  std::uint32_t context_id = 0;  ///< CUPTI's, to find the device from kernel records
  std::uintptr_t stream = 0;
  bool per_thread_stream = false;  ///< launched through a _ptsz entry point
  pid_t thread = 0;                ///< the launching thread's id (gettid)
  std::uint32_t correlation_id = 0;
  std::uint64_t thread_launches = 0;  ///< this is that thread's launch number thread_launches
  std::uint64_t range_path = 0;       ///< the NVTX ranges open on the thread (RunRecorder's id)
  std::string ranges;  ///< those ranges in words, when the caller looked them up; "" for none
};

/// One of a thread's recent launches.
struct RecentLaunch {
  LastLaunch launch;  ///< its kernel text is set only when the slot kept a copy
  /// CUPTI's name pointer as given at the launch (nullptr for a graph): the kernel's name while
  /// its module stays loaded. Dereference it only in a running process, never after a crash.
  const char* name_pointer = nullptr;
  bool newest = false;  ///< the thread's latest launch
  /// The oldest launch the slot still holds, of a thread that launched more before it.
  bool oldest_kept = false;
};

/// Per-thread slots of the latest launch, read consistently by one reader at a time (a
/// sequence lock: the writer never waits). Correlation ids order launches across threads.
class LaunchSlots {
 public:
  static constexpr std::size_t kThreads = 256;
  static constexpr std::size_t kNameBytes = 256;
  static constexpr std::size_t kRecent = 16;  ///< launches kept per thread

  LaunchSlots();
  LaunchSlots(const LaunchSlots&) = delete;
  LaunchSlots& operator=(const LaunchSlots&) = delete;

  /// On the launching thread, inside the launch: copies the name only when its pointer changed
  /// since this thread's last launch. A thread beyond kThreads is not kept (threads_left_out).
  void publish(const char* kernel, bool graph, std::int32_t device, std::uint32_t context_id,
               const void* stream, bool per_thread_stream, std::uint32_t correlation_id,
               std::uint64_t range_path = 0) noexcept;

  /// The launch with the highest correlation id among the threads' slots; nullopt when none.
  std::optional<LastLaunch> last() const;
  /// Every thread's recent launches, up to kRecent each, oldest first per thread. The newest of
  /// each thread has its kernel text, and so do older ones of the same kernel.
  std::vector<RecentLaunch> recent() const;
  /// Threads that launched after every slot was taken.
  std::uint64_t threads_left_out() const { return left_out_.load(std::memory_order_relaxed); }

 private:
  struct Launch {
    std::atomic<std::uint32_t> correlation_id{0};
    std::atomic<std::int32_t> device{-1};
    std::atomic<std::uint32_t> context_id{0};
    std::atomic<std::uint8_t> flags{0};
    std::atomic<std::uintptr_t> stream{0};
    std::atomic<std::uint64_t> range_path{0};
    std::atomic<const char*> name{nullptr};
  };
  struct alignas(64) Slot {
    std::atomic<std::uint32_t> sequence{0};  // odd while its thread writes it
    std::atomic<pid_t> thread{0};
    std::atomic<std::uint64_t> launches{0};
    Launch recent[kRecent];  // launch n (from 1) at (n - 1) % kRecent
    // The newest launch's name (and older ones' of the same pointer).
    std::atomic<std::uint32_t> name_length{0};
    std::atomic<std::uint64_t> name[kNameBytes / 8] = {};
    const char* name_source = nullptr;  // only its own thread reads and writes it
  };
  Slot* claim() noexcept;
  /// Reads `slot` consistently into `out` (appended, oldest first); false when its writer was
  /// stopped halfway (it crashed inside publish) or it was never written.
  bool read(const Slot& slot, std::vector<RecentLaunch>& out) const;

  const std::uint64_t id_;  // the threads' cached slots belong to this instance only
  Slot slots_[kThreads];
  std::atomic<std::size_t> claimed_{0};
  std::atomic<std::uint64_t> left_out_{0};
};

/// What the report says about `launch`: its kernel (demangled), device, stream and thread
/// (`thread_name`, from /proc, may be empty), and its NVTX ranges when `launch.ranges` names
/// them.
std::string describe_last_launch(const LastLaunch& launch, const std::string& thread_name);

/// The name of thread `thread` of this process (/proc/self/task/TID/comm), or "".
std::string thread_name(pid_t thread);

}  // namespace kerntime::inject
