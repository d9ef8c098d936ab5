// SPDX-License-Identifier: Apache-2.0
// What kerntime learns from CUPTI's callback API, in the one callback a subscriber has: kernel
// and graph launches (counted for the watch that tells a starved session from an empty one, and
// handed to a launch-site handler for `kerntime run`'s last launch), cudaProfilerStart/Stop,
// stream captures (launches captured into a graph run nothing), each context's device, the
// results of the calls a GPU fault surfaces in (successful synchronizations of the device, a
// stream or an event, and faults), and module unloads (after one, CUPTI may give a kernel name's
// memory to another name).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include <cupti.h>

#include "cupti/cupti_api.hpp"
#include "cupti/event_records.hpp"
#include "cupti/watched_calls.hpp"

namespace kerntime::cupti {

/// The state the callback reads and writes; one per subscription, passed as its userdata.
/// Everything is atomic: the callback runs on any program thread, inside every launch.
struct LaunchWatch {
  std::atomic<std::uint64_t> runtime_launches{0};
  std::atomic<std::uint64_t> driver_launches{0};
  std::atomic<std::uint64_t> captured_launches{0};
  std::atomic<CuptiApi::ProfilerApiHandler> profiler_handler{nullptr};
  std::atomic<void*> profiler_context{nullptr};
  std::atomic<CuptiApi::LaunchSiteHandler> site_handler{nullptr};
  std::atomic<void*> site_context{nullptr};
  std::atomic<CuptiApi::ApiResultHandler> result_handler{nullptr};
  std::atomic<void*> result_context{nullptr};
  /// Bumped whenever the launch callbacks are switched on: a thread's call state from before
  /// (a call whose exit callback never came) is forgotten.
  std::atomic<std::uint32_t> epoch{0};

  /// Contexts seen being created and their devices (CUPTI's device id), so that a launch site
  /// names its device without a CUPTI call inside the launch. Past kContexts, devices are -1.
  static constexpr std::size_t kContexts = 64;
  std::atomic<const void*> contexts[kContexts] = {};
  std::atomic<std::int32_t> devices[kContexts] = {};
  std::atomic<std::size_t> context_slots{0};
  /// Modules unloaded and contexts destroyed (CuptiApi::watch_unloads).
  std::atomic<std::uint64_t> unloads{0};
  std::atomic<CuptiApi::UnloadHandler> unload_handler{nullptr};
  std::atomic<void*> unload_context{nullptr};
  /// Each event's latest record, for what a successful event synchronization says has finished.
  EventRecords events;
  /// cuptiGetDeviceId, resolved with the rest of CUPTI; nullptr: devices stay unknown.
  CUptiResult (*device_of_context)(CUcontext, std::uint32_t*) = nullptr;

  /// Kernel and graph launches that returned success and ran (not captured).
  std::uint64_t launches() const;
  /// The device of `context`, or -1.
  std::int32_t device_of(const void* context) const;
};

/// The subscriber callback (userdata: a LaunchWatch).
void CUPTIAPI on_cupti_callback(void* userdata, CUpti_CallbackDomain domain,
                                CUpti_CallbackId callback_id, const void* data);

/// Whether `error` (a cudaError_t or CUresult: they number these alike) is a GPU fault: a
/// sticky error after which the context cannot be used (an illegal or misaligned address, a
/// device-side assert, a trap or other launch failure, an illegal instruction, a stack error,
/// an uncorrectable ECC error, ...). Errors a call makes on its own (a bad argument, a launch
/// configuration the GPU refuses) are not.
constexpr bool is_gpu_fault(int error) {
  switch (error) {
    case 214:  // ECCUncorrectable
    case 226:  // Contained
    case 700:  // IllegalAddress
    case 702:  // LaunchTimeout
    case 710:  // Assert
    case 714:  // HardwareStackError
    case 715:  // IllegalInstruction
    case 716:  // MisalignedAddress
    case 717:  // InvalidAddressSpace
    case 718:  // InvalidPc
    case 719:  // LaunchFailure
    case 721:  // TensorMemoryLeak
      return true;
    default:
      return false;
  }
}

}  // namespace kerntime::cupti
