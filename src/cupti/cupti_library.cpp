// SPDX-License-Identifier: Apache-2.0
#include "cupti/cupti_library.hpp"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
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
    char resolved[4096];
    result.probe.path = realpath(path.c_str(), resolved) ? std::string{resolved} : path;
    return result;
  }
  result.probe.problem =
      "CUPTI could not be loaded (" + last_error +
      "); kernel tracing is off and GPU times come from cudaEvents. Install the CUDA Toolkit's "
      "CUPTI or point KERNTIME_CUPTI_LIBRARY at libcupti.so";
  return result;
}

const Loaded& loaded() {
  static const Loaded instance = load();
  return instance;
}

}  // namespace

CuptiProbe probe_cupti() {
  return loaded().probe;
}

void* cupti_handle() {
  return loaded().handle;
}

}  // namespace kerntime::cupti
