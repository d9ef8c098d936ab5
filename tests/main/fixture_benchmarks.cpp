// SPDX-License-Identifier: Apache-2.0
// A small benchmark program for the runner's command-line tests: a GPU benchmark with an
// integer axis, one with a power-of-two axis and declared work, one of string and float axes
// that skips itself, and a templated one over type axes that skips itself too.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include <kerntime/benchmark.hpp>
#include <kerntime/error.hpp>

#include "kernels/device_copy.hpp"
#include "kernels/spin.hpp"

namespace {

void spin(kerntime::State& state) {
  const auto ns = static_cast<std::uint64_t>(state.get_int("ns"));
  state.run([ns](cudaStream_t stream) { kerntime::samples::launch_spin(ns, stream); });
}
KERNTIME_BENCHMARK(spin).add_int_axis("ns", {2000, 20000});

void copy(kerntime::State& state) {
  const auto bytes = static_cast<std::size_t>(state.get_int("bytes"));
  void* buffers = nullptr;
  if (cudaMalloc(&buffers, 2 * bytes) != cudaSuccess) throw kerntime::Error("cudaMalloc failed");
  char* src = static_cast<char*>(buffers);
  state.set_work({2.0 * static_cast<double>(bytes), 0.0});
  try {
    state.run([=](cudaStream_t stream) {
      kerntime::samples::launch_device_copy(src + bytes, src, bytes, stream);
    });
  } catch (...) {
    cudaFree(buffers);
    throw;
  }
  cudaFree(buffers);
}
KERNTIME_BENCHMARK(copy).add_pow2_axis("bytes", {20});

void tagged(kerntime::State& state) {
  state.skip("variant " + state.get_string("variant") + " is not implemented");
}
KERNTIME_BENCHMARK(tagged).add_string_axis("variant", {"a", "b"}).add_float_axis("f", {0.5});

template <class T>
void typed(kerntime::State& state, kerntime::type_list<T>) {
  state.skip("T=" + kerntime::type_name<T>::get() + " has " + std::to_string(sizeof(T)) + " bytes");
}
KERNTIME_BENCHMARK_TYPES(typed, kerntime::type_list<float, std::int8_t, double>)
    .add_pow2_axis("n", {10, 12});

}  // namespace

KERNTIME_BENCHMARK_MAIN()
