// SPDX-License-Identifier: Apache-2.0
// A benchmark program with a configuration whose kernel traps, between two that work: the
// runner must keep what finished, name the one that failed and exit 1. The runner takes them in
// the order of their names.
#include <cuda_runtime_api.h>

#include <kerntime/benchmark.hpp>

#include "faulting_kernels.hpp"
#include "kernels/spin.hpp"

namespace {

void first_spin(kerntime::State& state) {
  state.run([](cudaStream_t stream) { kerntime::samples::launch_spin(5'000, stream); });
}
KERNTIME_BENCHMARK(first_spin);

void second_trapping(kerntime::State& state) {
  state.run([](cudaStream_t stream) {
    kerntime::testing::launch_faulting_kernel(kerntime::testing::Fault::trap, stream);
  });
}
KERNTIME_BENCHMARK(second_trapping);

void third_spin(kerntime::State& state) {
  state.run([](cudaStream_t stream) { kerntime::samples::launch_spin(5'000, stream); });
}
KERNTIME_BENCHMARK(third_spin);

}  // namespace

KERNTIME_BENCHMARK_MAIN()
