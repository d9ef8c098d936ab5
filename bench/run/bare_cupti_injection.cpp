// SPDX-License-Identifier: Apache-2.0
// The floor that kerntime run's host cost per launch is measured against (docs/run.md,
// bench/scripts/run-measure): a CUPTI injection library that turns on exactly the activity kinds
// kerntime run turns on, with buffers of the same size, and does nothing with the records. What
// kerntime run costs beyond it is kerntime's own work.
//
//   CUDA_INJECTION64_PATH=build/gpu/bench/run/libkerntime_bare_cupti_injection.so PROGRAM
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cupti.h>

#include "../cupti_buffer_free_list.hpp"
#include "../cupti_result.hpp"

namespace {

// kerntime run's buffers (TracerOptions::buffer_bytes).
kerntime_bench::CuptiBufferFreeList buffers;

void CUPTIAPI requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  buffers.take(buffer, size, max_records);
}

void CUPTIAPI completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t) {
  buffers.give_back(buffer);
}

// kerntime run's subscriber has a callback, which only its launch watch enables.
void CUPTIAPI no_callback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

// The kinds kerntime run enables (src/cupti/activity_session.cpp with the injection's
// TracerOptions: synchronization records off), in the same order.
constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                         CUPTI_ACTIVITY_KIND_RUNTIME,
                                         CUPTI_ACTIVITY_KIND_DRIVER,
                                         CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
                                         CUPTI_ACTIVITY_KIND_MEMCPY,
                                         CUPTI_ACTIVITY_KIND_MEMCPY2,
                                         CUPTI_ACTIVITY_KIND_MEMSET};

// The driver's cuKernelGetName, which kerntime mutes (src/cupti/cupti_versions.hpp).
constexpr CUpti_CallbackId kDriverKernelGetName = 719;

CUpti_SubscriberHandle subscriber = nullptr;

void at_exit() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

bool ok(CUptiResult result, const char* what) {
  return kerntime_bench::cupti_ok(result, "bare CUPTI injection", what);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  if (!ok(cuptiSubscribe(&subscriber, &no_callback, nullptr), "cuptiSubscribe")) return 1;
  if (!ok(cuptiActivityRegisterCallbacks(&requested, &completed), "register callbacks")) return 1;
  for (const CUpti_ActivityKind kind : kKinds)
    ok(cuptiActivityEnable(kind), "cuptiActivityEnable");
  cuptiActivityEnableDriverApi(kDriverKernelGetName, 0);
  std::atexit(&at_exit);
  return 1;
}
