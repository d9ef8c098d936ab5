// SPDX-License-Identifier: Apache-2.0
// KERNTIME_RUN_COST_PHASES=MS, a diagnostic for the cost target (docs/run.md): inside one process
// under `kerntime run`, kerntime's own work is switched idle and back every MS milliseconds, and
// each phase's launches are counted. That work is what runs on the program's threads (the launch
// callback's body, the fault watch, the NVTX hooks) and kerntime's own threads (the record reader,
// whose buffers wait for the next working phase, and the checkpoints). Processes of one program
// differ by 15 % in speed, more than the few percent sought; two phases of one cycle of one
// process do not. CUPTI's configuration stays the same in both phases, so the difference is
// kerntime's own work and nothing else.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace kerntime::inject {

struct CostPhaseSettings {
  double phase_ms = 100.0;
  std::size_t cycles = 0;  ///< 0: until the process ends
};

/// What the phases act on: the launches counted so far (CUPTI's launch callback, which runs in
/// both phases), and the switch of kerntime's own work.
struct CostPhaseHooks {
  std::function<std::uint64_t()> launches;
  std::function<void(bool idle)> set_idle;
  /// One row per phase, as a JSON line without its newline:
  /// {"cycle": C, "phase": "idle"|"kerntime", "launches": N, "kernels": N, "seconds": S}
  /// ("kernels" repeats the launches for bench/scripts/cupti_phases.py, which reads that key).
  std::function<void(const std::string& row)> write_row;
};

/// KERNTIME_RUN_COST_PHASES's value: a phase length in milliseconds, 1 to 10000; nullopt when
/// unset or empty. Throws kerntime::Error for anything else.
std::optional<CostPhaseSettings> parse_cost_phases(const char* value);

/// Runs the cycles on the calling thread: an idle phase, then a phase with kerntime's work on;
/// returns after settings.cycles cycles (never, for 0) or once `stop` is set, with the work on.
void run_cost_phases(const CostPhaseSettings& settings, const CostPhaseHooks& hooks,
                     const std::atomic<bool>& stop);

/// The same on a detached thread of its own, which never runs a signal's handler. Returns false
/// when the thread could not start.
bool start_cost_phases(const CostPhaseSettings& settings, CostPhaseHooks hooks);

}  // namespace kerntime::inject
