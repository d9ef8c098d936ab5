// SPDX-License-Identifier: Apache-2.0
#include "inject/cost_phases.hpp"

#include <chrono>
#include <cstdlib>
#include <thread>

#include <fmt/core.h>

#include <kerntime/error.hpp>

#include "io/program_signals_blocked.hpp"

namespace kerntime::inject {

std::optional<CostPhaseSettings> parse_cost_phases(const char* value) {
  if (value == nullptr || *value == '\0') return std::nullopt;
  char* end = nullptr;
  const double ms = std::strtod(value, &end);
  if (end == value || *end != '\0' || !(ms >= 1.0 && ms <= 10'000.0)) {
    throw Error(fmt::format(
        "KERNTIME_RUN_COST_PHASES=\"{}\" is not a phase length: give milliseconds from 1 to 10000 "
        "(100 is usual), or unset it",
        value));
  }
  CostPhaseSettings settings;
  settings.phase_ms = ms;
  return settings;
}

void run_cost_phases(const CostPhaseSettings& settings, const CostPhaseHooks& hooks,
                     const std::atomic<bool>& stop) {
  using Clock = std::chrono::steady_clock;
  const auto length = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double, std::milli>(settings.phase_ms));
  // Phases end on a fixed grid, so a late wake-up shortens the next phase instead of drifting;
  // each row has the phase's measured length, which is what its launches are divided by.
  Clock::time_point deadline = Clock::now();
  Clock::time_point begin = deadline;
  std::uint64_t launches = hooks.launches();
  for (std::size_t cycle = 0; settings.cycles == 0 || cycle < settings.cycles; ++cycle) {
    for (const bool idle : {true, false}) {
      hooks.set_idle(idle);
      deadline += length;
      std::this_thread::sleep_until(deadline);
      const Clock::time_point end = Clock::now();
      const std::uint64_t now = hooks.launches();
      hooks.set_idle(false);  // never left idle between phases or at a stop
      hooks.write_row(fmt::format(
          R"({{"cycle": {}, "phase": "{}", "launches": {}, "kernels": {}, "seconds": {:.9f}}})",
          cycle, idle ? "idle" : "kerntime", now - launches, now - launches,
          std::chrono::duration<double>(end - begin).count()));
      launches = now;
      begin = end;
      if (stop.load()) return;
    }
  }
}

bool start_cost_phases(const CostPhaseSettings& settings, CostPhaseHooks hooks) {
  static const std::atomic<bool> never{false};
  try {
    const io::ProgramSignalsBlocked quiet_thread;
    std::thread{[settings, hooks = std::move(hooks)] {
      run_cost_phases(settings, hooks, never);
    }}.detach();
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

}  // namespace kerntime::inject
