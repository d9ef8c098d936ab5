// SPDX-License-Identifier: Apache-2.0
#include "cupti/launch_watch.hpp"

#include <algorithm>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>  // with the parameter structs of every runtime and driver call

namespace kerntime::cupti {
namespace {

// Callback ids are never reused, so ids newer than the headers kerntime is built with are
// spelled as numbers; an older CUPTI refuses to enable them and the rest still work.
// CUDA 13's <<<>>> goes through __cudaLaunchKernel, not cudaLaunchKernel.
constexpr CUpti_CallbackId kRuntimeLaunchKernel13 = 505;      // __cudaLaunchKernel_v13000
constexpr CUpti_CallbackId kRuntimeLaunchKernel13Ptsz = 506;  // __cudaLaunchKernel_ptsz_v13000
// cudaStreamBeginCaptureToGraph and cuStreamBeginCaptureToGraph (CUDA 12.3), and _ptsz.
constexpr CUpti_CallbackId kRuntimeCaptureToGraph = 452;
constexpr CUpti_CallbackId kRuntimeCaptureToGraphPtsz = 453;
constexpr CUpti_CallbackId kDriverCaptureToGraph = 720;
constexpr CUpti_CallbackId kDriverCaptureToGraphPtsz = 721;
#if CUPTI_API_VERSION >= 130000
static_assert(
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000 == kRuntimeLaunchKernel13 &&
        CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000 == kRuntimeLaunchKernel13Ptsz &&
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030 == kRuntimeCaptureToGraph &&
        CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030 ==
            kRuntimeCaptureToGraphPtsz &&
        CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph == kDriverCaptureToGraph &&
        CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz == kDriverCaptureToGraphPtsz,
    "CUPTI renumbered a callback id");
#endif

// cuCtxSynchronize_v2, newer than some headers kerntime builds with: it names its context.
constexpr CUpti_CallbackId kDriverCtxSynchronizeV2 = 800;
#if CUPTI_API_VERSION >= 130000
static_assert(CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2 == kDriverCtxSynchronizeV2,
              "CUPTI renumbered a callback id");
#endif
// is_gpu_fault() reads a runtime or a driver result alike.
static_assert(cudaErrorIllegalAddress == 700 && CUDA_ERROR_ILLEGAL_ADDRESS == 700 &&
              cudaErrorAssert == 710 && CUDA_ERROR_ASSERT == 710 &&
              cudaErrorMisalignedAddress == 716 && CUDA_ERROR_MISALIGNED_ADDRESS == 716 &&
              cudaErrorLaunchFailure == 719 && CUDA_ERROR_LAUNCH_FAILED == 719 &&
              cudaErrorECCUncorrectable == 214 && CUDA_ERROR_ECC_UNCORRECTABLE == 214 &&
              sizeof(cudaError_t) == sizeof(int) && sizeof(CUresult) == sizeof(int));
static_assert(is_gpu_fault(cudaErrorIllegalAddress) && !is_gpu_fault(cudaSuccess) &&
              !is_gpu_fault(cudaErrorLaunchOutOfResources));

// __cudaLaunchKernel's parameters, which CUPTI's generated headers do not declare: the
// function's arguments in order, as every generated parameter struct is (cudaKernel_t in place
// of cudaLaunchKernel's `const void* func`, both one pointer).
struct LaunchKernel13Params {
  const void* kernel;
  dim3 grid;
  dim3 block;
  void** args;
  std::size_t shared_memory;
  cudaStream_t stream;
};
static_assert(sizeof(LaunchKernel13Params) == sizeof(cudaLaunchKernel_v7000_params));

// The last three are where a GPU fault surfaces (besides launches): a synchronization of the
// device or of one stream (a successful one says what had finished), and others that only fail.
enum class Call {
  other,
  kernel_launch,
  graph_launch,
  capture_begin,
  capture_end,
  device_sync,
  stream_sync,
  may_fault
};

struct Classified {
  Call call = Call::other;
  bool per_thread = false;  // a _ptsz entry point: a null stream is the per-thread default one
};

Classified classify_runtime(CUpti_CallbackId id) {
  switch (id) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case kRuntimeLaunchKernel13:
      return {Call::kernel_launch, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
    case kRuntimeLaunchKernel13Ptsz:
      return {Call::kernel_launch, true};
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
      return {Call::graph_launch, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
      return {Call::graph_launch, true};
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000:
    case kRuntimeCaptureToGraph:
    case kRuntimeCaptureToGraphPtsz:
      return {Call::capture_begin, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000:
      return {Call::capture_end, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020:
      return {Call::device_sync, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020:
      return {Call::stream_sync, false};
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000:
      return {Call::stream_sync, true};
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000:
      return {Call::may_fault, false};
    default:
      return {};
  }
}

Classified classify_driver(CUpti_CallbackId id) {
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      return {Call::kernel_launch, false};
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return {Call::kernel_launch, true};
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
      return {Call::graph_launch, false};
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
      return {Call::graph_launch, true};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
    case kDriverCaptureToGraph:
    case kDriverCaptureToGraphPtsz:
      return {Call::capture_begin, false};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz:
      return {Call::capture_end, false};
    case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize:
      return {Call::device_sync, false};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamQuery:
      return {Call::stream_sync, false};
    case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz:
      return {Call::stream_sync, true};
    case kDriverCtxSynchronizeV2:  // names its context: only its faults are read
    case CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize:
    case CUPTI_DRIVER_TRACE_CBID_cuEventQuery:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpy:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz:
      return {Call::may_fault, false};
    default:
      return {};
  }
}

// The stream a launch names, read from the call's parameters (valid while the call runs).
const void* runtime_stream(CUpti_CallbackId id, const void* params) {
  switch (id) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
      return static_cast<const cudaLaunchKernel_v7000_params*>(params)->stream;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
      return static_cast<const cudaLaunchCooperativeKernel_v9000_params*>(params)->stream;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
      const cudaLaunchConfig_t* config =
          static_cast<const cudaLaunchKernelExC_v11060_params*>(params)->config;
      return config != nullptr ? config->stream : nullptr;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
      return static_cast<const cudaGraphLaunch_v10000_params*>(params)->stream;
    case kRuntimeLaunchKernel13:
    case kRuntimeLaunchKernel13Ptsz:
      return static_cast<const LaunchKernel13Params*>(params)->stream;
    default:
      return nullptr;
  }
}

const void* driver_stream(CUpti_CallbackId id, const void* params) {
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      return static_cast<const cuLaunchKernel_params*>(params)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return static_cast<const cuLaunchCooperativeKernel_params*>(params)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const CUlaunchConfig* config = static_cast<const cuLaunchKernelEx_params*>(params)->config;
      return config != nullptr ? config->hStream : nullptr;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
      return static_cast<const cuGraphLaunch_params*>(params)->hStream;
    default:
      return nullptr;
  }
}

// The stream a stream synchronization or query names: each of those calls' parameters is the
// stream alone.
static_assert(sizeof(cudaStreamSynchronize_v3020_params) == sizeof(void*) &&
              sizeof(cudaStreamSynchronize_ptsz_v7000_params) == sizeof(void*) &&
              sizeof(cudaStreamQuery_v3020_params) == sizeof(void*) &&
              sizeof(cudaStreamQuery_ptsz_v7000_params) == sizeof(void*) &&
              sizeof(cuStreamSynchronize_params) == sizeof(void*) &&
              sizeof(cuStreamSynchronize_ptsz_params) == sizeof(void*) &&
              sizeof(cuStreamQuery_params) == sizeof(void*) &&
              sizeof(cuStreamQuery_ptsz_params) == sizeof(void*));
const void* synchronized_stream(const void* params) {
  return params != nullptr ? *static_cast<const void* const*>(params) : nullptr;
}

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
                   const void* stream, bool per_thread) {
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
  if (what.call == Call::other || !outermost(watch, call)) return;
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
    case Call::device_sync:
    case Call::stream_sync:
    case Call::may_fault:
      on_result(watch, domain, callback_id, call, what);
      break;
    case Call::other:
      break;
  }
}

const WatchedCallback* launch_callbacks(std::size_t& count) {
  static constexpr WatchedCallback kCallbacks[] = {
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000},
      {CUPTI_CB_DOMAIN_RUNTIME_API,
       CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, kRuntimeLaunchKernel13},
      {CUPTI_CB_DOMAIN_RUNTIME_API, kRuntimeLaunchKernel13Ptsz},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, kRuntimeCaptureToGraph},
      {CUPTI_CB_DOMAIN_RUNTIME_API, kRuntimeCaptureToGraphPtsz},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, kDriverCaptureToGraph},
      {CUPTI_CB_DOMAIN_DRIVER_API, kDriverCaptureToGraphPtsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz},
  };
  count = std::size(kCallbacks);
  return kCallbacks;
}

const WatchedCallback* result_callbacks(std::size_t& count) {
  static constexpr WatchedCallback kCallbacks[] = {
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020},
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize},
      {CUPTI_CB_DOMAIN_DRIVER_API, kDriverCtxSynchronizeV2},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamQuery},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuEventQuery},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpy},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz},
  };
  count = std::size(kCallbacks);
  return kCallbacks;
}

}  // namespace kerntime::cupti
