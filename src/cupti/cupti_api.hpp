// SPDX-License-Identifier: Apache-2.0
// Every CUPTI call kerntime makes goes through this interface: the real one resolves the
// functions with dlsym on the library that probe_cupti() loaded; tests substitute a fake that
// hands out synthetic buffers, so the session logic runs on machines without a GPU.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <cupti.h>

namespace kerntime::cupti {

/// The external-correlation kind kerntime pushes scope ids under (kineto and Caliper use the
/// CUSTOM kinds the same way; ours is the first).
inline constexpr CUpti_ExternalCorrelationKind kScopeCorrelationKind =
    CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;

class CuptiApi {
 public:
  virtual ~CuptiApi() = default;

  /// cuptiGetVersion() of the loaded library (CUPTI_API_VERSION numbering).
  virtual std::uint32_t version() = 0;
  /// Claims the subscriber slot as `name`. On CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
  /// `holder` receives the holder's name when the library can tell (cuptiSubscribe_v2).
  virtual CUptiResult subscribe(const char* name, std::string& holder) = 0;
  virtual CUptiResult unsubscribe() = 0;
  virtual CUptiResult set_attribute(CUpti_ActivityAttribute attribute, std::size_t value) = 0;
  virtual CUptiResult register_callbacks(CUpti_BuffersCallbackRequestFunc requested,
                                         CUpti_BuffersCallbackCompleteFunc completed) = 0;
  virtual CUptiResult enable(CUpti_ActivityKind kind) = 0;
  virtual CUptiResult disable(CUpti_ActivityKind kind) = 0;
  /// Stops recording one function of an enabled API kind (RUNTIME or DRIVER).
  virtual CUptiResult mute(CUpti_ActivityKind api, CUpti_CallbackId callback_id) = 0;
  virtual CUptiResult flush_all(std::uint32_t flags) = 0;
  /// Records dropped since the last call (CUPTI resets the count when read).
  virtual CUptiResult dropped_records(std::size_t& dropped) = 0;
  virtual CUptiResult next_record(std::uint8_t* buffer, std::size_t valid_bytes,
                                  CUpti_Activity** record) = 0;
  virtual CUptiResult push_external_id(std::uint64_t id) = 0;
  virtual CUptiResult pop_external_id(std::uint64_t& last) = 0;
  virtual CUptiResult timestamp(std::uint64_t& nanoseconds) = 0;
  /// Counts kernel and graph launches through CUPTI's callback API (on), or stops counting
  /// (off). Launches then pay for a callback, so the session watches only until records arrive.
  virtual CUptiResult watch_launches(bool on) = 0;
  /// Called on the program's thread when it leaves cuProfilerStart (started) or enters
  /// cuProfilerStop (not started); cudaProfilerStart/Stop reach these too.
  using ProfilerApiHandler = void (*)(bool started, void* context);
  /// Calls `handler` on profiler start and stop (nullptr: stops calling). `kerntime run
  /// --capture-range=cudaProfilerApi`; needs the subscription.
  virtual CUptiResult watch_profiler_api(ProfilerApiHandler /*handler*/, void* /*context*/) {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  /// One kernel or graph launch as the program's thread enters the call: what a crash report
  /// names as the last launch (`kerntime run`).
  struct LaunchSite {
    /// CUPTI's name of the kernel, valid during the handler only; nullptr for a graph launch.
    const char* kernel_name = nullptr;
    /// The stream handle the call names (nullptr: the legacy default stream).
    const void* stream = nullptr;
    std::uint32_t correlation_id = 0;  ///< the kernel record's correlationId carries it too
    std::uint32_t context_id = 0;      ///< CUPTI's context id, as the kernel records have it
    std::int32_t device = -1;          ///< -1: the context's device is not known
    bool graph = false;
    bool per_thread_stream = false;  ///< a _ptsz entry point: a null stream is the thread's own
  };
  using LaunchSiteHandler = void (*)(const LaunchSite& site, void* context);
  /// Calls `handler` on the launching thread at every kernel and graph launch that is not
  /// captured into a graph (nullptr: stops calling). It must be fast, take no lock and allocate
  /// nothing: it runs inside every launch. Needs the subscription.
  virtual CUptiResult watch_launch_sites(LaunchSiteHandler /*handler*/, void* /*context*/) {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  /// What a watched call returned, as the program's thread leaves it: a synchronization that
  /// succeeded (every launch before it on its context or stream had finished), or a GPU fault
  /// (cupti/launch_watch.hpp is_gpu_fault: the context is unusable from then on). Besides, as
  /// the thread enters it, a copy or memset call (copy_called; its record, if it makes one,
  /// carries the call's correlation id; device and stream are not filled in).
  struct ApiResult {
    enum class Kind { device_synchronized, stream_synchronized, copy_called, fault };
    Kind kind = Kind::fault;
    int error = 0;  ///< the CUDA error: the runtime and the driver number faults alike
    CUpti_CallbackDomain domain = CUPTI_CB_DOMAIN_INVALID;
    CUpti_CallbackId callback_id = 0;
    std::uint32_t correlation_id = 0;  ///< the call's; launches before it have lower ones
    std::uint32_t context_id = 0;      ///< CUPTI's id of the thread's context; 0: none
    std::int32_t device = -1;
    /// stream_synchronized: the stream; after an event's synchronization or query, the stream
    /// the event was recorded on, with the record call's correlation and context ids.
    const void* stream = nullptr;
    bool per_thread_stream = false;
  };
  using ApiResultHandler = void (*)(const ApiResult& result, void* context);
  /// Calls `handler` when a synchronization, a stream or event query, a copy, a memset or a
  /// launch returns a GPU fault, when a device or stream synchronization (or a stream query)
  /// succeeds, and when a copy or memset call begins (nullptr: stops calling). Those are the
  /// calls a fault surfaces in; their callbacks cost a compare of the returned value, and a
  /// call of `handler` for a copy. Needs the subscription.
  virtual CUptiResult watch_api_results(ApiResultHandler /*handler*/, void* /*context*/) {
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  /// Counts module unloads and context destructions (CUPTI's resource callbacks), after which
  /// CUPTI may give a kernel name's memory to another kernel's name: while the count stays the
  /// same, a name pointer seen before names the same kernel. The count lives as long as this
  /// object; nullptr when it cannot be kept. Needs the subscription.
  /// `handler` (nullptr: none) is called first, on the unloading thread inside CUPTI's
  /// callback, while the names of the module's kernels are still readable; it must not call
  /// CUPTI.
  using UnloadHandler = void (*)(void* context);
  virtual const std::atomic<std::uint64_t>* watch_unloads(UnloadHandler /*handler*/,
                                                          void* /*context*/) {
    return nullptr;
  }
  /// Launches counted while watching, since the subscription: kernel and graph launches that
  /// returned success, not captured into a graph.
  virtual std::uint64_t launches_seen() = 0;
  /// CUPTI's name of an API function, or nullptr.
  virtual const char* callback_name(CUpti_CallbackDomain domain, std::uint32_t callback_id) = 0;
  /// CUPTI's text for a result code.
  virtual std::string describe(CUptiResult result) = 0;
};

/// The CUPTI that probe_cupti() loaded, or nullptr with `problem` saying why in plain words
/// (not loadable, or a function kerntime needs is missing).
std::unique_ptr<CuptiApi> load_cupti_api(std::string& problem);

}  // namespace kerntime::cupti
