// SPDX-License-Identifier: Apache-2.0
#include "main/run_order.hpp"

#include <random>
#include <utility>

#include "main/processes.hpp"

namespace kerntime::main {
namespace {

// A uniform integer in [0, bound) by rejection, so that no value is favoured.
std::uint64_t uniform_below(std::mt19937_64& engine, std::uint64_t bound) {
  const std::uint64_t limit = std::mt19937_64::max() - std::mt19937_64::max() % bound;
  for (;;) {
    const std::uint64_t draw = engine();
    if (draw < limit) return draw % bound;
  }
}

}  // namespace

std::vector<PlannedRun> run_order(std::size_t tasks, std::size_t repetitions, std::size_t process,
                                  std::size_t processes, std::optional<std::uint64_t> seed) {
  std::vector<PlannedRun> order;
  order.reserve(tasks * repetitions);
  for (std::size_t task : process_order(tasks, process, processes)) {
    for (std::size_t r = 0; r < repetitions; ++r)
      order.push_back({task, r});
  }
  if (!seed) return order;
  std::mt19937_64 engine{*seed + process};
  for (std::size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[uniform_below(engine, i)]);
  }
  // Repetition numbers follow the order in which a configuration's measurements come.
  std::vector<std::size_t> seen(tasks, 0);
  for (PlannedRun& run : order)
    run.repetition = seen[run.task]++;
  return order;
}

std::uint64_t random_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

}  // namespace kerntime::main
