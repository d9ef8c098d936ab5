// SPDX-License-Identifier: Apache-2.0
#include "bench/device_resources.hpp"

#include <atomic>
#include <cstring>
#include <string>

#include <kerntime/gpu_status.hpp>

#include "cuda/cuda_check.hpp"

namespace kerntime::bench {

using cuda::check_cuda;

DeviceResources::DeviceResources(int device)
    : device_(device),
      info_(query_device(device)),
      key_(bench::fixed_cost_key(device)),
      power_(device) {
  try {
    int l2 = 0;
    cuda::check_cuda(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device),
                     "cudaDeviceGetAttribute(L2 cache size)");
    l2_bytes_ = static_cast<std::size_t>(l2);
    // Two one-warp blocks per multiprocessor, so that one lands on the blocking kernel's.
    clock_blocks_ = static_cast<unsigned>(
        2 * (info_.multiprocessor_count > 0 ? info_.multiprocessor_count : 1));
    cuda::check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
                     "cudaStreamCreateWithFlags (benchmark stream)");
    for (unsigned i = 0; i < kSlots; ++i) {
      cuda::check_cuda(cudaEventCreate(&start_[i]), "cudaEventCreate (benchmark start event)");
      cuda::check_cuda(cudaEventCreate(&stop_[i]), "cudaEventCreate (benchmark stop event)");
      cuda::check_cuda(cudaEventCreateWithFlags(&done_[i], cudaEventDisableTiming),
                       "cudaEventCreateWithFlags (benchmark done event)");
    }
    void* host = nullptr;
    cuda::check_cuda(cudaHostAlloc(&host, sizeof(HostControl), cudaHostAllocMapped),
                     "cudaHostAlloc (blocking-kernel control block)",
                     "The blocking kernel needs a few hundred bytes of mapped pinned host memory.");
    std::memset(host, 0, sizeof(HostControl));
    host_ = static_cast<HostControl*>(host);
    void* mapped = nullptr;
    cuda::check_cuda(cudaHostGetDevicePointer(&mapped, host, 0), "cudaHostGetDevicePointer");
    mapped_ = static_cast<HostControl*>(mapped);
    void* starts = nullptr;
    cuda::check_cuda(cudaMalloc(&starts, sizeof(StartReading) * kSlots),
                     "cudaMalloc (clock readings)");
    check_cuda(cudaMemset(starts, 0, sizeof(StartReading) * kSlots), "cudaMemset");
    starts_ = static_cast<StartReading*>(starts);
  } catch (...) {
    free_all();
    throw;
  }
}

void DeviceResources::load_engine_kernels() {
  if (kernels_loaded_) return;
  // With nothing held: this sequence number is released before its blocking kernel runs.
  const std::uint64_t seq = next_seq();
  release(seq);
  cuda::check_cuda(launch_blocking_kernel(mapped_, starts_, seq, 0, 0, stream_),
                   "launching the blocking kernel");
  cuda::check_cuda(launch_clock_check(mapped_, starts_, seq, clock_blocks_, stream_),
                   "launching the clock check kernel");
  cuda::check_cuda(launch_floor_kernel(stream_), "launching the floor kernel");
  cuda::check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (engine warm-up)");
  kernels_loaded_ = true;
}

DeviceResources::~DeviceResources() {
  free_all();
}

void DeviceResources::free_all() noexcept {
  if (stream_ != nullptr) {
    release_issued();  // lets any blocking kernel still waiting go
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }
  for (unsigned i = 0; i < kSlots; ++i) {
    if (start_[i] != nullptr) cudaEventDestroy(start_[i]);
    if (stop_[i] != nullptr) cudaEventDestroy(stop_[i]);
    if (done_[i] != nullptr) cudaEventDestroy(done_[i]);
    start_[i] = stop_[i] = done_[i] = nullptr;
  }
  if (flush_ != nullptr) cudaFree(flush_);
  if (starts_ != nullptr) cudaFree(starts_);
  if (host_ != nullptr) cudaFreeHost(host_);
  flush_ = nullptr;
  starts_ = nullptr;
  host_ = nullptr;
}

void* DeviceResources::flush_buffer() {
  if (flush_ == nullptr && l2_bytes_ > 0) {
    cuda::check_cuda(
        cudaMalloc(&flush_, l2_bytes_), "cudaMalloc (L2 flush buffer)",
        "The L2 flush needs one buffer of the L2's size; free memory or turn the flush off "
        "(MeasureOptions::l2_flush, --no-l2-flush).");
  }
  return flush_;
}

void DeviceResources::release(std::uint64_t seq) {
  if (host_ == nullptr) return;
  // The GPU polls this through the mapping; the fence orders the store after every launch
  // this thread made before it.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *static_cast<volatile std::uint64_t*>(&host_->release) = seq;
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

SlotReport DeviceResources::report(std::uint64_t seq) const {
  const volatile SlotReport& slot = host_->reports[seq % kSlots];
  return SlotReport{slot.timed_out_seq, slot.clock_seq, slot.cycles, slot.ns};
}

}  // namespace kerntime::bench
