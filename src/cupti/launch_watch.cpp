// SPDX-License-Identifier: Apache-2.0
#include "cupti/launch_watch.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>  // with the parameter structs of every runtime and driver call

namespace kerntime::cupti {
namespace {

// is_gpu_fault() reads a runtime or a driver result alike.
static_assert(cudaErrorIllegalAddress == 700 && CUDA_ERROR_ILLEGAL_ADDRESS == 700 &&
              cudaErrorAssert == 710 && CUDA_ERROR_ASSERT == 710 &&
              cudaErrorMisalignedAddress == 716 && CUDA_ERROR_MISALIGNED_ADDRESS == 716 &&
              cudaErrorLaunchFailure == 719 && CUDA_ERROR_LAUNCH_FAILED == 719 &&
              cudaErrorECCUncorrectable == 214 && CUDA_ERROR_ECC_UNCORRECTABLE == 214 &&
              sizeof(cudaError_t) == sizeof(int) && sizeof(CUresult) == sizeof(int));
static_assert(is_gpu_fault(cudaErrorIllegalAddress) && !is_gpu_fault(cudaSuccess) &&
              !is_gpu_fault(cudaErrorLaunchOutOfResources));

// What the call returned; cudaError_t and CUresult are both int-sized enumerations.
int returned(const CUpti_CallbackData& call) {
  return call.functionReturnValue != nullptr ? *static_cast<const int*>(call.functionReturnValue)
                                             : 0;
}

bool succeeded(CUpti_CallbackDomain domain, const CUpti_CallbackData& call) {
  if (call.functionReturnValue == nullptr) return false;
  return domain == CUPTI_CB_DOMAIN_RUNTIME_API
             ? *static_cast<const cudaError_t*>(call.functionReturnValue) == cudaSuccess
             : *static_cast<const CUresult*>(call.functionReturnValue) == CUDA_SUCCESS;
}

// Per program thread: stream captures it has open (its launches run nothing), and the watched
// call it is inside. A watched call may make another one (__cudaLaunchKernel a driver launch,
// cudaStreamBeginCapture cuStreamBeginCapture, depending on the CUDA version): only the
// outermost acts, so nothing counts twice. The nested call has the outer one's correlation id
// (CUPTI ties a runtime call and the driver calls it makes by one id), so the depth alone tells
// them apart; a callback missed because the watch was turned on or off halfway through a call
// is forgotten with the epoch, which turning the watch on advances.
thread_local int t_open_captures = 0;
thread_local int t_call_depth = 0;
thread_local std::uint32_t t_epoch = 0;

// Whether this callback is the outermost watched call's, and keeps the depth.
bool outermost(const LaunchWatch& watch, const CUpti_CallbackData& call) {
  if (const std::uint32_t epoch = watch.epoch.load(std::memory_order_relaxed); epoch != t_epoch) {
    t_epoch = epoch;
    t_call_depth = 0;
    t_open_captures = 0;
  }
  if (call.callbackSite == CUPTI_API_ENTER) {
    return t_call_depth++ == 0;
  }
  if (t_call_depth > 1) {
    --t_call_depth;
    return false;
  }
  t_call_depth = 0;
  return true;
}

void remember_context(LaunchWatch& watch, CUcontext context) {
  std::uint32_t device = 0;
  if (watch.device_of_context == nullptr ||
      watch.device_of_context(context, &device) != CUPTI_SUCCESS) {
    return;
  }
  const std::size_t slot = watch.context_slots.fetch_add(1);
  if (slot >= LaunchWatch::kContexts) return;
  watch.devices[slot].store(static_cast<std::int32_t>(device), std::memory_order_relaxed);
  watch.contexts[slot].store(context, std::memory_order_release);
}

void on_profiler_call(LaunchWatch& watch, CUpti_CallbackId id, CUpti_ApiCallbackSite site) {
  // Work launched after the start call returns is inside; work launched before the stop call
  // is entered, too.
  const bool start = id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart;
  if (site != (start ? CUPTI_API_EXIT : CUPTI_API_ENTER)) return;
  if (const CuptiApi::ProfilerApiHandler handler = watch.profiler_handler.load()) {
    handler(start, watch.profiler_context.load());
  }
}

void report_result(LaunchWatch& watch, CuptiApi::ApiResult::Kind kind, int error,
                   CUpti_CallbackDomain domain, CUpti_CallbackId id, const CUpti_CallbackData& call,
                   const void* stream, bool per_thread,
                   const EventRecords::Record* event = nullptr) {
  const CuptiApi::ApiResultHandler handler = watch.result_handler.load(std::memory_order_relaxed);
  if (handler == nullptr) return;
  CuptiApi::ApiResult result;
  result.kind = kind;
  result.error = error;
  result.domain = domain;
  result.callback_id = id;
  result.correlation_id = call.correlationId;
  result.context_id = call.contextUid;
  result.device = watch.device_of(call.context);
  result.stream = stream;
  result.per_thread_stream = per_thread;
  if (event != nullptr) {
    // What had finished is what came before the record, on its context and stream.
    result.correlation_id = event->correlation_id;
    result.context_id = event->context_id;
    result.stream = event->stream;
    result.per_thread_stream = event->per_thread;
  }
  handler(result, watch.result_context.load(std::memory_order_relaxed));
}

// As a copy or memset call begins, at every depth of a nested call: its record may come before
// the call returns (a synchronous copy), and whether the driver call beneath a runtime one shares
// its correlation id is CUPTI's to say. A call that fails, or is captured into a graph, makes no
// record with its id, so saying it costs an unused note only; the device is not looked up.
void on_copy_call(LaunchWatch& watch, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                  const CUpti_CallbackData& call) {
  const CuptiApi::ApiResultHandler handler = watch.result_handler.load(std::memory_order_relaxed);
  if (handler == nullptr) return;
  CuptiApi::ApiResult result;
  result.kind = CuptiApi::ApiResult::Kind::copy_called;
  result.domain = domain;
  result.callback_id = id;
  result.correlation_id = call.correlationId;
  result.context_id = call.contextUid;
  handler(result, watch.result_context.load(std::memory_order_relaxed));
}

// On the way out of a synchronization, query, copy or memset: one compare unless it failed.
void on_result(LaunchWatch& watch, CUpti_CallbackDomain domain, CUpti_CallbackId id,
               const CUpti_CallbackData& call, const Classified& what) {
  if (call.callbackSite != CUPTI_API_EXIT) return;
  const int error = returned(call);
  if (error == 0) {
    if (what.call == Call::device_sync) {
      report_result(watch, CuptiApi::ApiResult::Kind::device_synchronized, 0, domain, id, call,
                    nullptr, false);
    } else if (what.call == Call::stream_sync) {
      report_result(watch, CuptiApi::ApiResult::Kind::stream_synchronized, 0, domain, id, call,
                    synchronized_stream(call.functionParams), what.per_thread);
    }
  } else if (is_gpu_fault(error)) {
    report_result(watch, CuptiApi::ApiResult::Kind::fault, error, domain, id, call, nullptr, false);
  }
}

// An event record that succeeds is kept (not one captured into a graph: it records nothing
// yet); a successful synchronization or query of a kept event says its stream had finished what
// came before the record, as a stream synchronization would. The record is read as the call
// begins: one another thread makes meanwhile is not what this call waited for. A destroyed
// event's record goes.
thread_local std::optional<EventRecords::Record> t_waited_record;

void on_event(LaunchWatch& watch, CUpti_CallbackDomain domain, CUpti_CallbackId id,
              const CUpti_CallbackData& call, const Classified& what) {
  if (call.callbackSite == CUPTI_API_ENTER) {
    if (what.call == Call::event_sync) {
      t_waited_record = watch.events.find(named_event(call.functionParams));
    } else if (what.call == Call::event_destroy) {
      watch.events.forget(named_event(call.functionParams));
    }
    return;
  }
  const std::optional<EventRecords::Record> waited = std::move(t_waited_record);
  t_waited_record.reset();
  if (returned(call) != 0) {
    on_result(watch, domain, id, call, what);  // a fault, as any call may return one
    return;
  }
  if (what.call == Call::event_record) {
    if (t_open_captures > 0) return;
    EventRecords::Record record;
    record.stream = recording_stream(call.functionParams);
    record.context_id = call.contextUid;
    record.correlation_id = call.correlationId;
    record.per_thread = what.per_thread;
    watch.events.recorded(named_event(call.functionParams), record);
    return;
  }
  if (what.call == Call::event_sync && waited) {
    report_result(watch, CuptiApi::ApiResult::Kind::stream_synchronized, 0, domain, id, call,
                  nullptr, false, &*waited);
  }
}

void on_launch(LaunchWatch& watch, CUpti_CallbackDomain domain, CUpti_CallbackId id,
               const CUpti_CallbackData& call, const Classified& what) {
  if (call.callbackSite == CUPTI_API_ENTER) {
    if (t_open_captures > 0) return;
    const CuptiApi::LaunchSiteHandler handler = watch.site_handler.load(std::memory_order_relaxed);
    if (handler == nullptr) return;
    CuptiApi::LaunchSite site;
    site.graph = what.call == Call::graph_launch;
    site.kernel_name = site.graph ? nullptr : call.symbolName;
    site.stream = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? runtime_stream(id, call.functionParams)
                                                        : driver_stream(id, call.functionParams);
    site.per_thread_stream = what.per_thread;
    site.correlation_id = call.correlationId;
    site.context_id = call.contextUid;
    site.device = watch.device_of(call.context);
    handler(site, watch.site_context.load(std::memory_order_relaxed));
    return;
  }
  if (!succeeded(domain, call)) {
    // A launch after a fault fails with it, often before anything else the program calls.
    if (const int error = returned(call); is_gpu_fault(error)) {
      report_result(watch, CuptiApi::ApiResult::Kind::fault, error, domain, id, call, nullptr,
                    false);
    }
    return;
  }
  if (t_open_captures > 0) {
    watch.captured_launches.fetch_add(1, std::memory_order_relaxed);
  } else {
    (domain == CUPTI_CB_DOMAIN_RUNTIME_API ? watch.runtime_launches : watch.driver_launches)
        .fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace

std::uint64_t LaunchWatch::launches() const {
  return runtime_launches.load(std::memory_order_relaxed) +
         driver_launches.load(std::memory_order_relaxed);
}

std::int32_t LaunchWatch::device_of(const void* context) const {
  const std::size_t used = std::min(context_slots.load(std::memory_order_acquire), kContexts);
  // Newest first: a context address reused after a destroy is the latest entry.
  for (std::size_t i = used; i-- > 0;) {
    if (contexts[i].load(std::memory_order_acquire) == context) {
      return devices[i].load(std::memory_order_relaxed);
    }
  }
  return -1;
}

void CUPTIAPI on_cupti_callback(void* userdata, CUpti_CallbackDomain domain,
                                CUpti_CallbackId callback_id, const void* data) {
  if (userdata == nullptr || data == nullptr) return;
  LaunchWatch& watch = *static_cast<LaunchWatch*>(userdata);
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    if (callback_id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
      remember_context(watch, static_cast<const CUpti_ResourceData*>(data)->context);
    } else if (callback_id == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING ||
               callback_id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
      if (const CuptiApi::UnloadHandler handler = watch.unload_handler.load()) {
        handler(watch.unload_context.load());
      }
      watch.unloads.fetch_add(1, std::memory_order_acq_rel);
    }
    return;
  }
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto& call = *static_cast<const CUpti_CallbackData*>(data);
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API &&
      (callback_id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart ||
       callback_id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop)) {
    on_profiler_call(watch, callback_id, call.callbackSite);
    return;
  }
  const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  const Classified what = runtime ? classify_runtime(callback_id) : classify_driver(callback_id);
  if (what.call == Call::other) return;
  const bool outer = outermost(watch, call);
  if (what.call == Call::copy && call.callbackSite == CUPTI_API_ENTER) {
    on_copy_call(watch, domain, callback_id, call);
  }
  if (!outer) return;
  switch (what.call) {
    case Call::kernel_launch:
    case Call::graph_launch:
      on_launch(watch, domain, callback_id, call, what);
      break;
    case Call::capture_begin:
      if (call.callbackSite == CUPTI_API_EXIT && succeeded(domain, call)) ++t_open_captures;
      break;
    case Call::capture_end:
      if (call.callbackSite == CUPTI_API_ENTER && t_open_captures > 0) --t_open_captures;
      break;
    case Call::event_record:
    case Call::event_sync:
    case Call::event_destroy:
      on_event(watch, domain, callback_id, call, what);
      break;
    case Call::device_sync:
    case Call::stream_sync:
    case Call::copy:
    case Call::may_fault:
      on_result(watch, domain, callback_id, call, what);
      break;
    case Call::other:
      break;
  }
}

}  // namespace kerntime::cupti
