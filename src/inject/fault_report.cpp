// SPDX-License-Identifier: Apache-2.0
#include "inject/fault_report.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace kerntime::inject {
namespace {

// Kernels named in the warning; the others are counted.
constexpr std::size_t kNamed = 6;
// The longest CUPTI name read through its pointer (PyTorch's run to a few hundred bytes).
constexpr std::size_t kMaxNameBytes = 4096;

// The key of a stream in the marks: the legacy default stream has two spellings (a null handle
// outside the _ptsz entry points, and 0x1); a per-thread default stream (0x2, or null through a
// _ptsz entry point) differs per thread and is not kept (0).
std::uintptr_t stream_key(std::uintptr_t stream, bool per_thread) {
  if (stream == 0) return per_thread ? 0 : 0x1;
  if (stream == 0x2) return 0;
  return stream;
}

std::string device_text(std::int32_t device) {
  return device >= 0 ? "device " + std::to_string(device) : std::string{"an unknown device"};
}

std::string thread_text(pid_t thread, const std::string& name) {
  return "thread " + std::to_string(thread) + (name.empty() ? "" : " (" + name + ")");
}

}  // namespace

std::optional<FaultError> gpu_fault_error(int error) {
  switch (error) {
    case 214:
      return FaultError{"cudaErrorECCUncorrectable", "an uncorrectable ECC error in device memory"};
    case 226:
      return FaultError{"cudaErrorContained",
                        "an error the GPU contained, such as an uncorrectable memory error"};
    case 700:
      return FaultError{"cudaErrorIllegalAddress", "an illegal memory access was encountered"};
    case 702:
      return FaultError{"cudaErrorLaunchTimeout", "a kernel ran past the watchdog's time limit"};
    case 710:
      return FaultError{"cudaErrorAssert", "a device-side assert triggered"};
    case 714:
      return FaultError{"cudaErrorHardwareStackError", "a kernel's call stack overflowed"};
    case 715:
      return FaultError{"cudaErrorIllegalInstruction", "an illegal instruction was encountered"};
    case 716:
      return FaultError{"cudaErrorMisalignedAddress", "a misaligned address was accessed"};
    case 717:
      return FaultError{"cudaErrorInvalidAddressSpace",
                        "an instruction used an address outside its address space"};
    case 718:
      return FaultError{"cudaErrorInvalidPc", "the program counter left the kernel's code"};
    case 719:
      return FaultError{"cudaErrorLaunchFailure",
                        "a kernel failed: a trap, or a fault the GPU does not name"};
    case 721:
      return FaultError{"cudaErrorTensorMemoryLeak",
                        "a kernel exited with tensor memory still allocated"};
    default:
      return std::nullopt;
  }
}

void SyncMarks::raise(Mark* marks, std::size_t capacity, std::atomic<std::size_t>& used,
                      std::uint32_t context_id, std::uintptr_t stream,
                      std::uint32_t correlation_id) noexcept {
  Mark* mark = nullptr;
  const std::size_t taken = std::min(used.load(std::memory_order_acquire), capacity);
  for (std::size_t i = 0; i < taken && mark == nullptr; ++i) {
    if (marks[i].context.load(std::memory_order_acquire) == context_id &&
        marks[i].stream.load(std::memory_order_relaxed) == stream) {
      mark = &marks[i];
    }
  }
  if (mark == nullptr) {
    // Two threads may each add the same stream at once: the reader takes the highest mark.
    const std::size_t index = used.fetch_add(1, std::memory_order_acq_rel);
    if (index >= capacity) return;
    mark = &marks[index];
    mark->stream.store(stream, std::memory_order_relaxed);
    mark->correlation.store(correlation_id, std::memory_order_relaxed);
    mark->context.store(context_id, std::memory_order_release);
    return;
  }
  std::uint32_t current = mark->correlation.load(std::memory_order_relaxed);
  while (current < correlation_id && !mark->correlation.compare_exchange_weak(
                                         current, correlation_id, std::memory_order_relaxed)) {
  }
}

std::uint32_t SyncMarks::find(const Mark* marks, std::size_t capacity,
                              const std::atomic<std::size_t>& used, std::uint32_t context_id,
                              std::uintptr_t stream) noexcept {
  std::uint32_t highest = 0;
  const std::size_t taken = std::min(used.load(std::memory_order_acquire), capacity);
  for (std::size_t i = 0; i < taken; ++i) {
    if (marks[i].context.load(std::memory_order_acquire) == context_id &&
        marks[i].stream.load(std::memory_order_relaxed) == stream) {
      highest = std::max(highest, marks[i].correlation.load(std::memory_order_relaxed));
    }
  }
  return highest;
}

void SyncMarks::device_synchronized(std::uint32_t context_id,
                                    std::uint32_t correlation_id) noexcept {
  if (context_id == 0) return;
  raise(devices_, kContexts, devices_used_, context_id, 0, correlation_id);
}

void SyncMarks::stream_synchronized(std::uint32_t context_id, std::uintptr_t stream,
                                    bool per_thread, std::uint32_t correlation_id) noexcept {
  const std::uintptr_t key = stream_key(stream, per_thread);
  if (context_id == 0 || key == 0) return;
  raise(streams_, kStreams, streams_used_, context_id, key, correlation_id);
}

