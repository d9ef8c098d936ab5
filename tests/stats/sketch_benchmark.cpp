// SPDX-License-Identifier: Apache-2.0
// The figures of docs/run.md ("Per-kernel statistics in bounded memory"): the host cost of one
// add, merge and quantile, and the memory of 10 million launches over many kernel names. Not a
// test (timings belong to no pass/fail rule); run it on an idle machine from a Release build:
//   build/default/tests/stats/sketch_benchmark [launches] [names]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sys/resource.h>
#include <vector>

#include "stats/quantile_sketch.hpp"
#include "stats/streaming_summary.hpp"

namespace {

using kerntime::stats::QuantileSketch;
using kerntime::stats::StreamingSummary;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double peak_resident_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

// Log-normal durations around a median of 20 us, whole nanoseconds as CUPTI reports them.
std::vector<double> durations(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::lognormal_distribution<double> lognormal(std::log(20000.0), 1.0);
  std::vector<double> values(count);
  for (double& value : values)
    value = std::round(lognormal(random));
  return values;
}

// The memory of `launches` kernels over `names` kernel names, each log-normal around its own
// median between 1 us and 10 ms. Run first, so that the peak resident size is this phase's.
void memory_of_launches(std::size_t launches, std::size_t names) {
  std::mt19937_64 random(42);
  std::normal_distribution<double> spread(0.0, 0.5);
  std::vector<StreamingSummary> summaries(names);
  const double before = peak_resident_mib();
  const auto start = Clock::now();
  for (std::size_t launch = 0; launch < launches; ++launch) {
    const std::size_t name = launch % names;
    const double median = 1000.0 * std::pow(10.0, 4.0 * static_cast<double>(name) / names);
    summaries[name].add(std::round(median * std::exp(spread(random))));
  }
  const double elapsed = seconds_since(start);
  std::size_t bytes = 0;
  std::uint64_t counted = 0;
  for (const auto& summary : summaries) {
    bytes += summary.memory_bytes();
    counted += summary.count();
  }
  std::printf(
      "%zu launches over %zu names: %llu counted, summaries %.2f MiB (%.0f bytes a name), "
      "peak resident %.1f MiB (%.1f MiB before), %.1f s with random numbers\n",
      launches, names, static_cast<unsigned long long>(counted),
      static_cast<double>(bytes) / (1024.0 * 1024.0),
      static_cast<double>(bytes) / static_cast<double>(names), peak_resident_mib(), before,
      elapsed);
}

template <typename Summary>
double nanoseconds_per_add(const std::vector<double>& values, int repeats) {
  double best = 1e300;
  for (int round = 0; round < 5; ++round) {
    Summary summary;
    const auto start = Clock::now();
    for (int r = 0; r < repeats; ++r) {
      for (double value : values)
        summary.add(value);
    }
    const double ns = seconds_since(start) * 1e9 / (static_cast<double>(values.size()) * repeats);
    if (summary.count() != values.size() * static_cast<std::size_t>(repeats)) std::abort();
    best = std::min(best, ns);
  }
  return best;
}

void timings() {
  const std::vector<double> values = durations(1000000, 7);
  std::printf(
      "add, best of 5 rounds of 1e7 log-normal durations: QuantileSketch %.1f ns, "
      "StreamingSummary %.1f ns\n",
      nanoseconds_per_add<QuantileSketch>(values, 10),
      nanoseconds_per_add<StreamingSummary>(values, 10));

  // Merging per-thread or per-process summaries, and reading quantiles.
  StreamingSummary part;
  for (double value : values)
    part.add(value);
  StreamingSummary total;
  auto start = Clock::now();
  constexpr int kMerges = 10000;
  for (int i = 0; i < kMerges; ++i)
    total.merge(part);
  const double merge_us = seconds_since(start) * 1e6 / kMerges;
  double sink = 0.0;
  start = Clock::now();
  constexpr int kQueries = 100000;
  for (int i = 0; i < kQueries; ++i)
    sink += total.quantile(0.5 + 0.49 * (i % 2));
  const double quantile_us = seconds_since(start) * 1e6 / kQueries;
  std::printf("merge of a %zu-bucket summary: %.2f us; quantile: %.2f us (checksum %.0f)\n",
              part.sketch().to_data().counts.size(), merge_us, quantile_us, sink);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t launches = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  const std::size_t names = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000;
  if (names == 0) {
    std::fprintf(stderr, "sketch_benchmark: the number of names must be positive\n");
    return 2;
  }
  memory_of_launches(launches, names);
  timings();
  return 0;
}
