// SPDX-License-Identifier: Apache-2.0
// Another CUPTI activity client, as a tool loaded through CUDA_INJECTION64_PATH is: CUDA calls
// InitializeInjection when it starts, and the tool registers its own activity buffers and
// enables kernel records. The coexistence tests load it to show that kerntime never reports an
// empty trace without saying why. other_client_kernel_records() tells them what it received.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string_view>

#include <cupti.h>

namespace {

constexpr std::size_t kBufferBytes = std::size_t{1} << 20;
std::atomic<unsigned long long> kernel_records{0};
CUpti_SubscriberHandle subscriber = nullptr;

void CUPTIAPI ignore_callback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}
// A client that registers after another one may be handed that one's buffers, which CUPTI held
// when the registration changed (Kineto logs and skips them too): only its own are read and
// freed.
std::mutex buffers_mutex;
std::set<std::uint8_t*> own_buffers;

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
  std::lock_guard lock{buffers_mutex};
  if (*buffer != nullptr) own_buffers.insert(*buffer);
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                               std::size_t valid_bytes) {
  {
    std::lock_guard lock{buffers_mutex};
    if (own_buffers.erase(buffer) == 0) return;
  }
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) ++kernel_records;
  }
  std::free(buffer);
}

}  // namespace

extern "C" {

/// Registers this client's buffers and enables kernel records; 1 on success. The test calls it
/// directly for the client a program starts itself (as torch.profiler does).
__attribute__((visibility("default"))) int other_client_start() {
  if (cuptiActivityRegisterCallbacks(&buffer_requested, &buffer_completed) != CUPTI_SUCCESS) {
    return 0;
  }
  return cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS ? 1 : 0;
}

/// Kernel records this client received so far, after forcing CUPTI to hand them over.
__attribute__((visibility("default"))) unsigned long long other_client_kernel_records() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  return kernel_records.load();
}

/// CUDA's entry point for a library named by CUDA_INJECTION64_PATH. With
/// KERNTIME_OTHER_CLIENT_SUBSCRIBES=1 it also takes CUPTI's one subscription, as Nsight
/// Systems, Nsight Compute and compute-sanitizer do, so that no Tracer can start.
__attribute__((visibility("default"))) int InitializeInjection() {
  const char* subscribes = std::getenv("KERNTIME_OTHER_CLIENT_SUBSCRIBES");
  if (subscribes != nullptr && std::string_view{subscribes} == "1" &&
      cuptiSubscribe(&subscriber, &ignore_callback, nullptr) != CUPTI_SUCCESS) {
    return 0;
  }
  return other_client_start();
}

}  // extern "C"
