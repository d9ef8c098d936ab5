// SPDX-License-Identifier: Apache-2.0
#include <ctime>
#include <string>
#include <unistd.h>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/version.hpp>

namespace kerntime {
namespace {

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32] = {};
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return {};
  return name;
}

}  // namespace

Environment current_environment(const std::vector<int>& devices) {
  Environment env;
  env.tool_version = kVersion;
  env.created_utc = utc_now_iso8601();
  env.host_name = host_name();
  const GpuStatus status = query_gpu_status();
  env.driver_version = status.driver_version;
  env.runtime_version = status.runtime_version;
  if (!status.usable()) return env;

  std::vector<int> wanted = devices;
  if (wanted.empty()) {
    for (int device = 0; device < status.device_count; ++device)
      wanted.push_back(device);
  }
  for (int device : wanted) {
    try {
      env.devices.push_back(query_device(device));
    } catch (const Error&) {
      // A report must still be written when one device cannot be described.
    }
  }
  return env;
}

}  // namespace kerntime
