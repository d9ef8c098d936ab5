// SPDX-License-Identifier: Apache-2.0
#include "cli/idle_processes.hpp"

#include <algorithm>

namespace kerntime::cli {
namespace {

// The sentence the injection library writes (src/inject/end_of_process.cpp); the CPU test of
// this file produces it with that code, so a change there fails here.
constexpr const char* kIdleWarning = "no CUDA work was recorded: the process started CUDA";

bool is_idle_warning(const std::string& warning) {
  return warning.rfind(kIdleWarning, 0) == 0;
}

bool did_no_work(const Report& report) {
  if (report.trace && (report.trace->counts.kernels > 0 || report.trace->counts.memcpys > 0 ||
                       report.trace->counts.memsets > 0)) {
    return false;
  }
  return std::any_of(report.warnings.begin(), report.warnings.end(), &is_idle_warning);
}

std::string label(const Report& report, const std::string& source) {
  const std::string& host = report.environment.host_name;
  const auto space = host.find(' ');
  if (space == std::string::npos || space + 1 >= host.size()) return source;
  // "HOST pid N (PROGRAM) run ID": the run is the same for every process listed.
  const std::string label = host.substr(space + 1);
  return label.substr(0, label.find(" run "));
}

}  // namespace

IdleProcesses take_idle_processes(std::vector<Report>& reports,
                                  const std::vector<std::string>& sources) {
  IdleProcesses idle;
  if (reports.size() < 2) return idle;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    Report& report = reports[i];
    if (!did_no_work(report)) continue;
    idle.labels.push_back(
        label(report, i < sources.size() ? sources[i] : "process " + std::to_string(i + 1)));
    report.warnings.erase(
        std::remove_if(report.warnings.begin(), report.warnings.end(), &is_idle_warning),
        report.warnings.end());
  }
  idle.all = !idle.labels.empty() && idle.labels.size() == reports.size();
  return idle;
}

std::string idle_processes_text(const IdleProcesses& idle) {
  if (idle.labels.empty()) return {};
  const std::size_t count = idle.labels.size();
  std::string text = std::to_string(count) + (count == 1 ? " process" : " processes") +
                     (idle.all ? " started CUDA but launched no kernel, copy or memset: "
                               : " started CUDA and launched no GPU work: ");
  for (std::size_t i = 0; i < count; ++i)
    text += (i == 0 ? "" : ", ") + idle.labels[i];
  return idle.all ? "no CUDA work was recorded: " + text : text;
}

}  // namespace kerntime::cli
