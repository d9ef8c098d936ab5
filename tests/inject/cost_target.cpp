// SPDX-License-Identifier: Apache-2.0
// A CUDA program for the GPU tests of what `kerntime run` does to cost less, where the report
// could go wrong if it cut a corner:
//
//   cost_target modules ROUNDS LAUNCHES   load a module with kernel A, launch it, unload it; the
//                                         same with kernel B; ROUNDS times. A and B have names
//                                         of the same length, so CUPTI may give B's name the
//                                         memory A's had: kerntime reads a name pointer once
//                                         only between module unloads.
//   cost_target idle LAUNCHES SECONDS     launch kernel A, synchronize, sit idle, then SIGKILL
//                                         itself: checkpoints that find nothing new are skipped,
//                                         and the last one written must hold every kernel.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

#include <cuda.h>
#include <cuda_runtime.h>

namespace {

[[noreturn]] void fail(const char* what, int status) {
  std::fprintf(stderr, "cost_target: %s failed (%d)\n", what, status);
  std::exit(90);
}

void check(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) fail(what, static_cast<int>(result));
}

// 300 characters, as long as a short PyTorch kernel name; the last letter tells A from B.
std::string kernel_name(char which) {
  return "cost_target_kernel_" + std::string(280, 'x') + "_" + which;
}

std::string ptx(const std::string& name) {
  return ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry " + name +
         "()\n{\n\tret;\n}\n";
}

void launch_from_module(char which, int launches, bool unload) {
  const std::string name = kernel_name(which);
  const std::string text = ptx(name);
  CUmodule module = nullptr;
  check(cuModuleLoadData(&module, text.c_str()), "cuModuleLoadData");
  CUfunction function = nullptr;
  check(cuModuleGetFunction(&function, module, name.c_str()), "cuModuleGetFunction");
  for (int i = 0; i < launches; ++i) {
    check(cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr),
          "cuLaunchKernel");
  }
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  if (unload) check(cuModuleUnload(module), "cuModuleUnload");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const int first = argc > 2 ? std::atoi(argv[2]) : 0;
  const int second = argc > 3 ? std::atoi(argv[3]) : 0;
  if (const cudaError_t status = cudaFree(nullptr); status != cudaSuccess) {
    fail("cudaFree(nullptr)", static_cast<int>(status));
  }
  if (mode == "modules") {
    for (int round = 0; round < first; ++round) {
      launch_from_module('a', second, true);
      launch_from_module('b', second, true);
    }
    return 0;
  }
  if (mode == "idle") {
    launch_from_module('a', first, false);
    std::this_thread::sleep_for(std::chrono::seconds(second));
    // Not raise() or kill(): libkerntime_preload.so sees those and writes a final report. A
    // SIGKILL from outside is what the checkpoint is for, and the raw system call is one.
    syscall(SYS_kill, getpid(), SIGKILL);
    return 91;
  }
  std::fprintf(stderr, "usage: cost_target modules ROUNDS LAUNCHES | idle LAUNCHES SECONDS\n");
  return 2;
}
