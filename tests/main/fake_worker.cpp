// SPDX-License-Identifier: Apache-2.0
// A stand-in for a benchmark program started as a child of --processes, with no GPU: it
// "measures" three configurations in the child's rotated order and writes its results file as
// the runner's child does. Options for the tests: --crash-at=NAME dies of SIGSEGV while
// measuring NAME in the process given by --crash-process=P (1-based); --exit-early=S exits with
// status S before writing anything in process P.
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/measurement_info.hpp>
#include <kerntime/report.hpp>

#include "io/file_writer.hpp"
#include "main/processes.hpp"
#include "main/worker_results.hpp"

namespace {

std::optional<std::string> value_of(int argc, char** argv, const std::string& option) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind(option + "=", 0) == 0) return a.substr(option.size() + 1);
    if (a == option && i + 1 < argc) return std::string{argv[i + 1]};
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  using kerntime::main::WorkerResults;
  const auto worker = value_of(argc, argv, kerntime::main::kWorkerOption);
  const auto output = value_of(argc, argv, kerntime::main::kWorkerOutputOption);
  const auto processes = value_of(argc, argv, "--processes");
  if (!worker || !output || !processes) return 3;
  const std::size_t k = std::stoul(*worker);
  const std::size_t n = std::stoul(*processes);
  const bool chosen = value_of(argc, argv, "--crash-process").value_or("") == std::to_string(k + 1);
  if (chosen && value_of(argc, argv, "--exit-early")) {
    return std::stoi(*value_of(argc, argv, "--exit-early"));
  }
  const std::vector<std::string> names = {"a/cold", "b/cold", "c/cold"};
  std::vector<std::optional<kerntime::Entry>> done(names.size());
  std::string order = "process " + std::to_string(k + 1) + " order:";
  auto write = [&](const std::string& running) {
    kerntime::main::WorkerResults results;
    results.report.environment.host_name = "fake";
    for (const auto& entry : done) {
      if (!entry) continue;
      results.report.entries.push_back(*entry);
      kerntime::MeasurementInfo info;
      info.stop_reason = k == 0 ? "stable" : "timeout";
      info.work.bytes = 1000.0;
      info.wall_time_s = 0.5;
      results.report.entries.back().measurement =
          std::make_shared<const kerntime::MeasurementInfo>(info);
    }
    results.report.warnings.push_back(order);
    results.running = running;
    kerntime::io::write_file_atomically(*output, kerntime::main::worker_results_json(results));
  };
  for (std::size_t i : kerntime::main::process_order(names.size(), k, n)) {
    write(names[i]);
    if (chosen && value_of(argc, argv, "--crash-at") == names[i]) {
      // The default action, so that the parent sees "killed by signal 11" even under a
      // sanitizer, whose own SIGSEGV handler would report the crash and exit with status 1.
      std::signal(SIGSEGV, SIG_DFL);
      std::raise(SIGSEGV);
    }
    kerntime::Entry entry;
    entry.name = names[i];
    entry.timer = "cupti-kernel";
    // Process K takes K + 2 samples of 100 * (K + 1) ns, so that the runs can be told apart.
    entry.samples.assign(k + 2, 100.0 * static_cast<double>(k + 1));
    done[i] = entry;
    order += " " + names[i];
  }
  write("");
  return 0;
}
