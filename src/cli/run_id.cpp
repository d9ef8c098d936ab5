// SPDX-License-Identifier: Apache-2.0
#include "cli/run_id.hpp"

#include <chrono>
#include <cstdint>
#include <exception>
#include <random>
#include <unistd.h>

#include <fmt/core.h>

namespace kerntime::cli {

std::string new_run_id() {
  std::uint64_t id = 0;
  try {
    std::random_device device;
    id = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  } catch (const std::exception&) {
    // No entropy source: the pid and the time still tell concurrent runs apart.
    id = (static_cast<std::uint64_t>(getpid()) << 40) ^
         static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }
  return fmt::format("{:016x}", id);
}

void set_run_id(std::vector<std::string>& env, const std::string& id) {
  const std::string prefix = std::string{kRunIdVariable} + "=";
  std::vector<std::string> kept;
  for (std::string& entry : env) {
    if (entry.compare(0, prefix.size(), prefix) != 0) kept.push_back(std::move(entry));
  }
  kept.push_back(prefix + id);
  env = std::move(kept);
}

std::string process_of_run(const std::string& file_name, const std::string& id) {
  // "HOST.[rankR.]pidN.ID.json", or "HOST.pidN.ID.G.json" for the G-th report of one pid (a
  // program replaced by exec, a reused pid): inject/shard_name.cpp's unused_report_path.
  const std::string middle = "." + id + ".";
  const std::size_t at = id.empty() ? std::string::npos : file_name.rfind(middle);
  if (at == std::string::npos || at == 0) return {};
  const std::string tail = file_name.substr(at + middle.size());
  const std::size_t digits = tail.find_first_not_of("0123456789");
  if (tail == "json") return file_name.substr(0, at);
  if (digits == 0 || digits == std::string::npos || tail.substr(digits) != ".json") return {};
  return file_name.substr(0, at) + "." + tail.substr(0, digits);
}

}  // namespace kerntime::cli
