// SPDX-License-Identifier: Apache-2.0
// A program that traces itself with a kerntime::Tracer (libkerntime.so), for `kerntime run`'s
// test of two kerntime CUPTI clients in one process: the Tracer starts before CUDA does
// ("before") or after ("after"), then n spin kernels run. It prints what its Tracer saw.
//
//   tracer_target before|after N
#include <cstdio>
#include <cstdlib>
#include <string>

#include <cuda_runtime_api.h>

#include <kerntime/tracer.hpp>

#include "kernels/spin.hpp"

int main(int argc, char** argv) {
  const std::string order = argc > 1 ? argv[1] : "after";
  const int n = argc > 2 ? std::atoi(argv[2]) : 20;
  if (order == "after" && cudaFree(nullptr) != cudaSuccess) return 90;
  kerntime::Tracer tracer;
  for (int i = 0; i < n; ++i)
    kerntime::samples::launch_spin(2'000, nullptr);
  if (cudaDeviceSynchronize() != cudaSuccess) return 91;
  tracer.flush();
  const kerntime::Trace trace = tracer.trace();
  const char* status = tracer.status() == kerntime::TracerStatus::active    ? "active"
                       : tracer.status() == kerntime::TracerStatus::starved ? "starved"
                       : tracer.status() == kerntime::TracerStatus::stopped ? "stopped"
                                                                            : "unavailable";
  std::printf("tracer %s, %zu kernels; %s\n", status, trace.kernels.size(),
              tracer.unavailable_reason().c_str());
  return 0;
}
