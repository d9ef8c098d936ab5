// SPDX-License-Identifier: Apache-2.0
// A CUDA program that knows nothing of kerntime, for `kerntime run`'s GPU tests: it launches
// known numbers of known kernels in the ways real programs do (runtime API, driver API, a CUDA
// graph, inside NVTX ranges, between cudaProfilerStart and Stop), and can exit with a status,
// be killed (also while two threads keep launching), abort, fault, start another CUPTI client,
// or start copies of itself (also ones that launch nothing), so that the report can be checked
// exactly.
//
//   run_target MODE [N]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <pthread.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

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
__global__ void run_target_busy(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}
// PyTorch-like kernels for the `operators` mode: templates whose names run long.
template <int Variant>
struct run_target_elementwise_functor_with_a_name_as_long_as_pytorchs {
  __device__ float operator()(float x) const { return x * 0.5f + static_cast<float>(Variant); }
};
template <typename Functor, int Vectorized, typename Accumulator>
__global__ void run_target_vectorized_elementwise_kernel(Functor f, float* data) {
  if (data != nullptr)
    data[threadIdx.x] = f(data[threadIdx.x]) + static_cast<Accumulator>(Vectorized);
}
__global__ void run_target_fault(float* bad) {
  bad[threadIdx.x] = 1.0f;  // an address the program never allocated: an illegal access
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

// Inside NVTX range "transfer": n times a runtime memset, an asynchronous and a synchronous copy
// to the host and a driver memset (the copies a program makes through either API), then one copy
// captured into a graph and launched; before the range, buffer()'s memset.
void copies(int n) {
  float* data = buffer();
  float* host = nullptr;  // pinned: one copy record per copy, never a staged pair
  CHECK(cudaMallocHost(&host, 16 * sizeof(float)));
  nvtxRangePushA("transfer");
  for (int i = 0; i < n; ++i) {
    CHECK(cudaMemsetAsync(data, i, 4096 * sizeof(float)));
    CHECK(cudaMemcpyAsync(host, data, 16 * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(host, data, 16 * sizeof(float), cudaMemcpyDeviceToHost));
    if (cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(data), 7u, 4096, nullptr) != CUDA_SUCCESS) {
      std::fprintf(stderr, "run_target: cuMemsetD32Async failed\n");
      std::exit(90);
    }
  }
  // The 3D, array and 2D-memset calls, once each (their records carry the range too).
  cudaMemcpy3DParms copy3d{};
  copy3d.srcPtr = make_cudaPitchedPtr(data, 64 * sizeof(float), 64, 4);
  copy3d.dstPtr = make_cudaPitchedPtr(data + 2048, 64 * sizeof(float), 64, 4);
  copy3d.extent = make_cudaExtent(64 * sizeof(float), 4, 2);
  copy3d.kind = cudaMemcpyDeviceToDevice;
  CHECK(cudaMemcpy3DAsync(&copy3d));
  cudaArray_t array = nullptr;
  const cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  CHECK(cudaMallocArray(&array, &format, 16, 4));
  CHECK(cudaMemcpy2DToArrayAsync(array, 0, 0, data, 16 * sizeof(float), 16 * sizeof(float), 4,
                                 cudaMemcpyDeviceToDevice));
  CHECK(cudaMemset3DAsync(make_cudaPitchedPtr(data, 64 * sizeof(float), 64, 4), 0,
                          make_cudaExtent(64 * sizeof(float), 4, 2)));
  if (cuMemsetD2D32Async(reinterpret_cast<CUdeviceptr>(data), 64 * sizeof(float), 3u, 64, 4,
                         nullptr) != CUDA_SUCCESS) {
    std::fprintf(stderr, "run_target: cuMemsetD2D32Async failed\n");
    std::exit(90);
  }
  cudaStream_t side = nullptr;
  CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  CHECK(cudaStreamBeginCapture(side, cudaStreamCaptureModeThreadLocal));
  CHECK(cudaMemcpyAsync(host, data, 16 * sizeof(float), cudaMemcpyDeviceToHost, side));
  CHECK(cudaStreamEndCapture(side, &graph));
  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, side));
  CHECK(cudaStreamSynchronize(side));
  nvtxRangePop();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(side));
  CHECK(cudaFreeArray(array));
  CHECK(cudaFreeHost(host));
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

// alpha x n, synchronized, then beta once, not waited for: the last kernel launched.
float* then_beta(int n) {
  float* data = buffer();
  for (int i = 0; i < n; ++i)
    run_target_alpha<<<4, 32>>>(data);
  CHECK(cudaDeviceSynchronize());
  run_target_beta<<<4, 32>>>(data);
  return data;
}

