// SPDX-License-Identifier: Apache-2.0
// The parent's half of --processes: start the children one after another, read back what each
// finished, name the ones that failed, and merge their runs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <kerntime/measurement.hpp>
#include <kerntime/report.hpp>

namespace kerntime::main {

struct ProcessRuns {
  Report report;  ///< the children's reports merged into runs (merge_reports), failures warned
  std::vector<Measurement> measurements;  ///< one per measured name (measurements_of)
  std::vector<std::string> failures;      ///< one line per failed child, also in the warnings
  int status = 0;  ///< 1 when a child failed or a configuration failed in one, else 0
};

/// Runs `processes` children of `executable` one after another, child K with the arguments
/// worker_arguments(argc, argv, K, FILE, extra) and FILE in a fresh folder under $TMPDIR (removed
/// afterwards). Each failure is also written to standard error as "program: failure" when it
/// happens. Throws kerntime::Error when the folder cannot be made or a child cannot be started.
ProcessRuns run_processes(const std::string& executable, int argc, const char* const* argv,
                          std::size_t processes, const std::string& program,
                          const std::vector<std::string>& extra = {});

}  // namespace kerntime::main
