// SPDX-License-Identifier: Apache-2.0
#include "cupti/watched_calls.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

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

// The batch copies (CUDA 12.8, and new versions in 13.0); each id's _ptsz twin is the next one.
constexpr CUpti_CallbackId kRuntimeMemcpyBatch12 = 482;
constexpr CUpti_CallbackId kRuntimeMemcpy3DBatch12 = 484;
constexpr CUpti_CallbackId kRuntimeMemcpyBatch13 = 509;
constexpr CUpti_CallbackId kRuntimeMemcpy3DBatch13 = 511;
constexpr CUpti_CallbackId kDriverMemcpyBatch12 = 776;
constexpr CUpti_CallbackId kDriverMemcpy3DBatch12 = 778;
constexpr CUpti_CallbackId kDriverMemcpyBatch13 = 796;
constexpr CUpti_CallbackId kDriverMemcpy3DBatch13 = 798;
#if CUPTI_API_VERSION >= 130000
static_assert(
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_v12080 == kRuntimeMemcpyBatch12 &&
        CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_ptsz_v12080 == kRuntimeMemcpyBatch12 + 1 &&
        CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_v12080 == kRuntimeMemcpy3DBatch12 &&
        CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_ptsz_v12080 ==
            kRuntimeMemcpy3DBatch12 + 1 &&
        CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_v13000 == kRuntimeMemcpyBatch13 &&
        CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_ptsz_v13000 == kRuntimeMemcpyBatch13 + 1 &&
        CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_v13000 == kRuntimeMemcpy3DBatch13 &&
        CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_ptsz_v13000 ==
            kRuntimeMemcpy3DBatch13 + 1 &&
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync == kDriverMemcpyBatch12 &&
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_ptsz == kDriverMemcpyBatch12 + 1 &&
        CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync == kDriverMemcpy3DBatch12 &&
        CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_ptsz == kDriverMemcpy3DBatch12 + 1 &&
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2 == kDriverMemcpyBatch13 &&
        CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2_ptsz == kDriverMemcpyBatch13 + 1 &&
        CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2 == kDriverMemcpy3DBatch13 &&
        CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2_ptsz == kDriverMemcpy3DBatch13 + 1,
    "CUPTI renumbered a callback id");
#endif

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

// Every watched call, once: what it is to the watch, and whether it is a per-thread-stream entry
// point. The classification and the lists of callbacks to enable are both made from these, so
// the two cannot disagree.
struct WatchedCall {
  CUpti_CallbackId id;
  Call call;
  bool per_thread = false;
};

constexpr WatchedCall kRuntimeCalls[] = {
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, Call::kernel_launch},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, Call::kernel_launch},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000, Call::kernel_launch},
    {kRuntimeLaunchKernel13, Call::kernel_launch},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000, Call::kernel_launch, true},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060, Call::kernel_launch, true},
    {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000, Call::kernel_launch, true},
    {kRuntimeLaunchKernel13Ptsz, Call::kernel_launch, true},
    {CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, Call::graph_launch},
    {CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000, Call::graph_launch, true},
    {CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000, Call::capture_begin},
    {CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000, Call::capture_begin},
    {kRuntimeCaptureToGraph, Call::capture_begin},
    {kRuntimeCaptureToGraphPtsz, Call::capture_begin},
    {CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000, Call::capture_end},
    {CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000, Call::capture_end},
    {CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, Call::device_sync},
    {CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020, Call::device_sync},
    {CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, Call::stream_sync},
    {CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020, Call::stream_sync},
    {CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000, Call::stream_sync, true},
    {CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000, Call::stream_sync, true},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeer_v4000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeerAsync_v4000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020, Call::event_sync},
    {CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, Call::event_sync},
    {CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020, Call::event_record},
    {CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000, Call::event_record, true},
    {CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010, Call::event_record},
    {CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010, Call::event_record, true},
    {CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020, Call::event_destroy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArray_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArray_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArrayAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArrayAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArray_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArray_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArrayAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArrayAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArray_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArray_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArrayAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArrayAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArray_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArray_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArrayAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArrayAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyArrayToArray_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyArrayToArray_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DArrayToArray_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DArrayToArray_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeer_v4000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeer_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeerAsync_v4000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeerAsync_ptsz_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_ptds_v7000, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_v3020, Call::copy},
    {CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_ptsz_v7000, Call::copy},
    {kRuntimeMemcpyBatch12, Call::copy},
    {kRuntimeMemcpyBatch12 + 1, Call::copy},  // _ptsz
    {kRuntimeMemcpy3DBatch12, Call::copy},
    {kRuntimeMemcpy3DBatch12 + 1, Call::copy},
    {kRuntimeMemcpyBatch13, Call::copy},
    {kRuntimeMemcpyBatch13 + 1, Call::copy},
    {kRuntimeMemcpy3DBatch13, Call::copy},
    {kRuntimeMemcpy3DBatch13 + 1, Call::copy},
};