// alpha x n, synchronized, then a kernel that writes where nothing was allocated: the
// synchronization after it fails, and the program gives up the way an assert on a CUDA error
// does.
[[noreturn]] void fault_then_abort(int n) {
  float* data = buffer();
  for (int i = 0; i < n; ++i)
    run_target_alpha<<<4, 32>>>(data);
  CHECK(cudaDeviceSynchronize());
  run_target_fault<<<1, 32>>>(reinterpret_cast<float*>(std::uintptr_t{0x10}));
  const cudaError_t status = cudaDeviceSynchronize();
  std::fprintf(stderr, "run_target: after run_target_fault: %s\n", cudaGetErrorString(status));
  std::abort();
}

// alpha x n, then another CUPTI activity client (the library at `client`) starts, as a program
// starting torch.profiler does, then beta x n.
int other_client(int n, const char* client) {
  float* data = buffer();
  for (int i = 0; i < n; ++i)
    run_target_alpha<<<1, 32>>>(data);
  CHECK(cudaDeviceSynchronize());
  void* library = dlopen(client, RTLD_NOW | RTLD_LOCAL);
  using Start = int (*)();
  using Records = unsigned long long (*)();
  auto start =
      library != nullptr ? reinterpret_cast<Start>(dlsym(library, "other_client_start")) : nullptr;
  auto records = library != nullptr
                     ? reinterpret_cast<Records>(dlsym(library, "other_client_kernel_records"))
                     : nullptr;
  if (start == nullptr || records == nullptr || start() != 1) {
    std::fprintf(stderr, "run_target: cannot start the CUPTI client %s\n", client);
    return 95;
  }
  for (int i = 0; i < n; ++i)
    run_target_beta<<<1, 32>>>(data);
  CHECK(cudaDeviceSynchronize());
  std::printf("other client kernel records: %llu\n", records());
  return 0;
}

// Two threads launching 10 us kernels on their own streams, in steps of ten inside the NVTX
// range "step", without end; the main thread waits for a signal. The launching threads block
// the terminating signals, so a SIGTERM lands on the main thread while they keep launching: the
// way PyTorch's autograd thread goes on launching a step's backward pass when the main thread
// is stopped. Prints "ready" after the first steps.
[[noreturn]] void busy() {
  sigset_t terminating;
  sigemptyset(&terminating);
  for (const int signal : {SIGTERM, SIGINT, SIGHUP})
    sigaddset(&terminating, signal);
  std::atomic<int> steps{0};
  auto launch = [&] {
    pthread_sigmask(SIG_BLOCK, &terminating, nullptr);
    cudaStream_t stream = nullptr;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (;;) {
      nvtxRangePushA("step");
      for (int i = 0; i < 10; ++i)
        run_target_busy<<<1, 32, 0, stream>>>(20'000);
      nvtxRangePop();
      ++steps;
    }
  };
  std::thread first{launch};
  std::thread second{launch};
  while (steps.load() < 40)
    usleep(1000);
  std::printf("ready\n");
  std::fflush(stdout);
  for (;;)
    pause();
}

// Two child processes that start CUDA and launch nothing (the way torch.compile's workers
// do), then basic(n) in this one.
int with_idle_helpers(const char* self, int n) {
  for (int i = 0; i < 2; ++i) {
    if (fork() == 0) {
      execl(self, self, "idle", "0", static_cast<char*>(nullptr));
      _exit(92);
    }
  }
  int status = 0;
  while (wait(&status) > 0) {
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 93;
  }
  basic(n);
  return 0;
}

// alpha x n inside the range "work" of the NVTX domain "run_target_domain".
void nvtx_domain(int n) {
  float* data = buffer();
  nvtxDomainHandle_t domain = nvtxDomainCreateA("run_target_domain");
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "work";
  nvtxDomainRangePushEx(domain, &attributes);
  for (int i = 0; i < n; ++i)
    run_target_alpha<<<1, 32>>>(data);
  nvtxDomainRangePop(domain);
  CHECK(cudaDeviceSynchronize());
}

}  // namespace

template <int Variant>
void launch_operator(float* data, cudaStream_t stream) {
  run_target_vectorized_elementwise_kernel<
      run_target_elementwise_functor_with_a_name_as_long_as_pytorchs<Variant>, 4, double>
      <<<1, 32, 0, stream>>>({}, data);
}

