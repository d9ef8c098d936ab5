// SPDX-License-Identifier: Apache-2.0
#include "cupti/cupti_library.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

namespace kerntime::cupti {
namespace {

// The CUPTI that matches the runtime lives next to libcudart in a toolkit, or in
// extras/CUPTI/lib64 in older layouts; finding it there avoids loading a mismatched one.
std::vector<std::string> candidate_paths() {
  std::vector<std::string> paths;
  if (const char* forced = std::getenv("KERNTIME_CUPTI_LIBRARY"); forced && *forced) {
    paths.emplace_back(forced);
    return paths;
  }
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cudaRuntimeGetVersion), &info) != 0 && info.dli_fname) {
    std::string cudart = info.dli_fname;
    const auto slash = cudart.rfind('/');
    if (slash != std::string::npos) {
      const std::string dir = cudart.substr(0, slash);
      paths.push_back(dir + "/libcupti.so");
      paths.push_back(dir + "/../extras/CUPTI/lib64/libcupti.so");
    }
  }
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  if (runtime > 0) paths.push_back("libcupti.so." + std::to_string(runtime / 1000));
  paths.emplace_back("libcupti.so");
  return paths;
}

struct Loaded {
  void* handle = nullptr;
  CuptiProbe probe;
};

Loaded load() {
  Loaded result;
  std::string last_error;
  for (const std::string& path : candidate_paths()) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      if (const char* error = dlerror()) last_error = error;
      continue;
    }
    using GetVersion = int (*)(unsigned*);
    auto get_version = reinterpret_cast<GetVersion>(dlsym(handle, "cuptiGetVersion"));
    unsigned version = 0;
    if (get_version == nullptr || get_version(&version) != 0) {
      last_error = path + " does not answer cuptiGetVersion";
      dlclose(handle);
      continue;
    }
    result.handle = handle;
    result.probe.loaded = true;
    result.probe.api_version = static_cast<int>(version);
    // Where the loader found it: a bare soname (NVIDIA's pip packages ship libcupti.so.13
    // alone, found through a RUNPATH) must read as the file /proc/self/maps names, or kerntime
    // would take its own CUPTI for another client's (other_cupti_user()).
    Dl_info where{};
    const char* file =
        dladdr(reinterpret_cast<void*>(get_version), &where) != 0 && where.dli_fname != nullptr
            ? where.dli_fname
            : path.c_str();
    char resolved[4096];
    result.probe.path = realpath(file, resolved) ? std::string{resolved} : std::string{file};
    return result;
  }
  result.probe.problem =
      "CUPTI could not be loaded (" + last_error +
      "); kernel tracing is off and GPU times come from cudaEvents. Install the CUDA Toolkit's "
      "CUPTI or point KERNTIME_CUPTI_LIBRARY at libcupti.so";
  return result;
}

std::atomic<bool> load_attempted{false};

const Loaded& loaded() {
  load_attempted = true;
  static const Loaded instance = load();
  return instance;
}

// The path of a mapping line ("... /usr/lib/libcupti.so.13"), or "" when it names no file.
std::string_view mapped_path(std::string_view line) {
  const auto slash = line.find('/');
  return slash == std::string_view::npos ? std::string_view{} : line.substr(slash);
}

}  // namespace

CuptiProbe probe_cupti() {
  return loaded().probe;
}

void* cupti_handle() {
  return loaded().handle;
}

std::string other_cupti_user(std::string_view maps, std::string_view injection,
                             const std::string& own_path) {
  if (!injection.empty()) {
    return "the tool CUDA_INJECTION64_PATH loads (" + std::string{injection} + ")";
  }
  std::size_t start = 0;
  while (start < maps.size()) {
    const std::size_t end = std::min(maps.find('\n', start), maps.size());
    const std::string_view path = mapped_path(maps.substr(start, end - start));
    start = end + 1;
    if (path.find("libcupti") == std::string_view::npos) continue;
    if (!own_path.empty() && path == own_path) continue;
    return "a CUPTI library kerntime did not load (" + std::string{path} +
           "), as a profiler or a library using CUPTI loads";
  }
  return {};
}

std::string other_cupti_user() {
  const char* injection = std::getenv("CUDA_INJECTION64_PATH");
  std::ifstream in{"/proc/self/maps"};
  std::ostringstream maps;
  maps << in.rdbuf();
  // Only what kerntime already loaded counts as its own: asking loaded() would load it now.
  const std::string own = load_attempted.load() ? loaded().probe.path : std::string{};
  return other_cupti_user(maps.str(), injection != nullptr ? injection : "", own);
}

}  // namespace kerntime::cupti
