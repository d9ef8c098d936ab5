// SPDX-License-Identifier: Apache-2.0
#include "cuda/completion_flags.hpp"

#include <dlfcn.h>

#include <cuda.h>

namespace kerntime::cuda {
namespace {

using WriteValue32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

// From the libcuda the runtime already loaded (RTLD_NOLOAD): kerntime never links libcuda.
WriteValue32 write_value_32() {
  static const WriteValue32 function = [] {
    void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (handle == nullptr) return WriteValue32{nullptr};
    return reinterpret_cast<WriteValue32>(dlsym(handle, "cuStreamWriteValue32_v2"));
  }();
  return function;
}

}  // namespace

CompletionFlags::CompletionFlags(std::size_t count) {
  if (write_value_32() == nullptr || count == 0) return;
  void* host = nullptr;
  if (cudaHostAlloc(&host, count * sizeof(std::uint32_t), cudaHostAllocMapped) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  void* device = nullptr;
  if (cudaHostGetDevicePointer(&device, host, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    cudaFreeHost(host);
    return;
  }
  host_ = static_cast<volatile std::uint32_t*>(host);
  device_address_ = reinterpret_cast<std::uintptr_t>(device);
  for (std::size_t i = 0; i < count; ++i)
    host_[i] = 0;
}

CompletionFlags::~CompletionFlags() {
  // Errors are ignored: this may run while CUDA is shutting down, or after a fault.
  if (host_ != nullptr) cudaFreeHost(const_cast<std::uint32_t*>(host_));
}

void CompletionFlags::arm(std::uint32_t slot) {
  if (host_ != nullptr) host_[slot] = 0;
}

void CompletionFlags::mark(std::uint32_t slot, cudaStream_t stream) {
  if (host_ == nullptr) return;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess ||
      capture != cudaStreamCaptureStatusNone) {
    (void)cudaGetLastError();
    return;
  }
  // A failure costs only the diagnosis of a later fault; the scope's timing does not depend
  // on it, so it is not reported.
  write_value_32()(reinterpret_cast<CUstream>(stream),
                   static_cast<CUdeviceptr>(device_address_ + slot * sizeof(std::uint32_t)), 1,
                   CU_STREAM_WRITE_VALUE_DEFAULT);
}

bool CompletionFlags::reached(std::uint32_t slot) const {
  return host_ != nullptr && host_[slot] != 0;
}

bool is_sticky_kernel_fault(cudaError_t error) {
  switch (error) {
    case cudaErrorIllegalAddress:
    case cudaErrorAssert:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorLaunchTimeout:
      return true;
    default:
      return false;
  }
}

}  // namespace kerntime::cuda