constexpr WatchedCall kDriverCalls[] = {
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, Call::kernel_launch},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, Call::kernel_launch},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, Call::kernel_launch},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, Call::kernel_launch, true},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, Call::kernel_launch, true},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz, Call::kernel_launch, true},
    // Deprecated since CUDA 4 and still served: the legacy default stream, or the one named.
    {CUPTI_DRIVER_TRACE_CBID_cuLaunch, Call::kernel_launch},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid, Call::kernel_launch},
    {CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync, Call::kernel_launch},
    {CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, Call::graph_launch},
    {CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, Call::graph_launch, true},
    {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture, Call::capture_begin},
    {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz, Call::capture_begin},
    {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, Call::capture_begin},
    {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz, Call::capture_begin},
    {kDriverCaptureToGraph, Call::capture_begin},
    {kDriverCaptureToGraphPtsz, Call::capture_begin},
    {CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, Call::capture_end},
    {CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz, Call::capture_end},
    {CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, Call::device_sync},
    {CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, Call::stream_sync},
    {CUPTI_DRIVER_TRACE_CBID_cuStreamQuery, Call::stream_sync},
    {CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz, Call::stream_sync, true},
    {CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz, Call::stream_sync, true},
    {kDriverCtxSynchronizeV2, Call::may_fault},
    {CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize, Call::event_sync},
    {CUPTI_DRIVER_TRACE_CBID_cuEventQuery, Call::event_sync},
    {CUPTI_DRIVER_TRACE_CBID_cuEventRecord, Call::event_record},
    {CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz, Call::event_record, true},
    {CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags, Call::event_record},
    {CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz, Call::event_record, true},
    {CUPTI_DRIVER_TRACE_CBID_cuEventDestroy, Call::event_destroy},
    {CUPTI_DRIVER_TRACE_CBID_cuEventDestroy_v2, Call::event_destroy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2_ptds, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async_ptsz, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async_ptsz, Call::copy},
    {kDriverMemcpyBatch12, Call::copy},
    {kDriverMemcpyBatch12 + 1, Call::copy},  // _ptsz
    {kDriverMemcpy3DBatch12, Call::copy},
    {kDriverMemcpy3DBatch12 + 1, Call::copy},
    {kDriverMemcpyBatch13, Call::copy},
    {kDriverMemcpyBatch13 + 1, Call::copy},
    {kDriverMemcpy3DBatch13, Call::copy},
    {kDriverMemcpy3DBatch13 + 1, Call::copy},
    // The CUDA 3.x entry points that the _v2 ones replaced, for programs built against them.
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD8, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD16, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD32, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32, Call::copy},
    {CUPTI_DRIVER_TRACE_CBID_cuMemcpy_v2, Call::copy},
};

template <std::size_t N>
constexpr bool each_once(const WatchedCall (&calls)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = i + 1; j < N; ++j) {
      if (calls[i].id == calls[j].id) return false;
    }
  }
  return true;
}
static_assert(each_once(kRuntimeCalls) && each_once(kDriverCalls), "a call is listed twice");

// Indexed by callback id, so that classifying a call in every callback is one load.
template <std::size_t N>
constexpr std::size_t table_size(const WatchedCall (&calls)[N]) {
  std::size_t size = 0;
  for (const WatchedCall& c : calls)
    size = std::max<std::size_t>(size, c.id + 1);
  return size;
}

template <std::size_t Size, std::size_t N>
constexpr std::array<Classified, Size> by_id(const WatchedCall (&calls)[N]) {
  std::array<Classified, Size> table{};
  for (const WatchedCall& c : calls)
    table[c.id] = Classified{c.call, c.per_thread};
  return table;
}

