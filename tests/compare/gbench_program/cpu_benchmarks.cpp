// SPDX-License-Identifier: Apache-2.0
// A real Google Benchmark program (CPU only), for the gate's tests of Google Benchmark files:
// compute-bound loops whose times are stable from one process to the next, with the figures
// Google Benchmark writes beside the time (iterations, cpu_time, a rate and a user counter).
#include <benchmark/benchmark.h>
#include <cstdint>
#include <vector>

namespace {

void BM_sum(benchmark::State& state) {
  const std::vector<double> values(static_cast<std::size_t>(state.range(0)), 1.0);
  for (auto _ : state) {
    double sum = 0.0;
    for (const double v : values)
      sum += v;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.counters["elements"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_sum)->Arg(1 << 10)->Arg(1 << 14);

void BM_xorshift(benchmark::State& state) {
  std::uint64_t x = 88172645463325252ULL;
  for (auto _ : state) {
    for (int i = 0; i < 256; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    benchmark::DoNotOptimize(x);
  }
  state.counters["rounds"] =
      benchmark::Counter(256.0, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_xorshift);

}  // namespace

BENCHMARK_MAIN();
