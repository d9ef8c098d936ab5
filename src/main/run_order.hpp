// SPDX-License-Identifier: Apache-2.0
// The order in which one process measures the selected configurations and their repetitions:
// rotated per process (--processes), or shuffled from a seed (--random-interleaving, as Google
// Benchmark's --benchmark_enable_random_interleaving), so that drift in time spreads over every
// configuration instead of looking like a difference between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace kerntime::main {

/// One measurement of a process: configuration `task`, its `repetition`-th time (from 0).
struct PlannedRun {
  std::size_t task = 0;
  std::size_t repetition = 0;
  bool operator==(const PlannedRun& other) const {
    return task == other.task && repetition == other.repetition;
  }
};

/// The measurements of process `process` (0-based) of `processes`: each of `tasks`
/// configurations `repetitions` times. Without a seed, the configurations in process_order()
/// with each one's repetitions back to back; with a seed, a uniformly random permutation of all
/// (configuration, repetition) pairs drawn from seed + process, the same on every platform
/// (std::mt19937_64 and a Fisher-Yates shuffle of its own, not std::shuffle, whose order the
/// standard leaves to the library).
std::vector<PlannedRun> run_order(std::size_t tasks, std::size_t repetitions, std::size_t process,
                                  std::size_t processes, std::optional<std::uint64_t> seed);

/// A seed for --random-interleaving when none was given: from std::random_device.
std::uint64_t random_seed();

}  // namespace kerntime::main
