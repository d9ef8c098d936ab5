// SPDX-License-Identifier: Apache-2.0
#include "inject/shard_name.hpp"

#include <cstdlib>
#include <fstream>
#include <unistd.h>

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

}  // namespace

std::string launcher_rank(const std::function<const char*(const char*)>& lookup) {
  for (const char* name : {"RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "PMI_RANK"}) {
    const char* value = lookup(name);
    if (value == nullptr || *value == '\0') continue;
    const std::string text = value;
    if (text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos) return text;
  }
  return {};
}

std::string process_label() {
  const std::string rank = launcher_rank([](const char* name) { return std::getenv(name); });
  std::ifstream comm{"/proc/self/comm"};
  std::string program;
  std::getline(comm, program);
  return host() + " pid " + std::to_string(getpid()) + (rank.empty() ? "" : " rank " + rank) +
         (program.empty() ? "" : " (" + program + ")");
}

std::string shard_file_name() {
  const std::string rank = launcher_rank([](const char* name) { return std::getenv(name); });
  return host() + "." + (rank.empty() ? "" : "rank" + rank + ".") + "pid" +
         std::to_string(getpid()) + ".json";
}

}  // namespace kerntime::inject
