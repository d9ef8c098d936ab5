// SPDX-License-Identifier: Apache-2.0
#include "bare_cupti.hpp"

#include <atomic>
#include <cstdlib>
#include <string>

#include <cuda_runtime_api.h>

#include <kerntime/error.hpp>

// kerntime's internal CUPTI interface: the baseline must reach CUPTI exactly the way the
// Tracer does (same library, same dlsym'ed functions), so the difference is kerntime alone.
#include "../cupti_buffer_free_list.hpp"
#include "cupti/cupti_api.hpp"
#include "cupti/cupti_versions.hpp"

namespace trace_examples {
namespace {

// CUPTI's buffer callbacks are plain functions, so their state is process-wide.
kerntime_bench::CuptiBufferFreeList buffers;
std::atomic<std::uint64_t> delivered{0};

void CUPTIAPI requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  buffers.take(buffer, size, max_records);
}

void CUPTIAPI completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                        std::size_t valid_bytes) {
  delivered.fetch_add(valid_bytes, std::memory_order_relaxed);
  buffers.give_back(buffer);
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
