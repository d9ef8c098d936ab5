// SPDX-License-Identifier: Apache-2.0
#include "main/process_runs.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdlib.h>
#include <unistd.h>

#include <kerntime/error.hpp>

#include "main/processes.hpp"
#include "main/worker_results.hpp"

namespace kerntime::main {
namespace {

// A folder for the children's results files; removed with them.
class ScratchFolder {
 public:
  ScratchFolder() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string{tmp != nullptr && *tmp != '\0' ? tmp : "/tmp"} + "/kerntime-processes-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      throw Error("cannot make a folder for the processes' results (" + pattern +
                  "): " + std::strerror(errno) + "; set TMPDIR or run with --processes 1");
    }
    path_ = pattern;
  }
  ~ScratchFolder() {
    for (const std::string& file : files_)
      std::remove(file.c_str());
    rmdir(path_.c_str());
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  std::string file(const std::string& name) {
    files_.push_back(path_ + "/" + name);
    return files_.back();
  }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ProcessRuns run_processes(const std::string& executable, int argc, const char* const* argv,
                          std::size_t processes, const std::string& program,
                          const std::vector<std::string>& extra) {
  ScratchFolder scratch;
  ProcessRuns runs;
  std::vector<Report> reports;
  std::vector<std::string> sources;
  for (std::size_t k = 0; k < processes; ++k) {
    const std::string output = scratch.file("process-" + std::to_string(k + 1) + ".json");
    const int wait_status = run_process(executable, worker_arguments(argc, argv, k, output, extra));
    std::optional<WorkerResults> child;
    std::string unreadable;
    if (const std::optional<std::string> text = read_text(output)) {
      try {
        child = parse_worker_results(*text, output);
      } catch (const std::exception& e) {
        unreadable = e.what();
      }
    }
    // Exit status 1 with results: a configuration failed, and its warning says which.
    if (child && exit_status_of(wait_status) == 1) runs.status = 1;
    const std::optional<std::string> failure = describe_process_failure(
        k, processes, wait_status,
        child ? std::optional<std::string>{child->running} : std::nullopt, unreadable);
    if (failure) {
      runs.status = 1;
      std::fprintf(stderr, "%s: %s\n", program.c_str(), failure->c_str());
      std::fflush(stderr);
      runs.failures.push_back(*failure);
    }
    if (child) {
      reports.push_back(std::move(child->report));
      sources.push_back("process " + std::to_string(k + 1) + "/" + std::to_string(processes));
    }
  }
  runs.report = merge_reports(reports, sources, kRunnerMerge);
  runs.report.warnings.insert(runs.report.warnings.end(), runs.failures.begin(),
                              runs.failures.end());
  runs.measurements = measurements_of(runs.report);
  return runs;
}

}  // namespace kerntime::main
