// SPDX-License-Identifier: Apache-2.0
// Processes of one `kerntime run` that started CUDA and launched no GPU work: torch.compile's
// compile workers, a launcher that only checks the GPU. Each one's report says "no CUDA work was
// recorded"; merged, that would be one warning per helper on a run whose real work was recorded
// in full. When another process did GPU work, the summary lists them instead, on one line.
#pragma once

#include <string>
#include <vector>

#include <kerntime/report.hpp>

namespace kerntime::cli {

struct IdleProcesses {
  std::vector<std::string> labels;  ///< "pid 3070 (python)", in the reports' order
  bool all = false;                 ///< no process of the program did GPU work
};

/// Finds the reports of processes without GPU work (the injection library's "no CUDA work was
/// recorded: the process started CUDA ..." warning, and no kernel, copy or memset counted) among
/// two or more, and takes that warning out of each: the caller merges the reports, then says it
/// once (idle_processes_text). A process is labelled by its report's host name past the host
/// ("pid N (PROGRAM)"), or by `sources`. One report is left as it is.
IdleProcesses take_idle_processes(std::vector<Report>& reports,
                                  const std::vector<std::string>& sources);

/// The one line: "2 processes started CUDA and launched no GPU work: pid 3070 (python), pid 3071
/// (python)", or, when `idle.all`, the merged report's warning "no CUDA work was recorded: 2
/// processes started CUDA but launched no kernel, copy or memset: ...".
std::string idle_processes_text(const IdleProcesses& idle);

}  // namespace kerntime::cli
