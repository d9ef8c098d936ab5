// SPDX-License-Identifier: Apache-2.0
// The one place that knows CUPTI versions: the record layouts kerntime reads and the version
// gates, named after what they guard. Everything else uses these names.
#pragma once

#include <cstdint>

#include <cupti.h>

namespace kerntime::cupti {

/// CUPTI_API_VERSION numbering: small integers up to CUDA 12.9 (27), then xxyyzz (130001 for
/// 13.0 Update 1).
inline constexpr std::uint32_t kCupti13 = 130000;
/// Returning no buffer from the request callback crashed older CUPTI; from 12.9 (API 27) it
/// only drops records (kineto's kCuptiBufferRejectionMinVersion).
inline constexpr std::uint32_t kBufferRejectionMinVersion = 27;

/// The driver's cuKernelGetName (CUDA 12.3 on; callback ids are never reused), which CUDA calls
/// on every launch while tracing: muted, see ActivitySession::start.
inline constexpr CUpti_CallbackId kDriverKernelGetName = 719;

/// CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER (CUDA 12.4 on; attribute numbers are never
/// reused): a one-byte flag that says the buffers kerntime hands CUPTI are already zero, so that
/// CUPTI does not zero each one itself on the thread that needs it. An older CUPTI refuses it.
inline constexpr auto kZeroedOutActivityBuffer = static_cast<CUpti_ActivityAttribute>(5);

// The newest record layouts of the headers kerntime is built with. CUPTI fills only the newest
// layout and only ever appends fields, so the fields kerntime reads sit at the same offsets in
// the oldest layout that has them; the record views static_assert that. Older headers use
// those oldest layouts directly.
#if CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
using MemcpyRecord = CUpti_ActivityMemcpy6;
using PeerMemcpyRecord = CUpti_ActivityMemcpyPtoP4;
using MemsetRecord = CUpti_ActivityMemset4;
using SynchronizationRecord = CUpti_ActivitySynchronization2;
#define KERNTIME_CUPTI_HAS_SUBSCRIBE_V2 1
static_assert(CUPTI_DRIVER_TRACE_CBID_cuKernelGetName == 719, "CUPTI renumbered cuKernelGetName");
static_assert(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER == kZeroedOutActivityBuffer,
              "CUPTI renumbered an activity attribute");
#else
using KernelRecord = CUpti_ActivityKernel5;
using MemcpyRecord = CUpti_ActivityMemcpy4;
using PeerMemcpyRecord = CUpti_ActivityMemcpyPtoP3;
using MemsetRecord = CUpti_ActivityMemset3;
using SynchronizationRecord = CUpti_ActivitySynchronization;
#define KERNTIME_CUPTI_HAS_SUBSCRIBE_V2 0
#endif

}  // namespace kerntime::cupti
