// SPDX-License-Identifier: Apache-2.0
#include "events/event_pool.hpp"

#include <string>

#include <kerntime/error.hpp>

#include "cuda/cuda_check.hpp"
#include "cuda/device_guard.hpp"

namespace kerntime::events {

int device_of(cudaStream_t stream) {
  int device = 0;
  // The default streams (legacy, per-thread, or 0, which is one of them) belong to the current
  // device: the runtime keeps it per thread, so no call reaches the driver. PyTorch's current
  // stream is one of them unless the program made another current.
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) {
    cuda::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    return device;
  }
#if CUDART_VERSION >= 12080
  // Asking the stream is right even when another device is current on this thread.
  cuda::check_cuda(cudaStreamGetDevice(stream, &device), "cudaStreamGetDevice",
                   "The stream handed to kerntime is not a live CUDA stream.");
#else
  (void)stream;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
#endif
  return device;
}

EventPool::EventPool(int device, std::size_t pairs, bool completion_flags) : device_(device) {
  if (pairs == 0 || pairs > (1u << 24)) {
    throw Error("SessionOptions::event_pairs_per_device is " + std::to_string(pairs) +
                "; choose between 1 and 16777216 (the default 1024 suits most programs)");
  }
  starts_.reserve(pairs);
  stops_.reserve(pairs);
  free_.reserve(pairs);
  closed_.resize(pairs);
  cuda::DeviceGuard guard{device};
  completion_ = std::make_unique<cuda::CompletionFlags>(completion_flags ? pairs : 0);  // 0: none
  try {
    for (std::size_t i = 0; i < pairs; ++i) {
      cudaEvent_t start = nullptr;
      cudaEvent_t stop = nullptr;
      cuda::check_cuda(cudaEventCreate(&start), "cudaEventCreate");
      starts_.push_back(start);
      cuda::check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
      stops_.push_back(stop);
    }
  } catch (...) {
    for (cudaEvent_t e : starts_)
      cudaEventDestroy(e);
    for (cudaEvent_t e : stops_)
      cudaEventDestroy(e);
    throw;
  }
  // Hand out low slots first so that a small workload touches few events.
  for (std::size_t i = pairs; i-- > 0;)
    free_.push_back(static_cast<std::uint32_t>(i));
}

EventPool::~EventPool() {
  // Destroying a recorded event that has not completed is allowed: CUDA releases it later.
  // Errors are ignored: this may run while CUDA is shutting down.
  int previous = -1;
  const bool switched = cudaGetDevice(&previous) == cudaSuccess && previous != device_ &&
                        cudaSetDevice(device_) == cudaSuccess;
  for (cudaEvent_t e : starts_)
    cudaEventDestroy(e);
  for (cudaEvent_t e : stops_)
    cudaEventDestroy(e);
  if (switched) cudaSetDevice(previous);
}

bool EventPool::try_acquire(std::uint32_t& slot) {
  if (free_.empty()) return false;
  slot = free_.back();
  free_.pop_back();
  return true;
}

void EventPool::close(std::uint32_t slot, std::uint32_t region) {
  const std::size_t tail = (closed_head_ + closed_count_) % closed_.size();
  closed_[tail] = ClosedTimer{slot, region};
  ++closed_count_;
}

void EventPool::retire_oldest() {
  free_.push_back(closed_[closed_head_].slot);
  closed_head_ = (closed_head_ + 1) % closed_.size();
  --closed_count_;
}

}  // namespace kerntime::events
