// SPDX-License-Identifier: Apache-2.0
// A GPU fault, whether or not it ends the process. A kernel writes through a bad pointer, and
// the next synchronization, copy or launch returns cudaErrorIllegalAddress to a program that
// aborts, raises (PyTorch, CuPy, JAX), returns an error code or carries on. CUPTI's callback on
// the calls a fault surfaces in (cupti/launch_watch.hpp) sees the first such return. At that
// moment the launch slots (last_launch.hpp) still hold the kernels launched since the last
// successful synchronization of their stream or device: the kernels that were running. One of
// them faulted; CUPTI cannot say which, unless only one was running.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

#include "inject/last_launch.hpp"

namespace kerntime::inject {

/// A CUDA error that is a GPU fault: its runtime name and what it means.
struct FaultError {
  const char* name;     ///< "cudaErrorIllegalAddress"
  const char* meaning;  ///< "an illegal memory access was encountered"
};
/// The fault `error` is (a cudaError_t or CUresult, numbered alike); nullopt when it is none
/// (exactly when cupti::is_gpu_fault(error) is false).
std::optional<FaultError> gpu_fault_error(int error);

/// The last successful synchronization of each device (context) and stream, as correlation ids:
/// a launch with a lower id on that context or stream had finished. Written inside CUDA calls on
/// any thread: lock-free, fixed tables (past them a stream counts only its device's mark).
class SyncMarks {
 public:
  static constexpr std::size_t kContexts = 64;
  static constexpr std::size_t kStreams = 256;

  void device_synchronized(std::uint32_t context_id, std::uint32_t correlation_id) noexcept;
  /// A per-thread default stream (`per_thread` with a null handle, or the 0x2 handle) is another
  /// stream on every thread: it is not kept, so only its device's mark applies.
  void stream_synchronized(std::uint32_t context_id, std::uintptr_t stream, bool per_thread,
                           std::uint32_t correlation_id) noexcept;
  /// Launches on that stream with a lower correlation id had finished; 0: none known.
  std::uint32_t finished_below(std::uint32_t context_id, std::uintptr_t stream,
                               bool per_thread) const noexcept;

 private:
  struct Mark {
    std::atomic<std::uint32_t> context{0};  // published last: 0 while the entry is being made
    std::atomic<std::uintptr_t> stream{0};
    std::atomic<std::uint32_t> correlation{0};
  };
  static void raise(Mark* marks, std::size_t capacity, std::atomic<std::size_t>& used,
                    std::uint32_t context_id, std::uintptr_t stream,
                    std::uint32_t correlation_id) noexcept;
  static std::uint32_t find(const Mark* marks, std::size_t capacity,
                            const std::atomic<std::size_t>& used, std::uint32_t context_id,
                            std::uintptr_t stream) noexcept;

  Mark devices_[kContexts];
  std::atomic<std::size_t> devices_used_{0};
  Mark streams_[kStreams];
  std::atomic<std::size_t> streams_used_{0};
};

/// Where a fault surfaced: the first call that returned it.
struct FaultSite {
  int error = 0;
  std::string call;  ///< "cudaStreamSynchronize" (without CUPTI's _v3020)
  /// kerntime's own synchronization at the end of the process found it: the program never did.
  bool in_final_synchronization = false;
  pid_t thread = 0;
  std::int32_t device = -1;
  std::uint32_t context_id = 0;      ///< CUPTI's; 0: not known, every context counts
  std::uint32_t correlation_id = 0;  ///< the call's: launches after it do not count
};

/// One kernel (or graph) launch that was running when the fault surfaced.
struct RunningLaunch {
  LastLaunch launch;  ///< with its kernel name and NVTX ranges
  std::string thread_name;
};

/// A fault as the report names it.
struct GpuFault {
  FaultSite site;
  std::string thread_name;  ///< of site.thread
  bool launches_watched = true;
  std::vector<RunningLaunch> running;  ///< oldest first
  /// A thread had launched more since its stream's last synchronization than its slot keeps:
  /// older kernels were running too.
  bool maybe_more = false;
};

/// The fault at `site`: the kernels in `recent` (every thread's recent launches) on the site's
/// context (or on a context CUPTI did not name) launched before the site's call and after the last
/// synchronization `marks` knows for their stream. `ranges` turns a launch's NVTX path into words
/// (RunRecorder::range_path_text), `thread_name` a thread id into its name. A name the slots did
/// not copy is read from CUPTI's pointer: call this in the running process, inside the call the
/// fault surfaced in, never after a crash.
GpuFault describe_fault(const FaultSite& site, const std::vector<RecentLaunch>& recent,
                        const SyncMarks& marks,
                        const std::function<std::string(std::uint64_t)>& ranges,
                        const std::function<std::string(pid_t)>& thread_name);

/// The report's warnings for `fault`: the error, its device and the call that returned it
/// first; then the kernel that faulted, or the kernels that were running.
std::vector<std::string> fault_warnings(const GpuFault& fault);

/// The process's first fault, described once by whichever thread met it first.
class FaultWatch {
 public:
  SyncMarks& marks() { return marks_; }
  /// True for the first caller only, who then describes the fault and publishes it.
  bool claim() noexcept { return !claimed_.exchange(true); }
  /// Whether a fault surfaced (it may still be being described).
  bool claimed() const noexcept { return claimed_.load(); }
  void publish(GpuFault fault);
  /// The published fault, or nullptr; read without a lock (it never changes once published).
  const GpuFault* fault() const noexcept { return published_.load(std::memory_order_acquire); }

 private:
  SyncMarks marks_;
  std::atomic<bool> claimed_{false};
  GpuFault fault_;
  std::atomic<const GpuFault*> published_{nullptr};
};

}  // namespace kerntime::inject
