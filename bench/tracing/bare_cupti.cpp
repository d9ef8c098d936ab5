// SPDX-License-Identifier: Apache-2.0
#include "bare_cupti.hpp"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include <kerntime/error.hpp>

// kerntime's internal CUPTI interface: the baseline must reach CUPTI exactly the way the
// Tracer does (same library, same dlsym'ed functions), so the difference is kerntime alone.
#include "cupti/cupti_api.hpp"
#include "cupti/cupti_versions.hpp"

namespace trace_examples {
namespace {

// The same size as TracerOptions::buffer_bytes' default.
constexpr std::size_t kBufferBytes = std::size_t{8} << 20;

// CUPTI's buffer callbacks are plain functions, so their state is process-wide. A free list
// makes requests as cheap as kerntime's pool: the comparison is about what happens to records.
// The buffers live until the process ends: CUPTI may still hold some after it is released.
std::mutex free_mutex;
std::vector<std::uint8_t*> free_buffers;
std::atomic<std::uint64_t> delivered{0};

void CUPTIAPI requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  {
    std::lock_guard lock{free_mutex};
    if (!free_buffers.empty()) {
      *buffer = free_buffers.back();
      free_buffers.pop_back();
    } else {
      *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    }
  }
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                        std::size_t valid_bytes) {
  delivered.fetch_add(valid_bytes, std::memory_order_relaxed);
  std::lock_guard lock{free_mutex};
  free_buffers.push_back(buffer);
}

void need(kerntime::cupti::CuptiApi& api, CUptiResult result, const char* what) {
  if (result != CUPTI_SUCCESS) {
    throw kerntime::Error(std::string{"bare CUPTI baseline: "} + what +
                          " failed: " + api.describe(result));
  }
}

// A default kerntime::Tracer's kinds (activity_session.cpp), in the same order.
constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                         CUPTI_ACTIVITY_KIND_RUNTIME,
                                         CUPTI_ACTIVITY_KIND_DRIVER,
                                         CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
                                         CUPTI_ACTIVITY_KIND_MEMCPY,
                                         CUPTI_ACTIVITY_KIND_MEMCPY2,
                                         CUPTI_ACTIVITY_KIND_MEMSET,
                                         CUPTI_ACTIVITY_KIND_SYNCHRONIZATION};

}  // namespace

BareCupti::BareCupti() {
  std::string problem;
  api_ = kerntime::cupti::load_cupti_api(problem);
  if (api_ == nullptr) throw kerntime::Error("bare CUPTI baseline: " + problem);
  std::string holder;
  need(*api_, api_->subscribe("kerntime-bare-baseline", holder), "cuptiSubscribe");
  running_ = true;
  std::uint64_t now = 0;
  api_->timestamp(now);  // the Tracer reads one clock anchor too
  need(*api_, api_->register_callbacks(&requested, &completed), "cuptiActivityRegisterCallbacks");
  for (const CUpti_ActivityKind kind : kKinds)
    need(*api_, api_->enable(kind), "cuptiActivityEnable");
  api_->mute(CUPTI_ACTIVITY_KIND_DRIVER, kerntime::cupti::kDriverKernelGetName);
}

BareCupti::~BareCupti() {
  try {
    stop();
  } catch (...) {
    // A destructor reports nothing.
  }
}

void BareCupti::push(std::uint64_t id) {
  api_->push_external_id(id);
}

void BareCupti::pop() {
  std::uint64_t last = 0;
  api_->pop_external_id(last);
}

void BareCupti::stop() {
  if (!running_) return;
  running_ = false;
  // Synchronize before the forced flush, as the Tracer does: never flush work in flight.
  cudaDeviceSynchronize();
  api_->flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::size_t dropped = 0;
  if (api_->dropped_records(dropped) == CUPTI_SUCCESS) dropped_ += dropped;
  for (auto it = std::rbegin(kKinds); it != std::rend(kKinds); ++it)
    api_->disable(*it);
  api_->unsubscribe();
}

std::uint64_t BareCupti::delivered_bytes() const {
  return delivered.load();
}

}  // namespace trace_examples
