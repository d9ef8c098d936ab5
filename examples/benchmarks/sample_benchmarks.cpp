// SPDX-License-Identifier: Apache-2.0
// The sample benchmark suite: every kernel in kernels/ over sizes from launch-bound to
// bandwidth-bound, with its work declared so that the results show GB/s, TFLOP/s and the share
// of the GPU's peak bandwidth. The suite a new user runs first, and CI's regression baseline:
//
//     sample_benchmarks                          # everything, cold, a table
//     sample_benchmarks --filter saxpy --axis n=2^26 -o saxpy.json
//     sample_benchmarks -b segment_sort -a T=[float,int8] -a 'n[pow2]=[20:24:2]'
//     kerntime compare baseline.json saxpy.json
#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include <kerntime/benchmark.hpp>
#include <kerntime/cuda_type_names.hpp>
#include <kerntime/gpu_status.hpp>

#include "device_buffer.hpp"
#include "kernels/samples.hpp"

namespace {

namespace samples = kerntime::samples;
using kerntime::examples::DeviceBuffer;

std::size_t size_axis(const kerntime::State& state, const char* axis) {
  return static_cast<std::size_t>(state.get_int(axis));
}

// Kernels of known length: the engine's accuracy from launch-bound to long.
void spin(kerntime::State& state) {
  const auto ns = static_cast<std::uint64_t>(state.get_int("ns"));
  state.run([ns](cudaStream_t s) { samples::launch_spin(ns, s); });
}
KERNTIME_BENCHMARK(spin).add_int_axis("ns", {2'000, 10'000, 100'000, 1'000'000});

// What any launch costs on the GPU.
void empty(kerntime::State& state) {
  state.run([](cudaStream_t s) { samples::launch_empty(s); });
}
KERNTIME_BENCHMARK(empty);

void device_copy(kerntime::State& state) {
  const std::size_t bytes = size_axis(state, "bytes");
  const DeviceBuffer src{bytes};
  const DeviceBuffer dst{bytes};
  state.set_work({static_cast<double>(samples::device_copy_bytes(bytes)), 0.0});
  state.run([&](cudaStream_t s) {
    samples::launch_device_copy(dst.as<void>(), src.as<void>(), bytes, s);
  });
}
// 1 MiB sits in the L2 (hence the flush), 64 MiB is just above it, 1 GiB is DRAM-bound.
KERNTIME_BENCHMARK(device_copy).add_pow2_axis("bytes", {20, 26, 30});

void saxpy(kerntime::State& state) {
  const std::size_t n = size_axis(state, "n");
  const DeviceBuffer x{n * sizeof(float)};
  const DeviceBuffer y{n * sizeof(float)};
  state.set_work(
      {static_cast<double>(samples::saxpy_bytes(n)), static_cast<double>(samples::saxpy_flops(n))});
  state.add_element_count(static_cast<double>(n));
  state.run(
      [&](cudaStream_t s) { samples::launch_saxpy(n, 2.0f, x.as<float>(), y.as<float>(), s); });
}
KERNTIME_BENCHMARK(saxpy).add_pow2_axis("n", {20, 24});

void vector_add(kerntime::State& state) {
  const std::size_t n = size_axis(state, "n");
  const DeviceBuffer a{n * sizeof(float)};
  const DeviceBuffer b{n * sizeof(float)};
  const DeviceBuffer c{n * sizeof(float)};
  state.set_work({static_cast<double>(samples::vector_add_bytes(n)),
                  static_cast<double>(samples::vector_add_flops(n))});
  state.add_element_count(static_cast<double>(n));
  state.run([&](cudaStream_t s) {
    samples::launch_vector_add(n, a.as<float>(), b.as<float>(), c.as<float>(), s);
  });
}
KERNTIME_BENCHMARK(vector_add).add_pow2_axis("n", {20, 24});

void reduce_sum(kerntime::State& state) {
  const std::size_t n = size_axis(state, "n");
  const DeviceBuffer x{n * sizeof(float)};
  const DeviceBuffer result{sizeof(float)};
  state.set_work({static_cast<double>(samples::reduce_sum_bytes(n)),
                  static_cast<double>(samples::reduce_sum_flops(n))});
  state.add_element_count(static_cast<double>(n));
  state.run(
      [&](cudaStream_t s) { samples::launch_reduce_sum(n, x.as<float>(), result.as<float>(), s); });
}
KERNTIME_BENCHMARK(reduce_sum).add_pow2_axis("n", {20, 24});

// Square matrices: the same bytes moved, very different times, naive against tiled.
void transpose(kerntime::State& state) {
  const std::size_t side = size_axis(state, "side");
  const bool tiled = state.get_string("variant") == "tiled";
  const DeviceBuffer in{side * side * sizeof(float)};
  const DeviceBuffer out{side * side * sizeof(float)};
  state.set_work({static_cast<double>(samples::transpose_bytes(side, side)), 0.0});
  state.run([&](cudaStream_t s) {
    if (tiled) {
      samples::launch_transpose_tiled(side, side, in.as<float>(), out.as<float>(), s);
    } else {
      samples::launch_transpose_naive(side, side, in.as<float>(), out.as<float>(), s);
    }
  });
}
KERNTIME_BENCHMARK(transpose)
    .add_string_axis("variant", {"naive", "tiled"})
    .add_int_axis("side", {1024, 4096});

void sgemm(kerntime::State& state) {
  const std::size_t n = size_axis(state, "n");
  const bool tiled = state.get_string("variant") == "tiled";
  const DeviceBuffer a{n * n * sizeof(float)};
  const DeviceBuffer b{n * n * sizeof(float)};
  const DeviceBuffer c{n * n * sizeof(float)};
  state.set_work({static_cast<double>(samples::sgemm_bytes(n, n, n)),
                  static_cast<double>(samples::sgemm_flops(n, n, n))});
  state.run([&](cudaStream_t s) {
    if (tiled) {
      samples::launch_sgemm_tiled(n, n, n, 1.0f, a.as<float>(), b.as<float>(), 0.0f, c.as<float>(),
                                  s);
    } else {
      samples::launch_sgemm_naive(n, n, n, 1.0f, a.as<float>(), b.as<float>(), 0.0f, c.as<float>(),
                                  s);
    }
  });
}
KERNTIME_BENCHMARK(sgemm)
    .add_string_axis("variant", {"naive", "tiled"})
    .add_int_axis("n", {512, 2048});

// An in-place sort over a type axis, whose time depends on its input: the setup restores the
// input before every sample, outside the timed window, so every sample sorts the same data (a
// random one, or an already sorted one, for the contrast).
template <class T>
T sample_value(std::mt19937& generator) {
  std::uniform_int_distribution<int> small{-128, 127};
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half(static_cast<float>(small(generator)) / 8.0f);
  } else if constexpr (std::is_same_v<T, float>) {
    return std::uniform_real_distribution<float>{-1.0f, 1.0f}(generator);
  } else {
    return static_cast<T>(small(generator));
  }
}

template <class T>
void segment_sort(kerntime::State& state, kerntime::type_list<T>) {
  const std::size_t n = size_axis(state, "n");
  const bool sorted = state.get_string("input") == "sorted";
  std::vector<T> values(n);
  std::mt19937 generator{1};
  for (T& v : values)
    v = sample_value<T>(generator);
  if (sorted) {
    const DeviceBuffer scratch{n * sizeof(T)};
    kerntime::check_cuda_call(
        cudaMemcpy(scratch.as<T>(), values.data(), n * sizeof(T), cudaMemcpyHostToDevice),
        "cudaMemcpy (segment_sort input)");
    samples::launch_segment_sort(scratch.as<T>(), n, nullptr);
    kerntime::check_cuda_call(
        cudaMemcpy(values.data(), scratch.as<T>(), n * sizeof(T), cudaMemcpyDeviceToHost),
        "cudaMemcpy (sorted segments)");
  }
  const DeviceBuffer input{n * sizeof(T)};
  const DeviceBuffer data{n * sizeof(T)};
  kerntime::check_cuda_call(
      cudaMemcpy(input.as<T>(), values.data(), n * sizeof(T), cudaMemcpyHostToDevice),
      "cudaMemcpy (segment_sort input)");
  state.set_work({static_cast<double>(samples::segment_sort_bytes(n, sizeof(T))), 0.0});
  state.add_element_count(static_cast<double>(n));
  state.set_counter("segments/s", static_cast<double>(n / samples::kSortSegment),
                    kerntime::CounterKind::rate);
  state.set_setup([&](cudaStream_t s) {
    kerntime::check_cuda_call(
        cudaMemcpyAsync(data.as<T>(), input.as<T>(), n * sizeof(T), cudaMemcpyDeviceToDevice, s),
        "cudaMemcpyAsync (restoring the input)");
  });
  state.run([&](cudaStream_t s) { samples::launch_segment_sort(data.as<T>(), n, s); });
}
KERNTIME_BENCHMARK_TYPES(segment_sort, kerntime::type_list<float, __half, std::int8_t>)
    .add_string_axis("input", {"random", "sorted"})
    .add_pow2_axis("n", {22});

}  // namespace

KERNTIME_BENCHMARK_MAIN()