// N steps of 120 operators made as PyTorch makes them: each asks for the device twice, the last
// error and whether the stream is capturing, then launches one of 8 kernels with long template
// names; steps in NVTX ranges step > forward, backward, optimizer of 40 operators each. The
// launch cost of docs/run.md on what real programs call, not only launches: the figure is the
// median of the steps' host time per operator (the GPU runs each kernel faster than the host
// launches it, so the queue never fills).
int operators(int steps) {
  constexpr int kPerRange = 40;
  if (steps <= 0) {
    std::fprintf(stderr, "run_target: operators needs N > 0 steps\n");
    return 2;
  }
  float* data = nullptr;
  CHECK(cudaMalloc(&data, 32 * sizeof(float)));
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  void (*const launches[])(float*, cudaStream_t) = {
      &launch_operator<0>, &launch_operator<1>, &launch_operator<2>, &launch_operator<3>,
      &launch_operator<4>, &launch_operator<5>, &launch_operator<6>, &launch_operator<7>};
  int op = 0;
  const auto one = [&] {
    int device = -1;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaGetDevice(&device));
    CHECK(cudaGetLastError());
    cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
    CHECK(cudaStreamIsCapturing(stream, &capturing));
    launches[op++ % 8](data, stream);
  };
  std::vector<double> per_operator;
  per_operator.reserve(static_cast<std::size_t>(steps));
  for (int step = -5; step < steps; ++step) {  // 5 steps of warm-up
    const auto begin = std::chrono::steady_clock::now();
    nvtxRangePushA("step");
    for (const char* part : {"forward", "backward", "optimizer"}) {
      nvtxRangePushA(part);
      for (int i = 0; i < kPerRange; ++i)
        one();
      nvtxRangePop();
    }
    nvtxRangePop();
    const auto end = std::chrono::steady_clock::now();
    if (step >= 0) {
      per_operator.push_back(std::chrono::duration<double, std::micro>(end - begin).count() /
                             (3 * kPerRange));
    }
  }
  CHECK(cudaStreamSynchronize(stream));
  std::nth_element(per_operator.begin(), per_operator.begin() + per_operator.size() / 2,
                   per_operator.end());
  std::printf("host time per launch: %.3f us\n", per_operator[per_operator.size() / 2]);
  return 0;
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "basic";
  const int n = argc > 2 ? std::atoi(argv[2]) : 100;  // up to 2^31 - 1
  if (mode == "basic") {
    basic(n);
  } else if (mode == "driver") {
    driver(n);
  } else if (mode == "copies") {
    copies(n);
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
    // Batches of 200 launches, the GPU drained between them outside the timed window (as
    // trace_bench does): the host never waits for a full launch queue, so the time is the
    // launch's host cost, not the GPU's pace. The figure is the median of the batch means.
    constexpr int kBatch = 200;
    if (n <= 0) {
      std::fprintf(stderr, "run_target: empty needs N > 0 launches\n");
      return 2;
    }
    run_target_empty<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    std::vector<double> batch_means;
    batch_means.reserve(static_cast<std::size_t>(n / kBatch + 1));
    for (int done = 0; done < n;) {
      const int count = std::min(kBatch, n - done);
      const auto begin = std::chrono::steady_clock::now();
      for (int i = 0; i < count; ++i)
        run_target_empty<<<1, 1>>>();
      const auto end = std::chrono::steady_clock::now();
      CHECK(cudaDeviceSynchronize());
      batch_means.push_back(std::chrono::duration<double, std::micro>(end - begin).count() / count);
      done += count;
    }
    std::nth_element(batch_means.begin(), batch_means.begin() + batch_means.size() / 2,
                     batch_means.end());
    std::printf("host time per launch: %.3f us\n", batch_means[batch_means.size() / 2]);
  } else if (mode == "operators") {
    return operators(n);
  } else if (mode == "none") {  // no CUDA at all
    return 0;
  } else if (mode == "idle") {  // CUDA started, no work, exit status n
    CHECK(cudaFree(nullptr));
    return n;
  } else if (mode == "abort") {  // then_beta, then std::abort()
    then_beta(n);
    std::abort();
  } else if (mode == "fault") {
    fault_then_abort(n);
  } else if (mode == "segv") {  // then_beta, then an invalid host memory access
    then_beta(n);
    volatile std::uintptr_t address = 8;  // the compiler cannot know it is unmapped
    *reinterpret_cast<volatile int*>(address) = 1;
    return 96;
  } else if (mode == "other_client") {  // run_target other_client N LIBRARY
    return other_client(n, argc > 3 ? argv[3] : "");
  } else if (mode == "nvtx_domain") {
    nvtx_domain(n);
  } else if (mode == "busy") {
    busy();
  } else if (mode == "with_idle_helpers") {
    return with_idle_helpers(argv[0], n);
  } else {
    std::fprintf(stderr, "run_target: unknown mode %s\n", mode.c_str());
    return 2;
  }
  return 0;
}