constexpr auto kRuntimeById = by_id<table_size(kRuntimeCalls)>(kRuntimeCalls);
constexpr auto kDriverById = by_id<table_size(kDriverCalls)>(kDriverCalls);

constexpr bool is_launch_site(Call call) {
  return call == Call::kernel_launch || call == Call::graph_launch || call == Call::capture_begin ||
         call == Call::capture_end;
}

template <bool LaunchSites>
constexpr std::size_t count_watched() {
  std::size_t count = 0;
  for (const WatchedCall& c : kRuntimeCalls)
    count += is_launch_site(c.call) == LaunchSites;
  for (const WatchedCall& c : kDriverCalls)
    count += is_launch_site(c.call) == LaunchSites;
  return count;
}

template <bool LaunchSites>
constexpr std::array<WatchedCallback, count_watched<LaunchSites>()> watched() {
  std::array<WatchedCallback, count_watched<LaunchSites>()> out{};
  std::size_t n = 0;
  for (const WatchedCall& c : kRuntimeCalls) {
    if (is_launch_site(c.call) == LaunchSites) out[n++] = {CUPTI_CB_DOMAIN_RUNTIME_API, c.id};
  }
  for (const WatchedCall& c : kDriverCalls) {
    if (is_launch_site(c.call) == LaunchSites) out[n++] = {CUPTI_CB_DOMAIN_DRIVER_API, c.id};
  }
  return out;
}

constexpr auto kLaunchCallbacks = watched<true>();
constexpr auto kResultCallbacks = watched<false>();

}  // namespace

Classified classify_runtime(CUpti_CallbackId id) {
  return id < kRuntimeById.size() ? kRuntimeById[id] : Classified{};
}

Classified classify_driver(CUpti_CallbackId id) {
  return id < kDriverById.size() ? kDriverById[id] : Classified{};
}

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
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
      return static_cast<const cuLaunchGridAsync_params*>(params)->hStream;
    default:
      return nullptr;
  }
}

// Each stream synchronization's or query's parameters are the stream alone.
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

const WatchedCallback* launch_callbacks(std::size_t& count) {
  count = kLaunchCallbacks.size();
  return kLaunchCallbacks.data();
}

const WatchedCallback* result_callbacks(std::size_t& count) {
  count = kResultCallbacks.size();
  return kResultCallbacks.data();
}

// An event record's parameters start with the event and the stream, a synchronization's or
// query's with the event, in both APIs.
static_assert(offsetof(cudaEventRecord_v3020_params, event) == 0 &&
              offsetof(cudaEventRecord_v3020_params, stream) == sizeof(void*) &&
              offsetof(cudaEventRecord_ptsz_v7000_params, stream) == sizeof(void*) &&
              offsetof(cudaEventRecordWithFlags_v11010_params, stream) == sizeof(void*) &&
              offsetof(cudaEventRecordWithFlags_ptsz_v11010_params, stream) == sizeof(void*) &&
              offsetof(cuEventRecord_params, hEvent) == 0 &&
              offsetof(cuEventRecord_params, hStream) == sizeof(void*) &&
              offsetof(cuEventRecord_ptsz_params, hStream) == sizeof(void*) &&
              offsetof(cuEventRecordWithFlags_params, hStream) == sizeof(void*) &&
              offsetof(cuEventRecordWithFlags_ptsz_params, hStream) == sizeof(void*) &&
              offsetof(cudaEventSynchronize_v3020_params, event) == 0 &&
              offsetof(cudaEventQuery_v3020_params, event) == 0 &&
              offsetof(cuEventSynchronize_params, hEvent) == 0 &&
              offsetof(cuEventQuery_params, hEvent) == 0 &&
              offsetof(cudaEventDestroy_v3020_params, event) == 0 &&
              offsetof(cuEventDestroy_v2_params, hEvent) == 0 &&
              offsetof(cuEventDestroy_params, hEvent) == 0);
const void* named_event(const void* params) {
  return params != nullptr ? static_cast<const void* const*>(params)[0] : nullptr;
}
const void* recording_stream(const void* params) {
  return params != nullptr ? static_cast<const void* const*>(params)[1] : nullptr;
}

}  // namespace kerntime::cupti
