// SPDX-License-Identifier: Apache-2.0
#include "cupti/other_client.hpp"

#include <cstdlib>
#include <dlfcn.h>
#include <link.h>

#include <climits>

namespace kerntime::cupti {
namespace {

// Libraries whose presence names a CUPTI client: what to call it, and a part of the file name.
struct KnownClient {
  const char* file_part;
  const char* name;
};
constexpr KnownClient kKnownClients[] = {
    {"libtorch_cuda", "PyTorch's profiler (torch.profiler, Kineto; PyTorch is loaded)"},
    {"libkineto", "Kineto (PyTorch's profiler library is loaded)"},
    {"libkerntime.so", "a kerntime::Tracer in the program (libkerntime.so is loaded)"},
    {"libToolsInjection", "Nsight Systems (its injection library is loaded)"},
    {"sanitizer", "compute-sanitizer (its library is loaded)"},
    {"xla_extension", "JAX/XLA's profiler (jaxlib is loaded)"},
    {"libtensorflow", "TensorFlow's profiler (TensorFlow is loaded)"},
};

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string resolved(const std::string& path) {
  char buffer[PATH_MAX];
  return realpath(path.c_str(), buffer) != nullptr ? std::string{buffer} : path;
}

// The library this code is part of (libkerntime.so, libkerntime_inject.so, or the program).
std::string this_module() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&other_tool_injected), &info) == 0 ||
      info.dli_fname == nullptr) {
    return {};
  }
  return resolved(info.dli_fname);
}

std::vector<std::string> loaded_modules() {
  std::vector<std::string> modules;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') {
          static_cast<std::vector<std::string>*>(out)->push_back(info->dlpi_name);
        }
        return 0;
      },
      &modules);
  return modules;
}

std::string injection_path() {
  const char* injection = std::getenv("CUDA_INJECTION64_PATH");
  return injection != nullptr ? injection : "";
}

}  // namespace

std::string describe_other_cupti_client(const std::string& injection, bool injection_is_kerntime,
                                        const std::vector<std::string>& modules) {
  if (!injection.empty() && injection != "none" && !injection_is_kerntime) {
    return "the tool CUDA_INJECTION64_PATH loads, " + injection;
  }
  std::vector<const char*> seen;
  for (const KnownClient& client : kKnownClients) {
    for (const std::string& module : modules) {
      if (base_name(module).find(client.file_part) == std::string::npos) continue;
      if (injection_is_kerntime && resolved(module) == resolved(injection)) continue;
      seen.push_back(client.name);
      break;
    }
  }
  if (seen.empty()) {
    return "a profiler the program started itself, such as torch.profiler, or a tool that "
           "attached to it";
  }
  std::string text = "likely ";
  for (std::size_t i = 0; i < seen.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == seen.size() ? " or " : ", ") + std::string{seen[i]};
  }
  return text;
}

std::string describe_other_cupti_client() {
  const std::string injection = injection_path();
  const std::string self = this_module();
  std::vector<std::string> modules = loaded_modules();
  // The library this code runs in is not another client.
  std::vector<std::string> others;
  for (const std::string& module : modules) {
    if (self.empty() || resolved(module) != self) others.push_back(module);
  }
  const bool ours = !injection.empty() && !self.empty() && resolved(injection) == self;
  return describe_other_cupti_client(injection, ours, others);
}

std::string describe_cupti_caller(const std::string& library_path) {
  // Kineto is built into PyTorch's libtorch_cpu (or libkineto where it stands alone).
  static constexpr KnownClient kCallers[] = {
      {"libtorch", "PyTorch's profiler (torch.profiler, Kineto)"},
      {"libkineto", "PyTorch's profiler (torch.profiler, Kineto)"},
      {"libkerntime.so", "a kerntime::Tracer in the program"},
      {"libToolsInjection", "Nsight Systems"},
      {"xla_extension", "JAX/XLA's profiler"},
      {"jaxlib", "JAX/XLA's profiler"},
      {"libtensorflow", "TensorFlow's profiler"},
      {"cupy", "CuPy's profiler"},
  };
  if (library_path.empty()) return "a CUPTI client";
  const std::string name = base_name(library_path);
  for (const KnownClient& caller : kCallers) {
    if (name.find(caller.file_part) != std::string::npos) return caller.name;
  }
  return "a CUPTI client in " + name;
}

bool other_tool_injected() {
  const std::string injection = injection_path();
  if (injection.empty() || injection == "none") return false;
  const std::string self = this_module();
  return self.empty() || resolved(injection) != self;
}

}  // namespace kerntime::cupti
