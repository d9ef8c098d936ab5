// SPDX-License-Identifier: Apache-2.0
// A user's benchmark program: the runner's main from the installed kerntime::main. Built, not
// run (running it needs a GPU).
#include <kerntime/benchmark.hpp>

namespace {

void nothing(kerntime::State& state) {
  state.skip("the consumer test only builds this program");
}

}  // namespace

KERNTIME_BENCHMARK(nothing).add_int_axis("n", {1, 2});
KERNTIME_BENCHMARK_MAIN()