std::uint32_t SyncMarks::finished_below(std::uint32_t context_id, std::uintptr_t stream,
                                        bool per_thread) const noexcept {
  if (context_id == 0) return 0;
  const std::uint32_t device = find(devices_, kContexts, devices_used_, context_id, 0);
  const std::uintptr_t key = stream_key(stream, per_thread);
  return key == 0 ? device
                  : std::max(device, find(streams_, kStreams, streams_used_, context_id, key));
}

GpuFault describe_fault(const FaultSite& site, const std::vector<RecentLaunch>& recent,
                        const SyncMarks& marks,
                        const std::function<std::string(std::uint64_t)>& ranges,
                        const std::function<std::string(pid_t)>& thread_name) {
  GpuFault fault;
  fault.site = site;
  fault.thread_name = thread_name(site.thread);
  for (const RecentLaunch& recent_launch : recent) {
    const LastLaunch& launch = recent_launch.launch;
    // A context CUPTI did not name (0) on either side may be the faulting one.
    if (site.context_id != 0 && launch.context_id != 0 && launch.context_id != site.context_id) {
      continue;
    }
    if (site.correlation_id != 0 && launch.correlation_id >= site.correlation_id) continue;
    if (launch.correlation_id <
        marks.finished_below(launch.context_id, launch.stream, launch.per_thread_stream)) {
      continue;
    }
    fault.maybe_more = fault.maybe_more || recent_launch.oldest_kept;
    RunningLaunch running;
    running.launch = launch;
    if (running.launch.kernel.empty() && !launch.graph && recent_launch.name_pointer != nullptr) {
      const char* name = recent_launch.name_pointer;
      running.launch.kernel.assign(name, strnlen(name, kMaxNameBytes));
    }
    running.launch.ranges = ranges(launch.range_path);
    fault.running.push_back(std::move(running));
  }
  std::sort(fault.running.begin(), fault.running.end(),
            [](const RunningLaunch& a, const RunningLaunch& b) {
              return a.launch.correlation_id < b.launch.correlation_id;
            });
  for (RunningLaunch& running : fault.running)
    running.thread_name = thread_name(running.launch.thread);
  // A device CUPTI could not name for the call is the running kernels' device.
  if (fault.site.device < 0 && !fault.running.empty()) {
    fault.site.device = fault.running.front().launch.device;
  }
  return fault;
}

std::vector<std::string> fault_warnings(const GpuFault& fault) {
  std::vector<std::string> warnings;
  const FaultSite& site = fault.site;
  const std::optional<FaultError> error = gpu_fault_error(site.error);
  std::string headline = "the GPU faulted: " +
                         (error ? std::string{error->name} + " (" + std::to_string(site.error) +
                                      ", " + error->meaning + ")"
                                : "CUDA error " + std::to_string(site.error)) +
                         " on " + device_text(site.device) + "; ";
  if (site.in_final_synchronization) {
    headline +=
        "no call kerntime watches returned it to the program (it may have met it in another, "
        "such as cudaGetLastError or an allocation); kerntime's synchronization at the end of "
        "the process found it (" +
        site.call + ", " + thread_text(site.thread, fault.thread_name) + ")";
  } else {
    headline += site.call + " returned it first, to " + thread_text(site.thread, fault.thread_name);
  }
  warnings.push_back(std::move(headline));

  const std::string device = device_text(site.device);
  if (!fault.launches_watched) {
    warnings.push_back(
        "the kernels that were running are not known: CUPTI's launch callbacks were off "
        "(--no-last-launch, or a CUPTI that cannot call them)");
  } else if (fault.running.empty()) {
    warnings.push_back("no kernel launched on " + device +
                       " since the last successful synchronization of its stream is known: the "
                       "fault came from a copy or a memset, or from a thread past the " +
                       std::to_string(LaunchSlots::kThreads) + " whose launches kerntime keeps");
  } else if (fault.running.size() == 1 && !fault.maybe_more) {
    const RunningLaunch& only = fault.running.front();
    warnings.push_back(
        "the kernel that faulted: " + describe_last_launch(only.launch, only.thread_name) +
        "; it was the only kernel running on " + device +
        " (launched after the last successful synchronization of its stream)");
  } else {
    const std::size_t count = fault.running.size();
    std::string text = "the fault is in one of " +
                       std::string{fault.maybe_more ? "at least " : ""} + std::to_string(count) +
                       " kernels running on " + device +
                       " (launched after the last successful synchronization of their stream; "
                       "CUPTI cannot tell which; the first to run is the likeliest): ";
    for (std::size_t i = 0; i < count && i < kNamed; ++i) {
      if (i > 0) text += "; ";
      text += describe_last_launch(fault.running[i].launch, fault.running[i].thread_name);
    }
    if (count > kNamed) text += "; and " + std::to_string(count - kNamed) + " launched after them";
    warnings.push_back(std::move(text));
  }
  return warnings;
}

void FaultWatch::publish(GpuFault fault) {
  if (published_.load(std::memory_order_acquire) != nullptr) return;
  fault_ = std::move(fault);
  published_.store(&fault_, std::memory_order_release);
}

}  // namespace kerntime::inject
