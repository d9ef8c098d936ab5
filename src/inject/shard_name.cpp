// SPDX-License-Identifier: Apache-2.0
#include "inject/shard_name.hpp"

#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "inject/run_settings.hpp"

namespace kerntime::inject {
namespace {

std::string host() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  std::string text = name;
  for (char& c : text) {
    if (c == '/' || c == ' ') c = '_';
  }
  return text;
}

const char* from_environment(const char* name) {
  return std::getenv(name);
}

// KERNTIME_RUN_ID when it is one (read_run_settings() has refused the process otherwise).
std::string run_id(const EnvironmentLookup& lookup) {
  const char* id = lookup(env::kRunId);
  return id != nullptr && is_run_id(id) ? std::string{id} : std::string{};
}

}  // namespace

std::string launcher_rank(const EnvironmentLookup& lookup) {
  for (const char* name : {"RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "PMI_RANK"}) {
    const char* value = lookup(name);
    if (value == nullptr || *value == '\0') continue;
    const std::string text = value;
    if (text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos) return text;
  }
  return {};
}

std::string process_label() {
  return process_label(&from_environment);
}

std::string process_label(const EnvironmentLookup& lookup) {
  const std::string rank = launcher_rank(lookup);
  const std::string id = run_id(lookup);
  std::ifstream comm{"/proc/self/comm"};
  std::string program;
  std::getline(comm, program);
  return host() + " pid " + std::to_string(getpid()) + (rank.empty() ? "" : " rank " + rank) +
         (program.empty() ? "" : " (" + program + ")") + (id.empty() ? "" : " run " + id);
}

std::string shard_file_name() {
  return shard_file_name(&from_environment);
}

std::string shard_file_name(const EnvironmentLookup& lookup) {
  const std::string rank = launcher_rank(lookup);
  const std::string id = run_id(lookup);
  return host() + "." + (rank.empty() ? "" : "rank" + rank + ".") + "pid" +
         std::to_string(getpid()) + (id.empty() ? "" : "." + id) + ".json";
}

std::string unused_report_path(const std::string& directory, const std::string& file_name,
                               const std::function<bool(const std::string&)>& exists) {
  const std::string first = directory + "/" + file_name;
  if (!exists(first)) return first;
  const std::string suffix = ".json";
  const bool json = file_name.size() > suffix.size() &&
                    file_name.compare(file_name.size() - suffix.size(), suffix.size(), suffix) == 0;
  const std::string stem =
      directory + "/" + (json ? file_name.substr(0, file_name.size() - suffix.size()) : file_name);
  for (int generation = 2;; ++generation) {
    const std::string path = stem + "." + std::to_string(generation) + suffix;
    if (!exists(path)) return path;
  }
}

}  // namespace kerntime::inject
