// SPDX-License-Identifier: Apache-2.0
#include "cuda/driver_release.hpp"

#include <fstream>
#include <regex>
#include <string>

namespace kerntime::cuda {

std::string nvidia_driver_release() {
  std::ifstream file{"/proc/driver/nvidia/version"};
  std::string line;
  if (!std::getline(file, line)) return {};
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..."
  static const std::regex release{R"((\d+\.\d+(\.\d+)?))"};
  std::smatch match;
  const auto module = line.find("Module");
  const std::string tail = module == std::string::npos ? line : line.substr(module);
  if (std::regex_search(tail, match, release)) return match[1];
  return {};
}

}  // namespace kerntime::cuda
