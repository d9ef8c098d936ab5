// SPDX-License-Identifier: Apache-2.0
// A program for the reference reader's GPU test: known numbers of known kernels, launched in
// the ways that matter to the reader (runtime and driver API, a CUDA graph), then ended in the
// ways that matter to it (return from main, _exit after each kind of synchronize, a fork child).
//
//   reference_target MODE N
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda.h>
#include <cuda_runtime.h>

__global__ void reference_target_alpha(float* data) {
  if (threadIdx.x == 0) data[blockIdx.x] += 1.0f;
}
__global__ void reference_target_beta(float* data) {
  if (threadIdx.x == 0) data[blockIdx.x] *= 2.0f;
}
extern "C" __global__ void reference_target_driver(float* data) {
  if (threadIdx.x == 0) data[0] -= 1.0f;
}

namespace {

#define CHECK(call)                                                                           \
  do {                                                                                        \
    const cudaError_t status_ = (call);                                                       \
    if (status_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "reference_target: %s: %s\n", #call, cudaGetErrorString(status_)); \
      std::exit(90);                                                                          \
    }                                                                                         \
  } while (0)

float* buffer() {
  float* data = nullptr;
  CHECK(cudaMalloc(&data, 64 * sizeof(float)));
  CHECK(cudaMemset(data, 0, 64 * sizeof(float)));
  return data;
}

// alpha x n, beta x 2n on `stream`.
void launch(int n, cudaStream_t stream) {
  float* data = buffer();
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) {
    reference_target_alpha<<<2, 32, 0, stream>>>(data);
    reference_target_beta<<<2, 32, 0, stream>>>(data);
    reference_target_beta<<<2, 32, 0, stream>>>(data);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const int n = argc > 2 ? std::atoi(argv[2]) : 10;
  if (mode == "launch") {  // alpha x n, beta x 2n, synchronized, return from main
    launch(n, nullptr);
    CHECK(cudaDeviceSynchronize());
  } else if (mode == "driver") {  // reference_target_driver x n through cuLaunchKernel
    float* data = buffer();
    cudaFunction_t function = nullptr;
    CHECK(cudaGetFuncBySymbol(&function, reinterpret_cast<const void*>(&reference_target_driver)));
    void* args[] = {&data};
    for (int i = 0; i < n; ++i) {
      if (cuLaunchKernel(reinterpret_cast<CUfunction>(function), 1, 1, 1, 32, 1, 1, 0, nullptr,
                         args, nullptr) != CUDA_SUCCESS)
        return 91;
    }
    if (cuCtxSynchronize() != CUDA_SUCCESS) return 91;
  } else if (mode == "graph") {  // a graph of alpha, beta, beta replayed n times
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    float* data = buffer();
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    reference_target_alpha<<<2, 32, 0, stream>>>(data);
    reference_target_beta<<<2, 32, 0, stream>>>(data);
    reference_target_beta<<<2, 32, 0, stream>>>(data);
    CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < n; ++i)
      CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
  } else if (mode == "stream_exit") {  // launch on a stream, cudaStreamSynchronize, _exit(3)
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    launch(n, stream);
    CHECK(cudaStreamSynchronize(stream));
    _exit(3);
  } else if (mode == "event_exit") {  // launch, cudaEventSynchronize, _exit(4)
    cudaEvent_t done;
    CHECK(cudaEventCreate(&done));
    launch(n, nullptr);
    CHECK(cudaEventRecord(done, nullptr));
    CHECK(cudaEventSynchronize(done));
    _exit(4);
  } else if (mode == "device_exit") {  // launch, cudaDeviceSynchronize, _Exit(5)
    launch(n, nullptr);
    CHECK(cudaDeviceSynchronize());
    _Exit(5);
  } else if (mode == "ctx_exit") {  // launch, cuCtxSynchronize, _exit(6)
    launch(n, nullptr);
    if (cuCtxSynchronize() != CUDA_SUCCESS) return 91;
    _exit(6);
  } else if (mode == "fork") {  // launch, synchronize, a fork child that calls exit(0)
    launch(n, nullptr);
    CHECK(cudaDeviceSynchronize());
    const pid_t child = fork();
    if (child == 0) std::exit(0);  // runs the inherited atexit handlers
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
      return 92;
    std::printf("child %d\n", static_cast<int>(child));
  } else {
    std::fprintf(stderr, "reference_target: unknown mode '%s'\n", mode.c_str());
    return 2;
  }
  return 0;
}
