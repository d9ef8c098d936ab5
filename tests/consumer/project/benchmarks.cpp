// SPDX-License-Identifier: Apache-2.0
// A user's benchmark program: the runner's main from the installed kerntime::main, with type
// axes, a template-id and a custom name, a per-sample setup, element counts and counters. Listed
// without a GPU by the consumer test (running it needs one).
#include <cstdint>

#include <kerntime/benchmark.hpp>
#include <kerntime/cuda_type_names.hpp>

namespace {

void nothing(kerntime::State& state) {
  state.skip("the consumer test only builds this program");
}

template <class T, int Width>
void copy(kerntime::State& state) {
  state.set_work({2.0 * sizeof(T) * Width, 0.0});
  state.add_element_count(Width);
  state.set_counter("width", Width);
  state.set_counter("vectors/s", 1.0, kerntime::CounterKind::rate);
  state.set_setup([](cudaStream_t) {});
  state.skip("copy of " + kerntime::type_name<T>::get() + " needs a GPU");
}

template <class T, class Block>
void sort(kerntime::State& state, kerntime::type_list<T, Block>) {
  state.skip("sort of " + kerntime::type_name<T>::get() + " in blocks of " +
             kerntime::type_name<Block>::get() + " needs a GPU");
}

}  // namespace

KERNTIME_BENCHMARK(nothing).add_int_axis("n", {1, 2});
KERNTIME_BENCHMARK(copy<float, 4>);
KERNTIME_BENCHMARK_NAMED("copy_half", copy<__half, 8>).add_pow2_axis("n", {10});
KERNTIME_BENCHMARK_TYPES(sort, kerntime::type_list<float, __half, std::int8_t>,
                         kerntime::value_list<128, 256>)
    .set_type_axes_names({"T", "Block"})
    .add_pow2_axis("n", {20, 24});
KERNTIME_BENCHMARK_MAIN()
