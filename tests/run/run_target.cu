// SPDX-License-Identifier: Apache-2.0
// A CUDA program that knows nothing of kerntime, for `kerntime run`'s GPU tests: it launches
// known numbers of known kernels in the ways real programs do (runtime API, driver API, a CUDA
// graph, inside NVTX ranges, between cudaProfilerStart and Stop), and can exit with a status,
// be killed, or start copies of itself, so that the report can be checked exactly.
//
//   run_target MODE [N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

__global__ void run_target_alpha(float* data) {
  if (data != nullptr && threadIdx.x == 0) data[blockIdx.x] += 1.0f;
}
__global__ void run_target_beta(float* data) {
  if (data != nullptr && threadIdx.x == 0) data[blockIdx.x] *= 2.0f;
}
__global__ void run_target_empty() {}
__global__ void run_target_graph_node(float* data, int node) {
  if (data != nullptr && threadIdx.x == 0) data[node] += 1.0f;
}
extern "C" __global__ void run_target_driver(float* data) {
  if (data != nullptr && threadIdx.x == 0) data[0] -= 1.0f;
}

namespace {

#define CHECK(call)                                                                     \
  do {                                                                                  \
    const cudaError_t status_ = (call);                                                 \
    if (status_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "run_target: %s: %s\n", #call, cudaGetErrorString(status_)); \
      std::exit(90);                                                                    \
    }                                                                                   \
  } while (0)

float* buffer() {
  float* data = nullptr;
  CHECK(cudaMalloc(&data, 4096 * sizeof(float)));
  CHECK(cudaMemset(data, 0, 4096 * sizeof(float)));
  return data;
}

// alpha x n, beta x 2n, inside NVTX ranges "outer" (once) and "step" (n times).
void basic(int n) {
  float* data = buffer();
  nvtxRangePushA("outer");
  for (int i = 0; i < n; ++i) {
    nvtxRangePushA("step");
    run_target_alpha<<<4, 32>>>(data);
    run_target_beta<<<4, 32>>>(data);
    run_target_beta<<<4, 32>>>(data);
    nvtxRangePop();
  }
  nvtxRangePop();
  CHECK(cudaDeviceSynchronize());
}

// run_target_driver x n through cuLaunchKernel.
void driver(int n) {
  float* data = buffer();
  cudaFunction_t function = nullptr;
  CHECK(cudaGetFuncBySymbol(&function, reinterpret_cast<const void*>(&run_target_driver)));
  void* args[] = {&data};
  for (int i = 0; i < n; ++i) {
    if (cuLaunchKernel(reinterpret_cast<CUfunction>(function), 1, 1, 1, 32, 1, 1, 0, nullptr, args,
                       nullptr) != CUDA_SUCCESS) {
      std::exit(91);
    }
  }
  CHECK(cudaDeviceSynchronize());
}

// A graph of 3 kernels, replayed n times: 3n run_target_graph_node kernels.
void graph(int n) {
  float* data = buffer();
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int node = 0; node < 3; ++node)
    run_target_graph_node<<<1, 32, 0, stream>>>(data, node);
  CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < n; ++i)
    CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
}

// alpha x n outside, beta x n between cudaProfilerStart and Stop, alpha x n outside again.
void profiler(int n) {
  float* data = buffer();
  for (int i = 0; i < n; ++i)
    run_target_alpha<<<1, 32>>>(data);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaProfilerStart());
  for (int i = 0; i < n; ++i)
    run_target_beta<<<1, 32>>>(data);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaProfilerStop());
  for (int i = 0; i < n; ++i)
    run_target_alpha<<<1, 32>>>(data);
  CHECK(cudaDeviceSynchronize());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "basic";
  const int n = argc > 2 ? std::atoi(argv[2]) : 100;  // up to 2^31 - 1
  if (mode == "basic") {
    basic(n);
  } else if (mode == "driver") {
    driver(n);
  } else if (mode == "graph") {
    graph(n);
  } else if (mode == "profiler") {
    profiler(n);
  } else if (mode == "nvtx") {  // alpha x n, beta x n inside NVTX range "capture", alpha x n
    float* data = buffer();
    for (int i = 0; i < n; ++i)
      run_target_alpha<<<1, 32>>>(data);
    CHECK(cudaDeviceSynchronize());
    nvtxRangePushA("capture");
    for (int i = 0; i < n; ++i)
      run_target_beta<<<1, 32>>>(data);
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();
    for (int i = 0; i < n; ++i)
      run_target_alpha<<<1, 32>>>(data);
    CHECK(cudaDeviceSynchronize());
  } else if (mode == "status") {  // basic, then exit with status n
    basic(10);
    return n;
  } else if (mode == "killed") {  // basic, then wait to be killed with SIGTERM
    basic(n);
    std::printf("ready\n");
    std::fflush(stdout);
    sleep(60);
  } else if (mode == "children") {  // n copies of `basic 50`, one process each
    for (int i = 0; i < n; ++i) {
      if (fork() == 0) {
        execl(argv[0], argv[0], "basic", "50", static_cast<char*>(nullptr));
        _exit(92);
      }
    }
    int status = 0;
    while (wait(&status) > 0) {
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 93;
    }
  } else if (mode == "empty") {  // n empty kernels: the launch cost and the memory bound
    run_target_empty<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
      run_target_empty<<<1, 1>>>();
    const auto end = std::chrono::steady_clock::now();
    CHECK(cudaDeviceSynchronize());
    std::printf("host time per launch: %.3f us\n",
                std::chrono::duration<double, std::micro>(end - begin).count() / n);
  } else if (mode == "none") {  // no CUDA at all
    return 0;
  } else {
    std::fprintf(stderr, "run_target: unknown mode %s\n", mode.c_str());
    return 2;
  }
  return 0;
}
