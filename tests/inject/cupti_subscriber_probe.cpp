// SPDX-License-Identifier: Apache-2.0
// The program side of the preload's cuptiSubscribe (run_preload_test): it loads a library that
// subscribes to CUPTI, into its own scope (local: as Python loads PyTorch's extension module)
// or into the global one, and subscribes through it three times (the fake libcupti gives the
// slot once); it prints what each call returned and what the preload counted.
//
//   cupti_subscriber_probe MODULE local|global
#include <cstdio>
#include <cstring>
#include <dlfcn.h>

#include "inject/end_hook_abi.hpp"

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const int scope = std::strcmp(argv[2], "global") == 0 ? RTLD_GLOBAL : RTLD_LOCAL;
  void* module = dlopen(argv[1], RTLD_NOW | scope);
  if (module == nullptr) {
    std::fprintf(stderr, "%s\n", dlerror());
    return 3;
  }
  auto subscribe = reinterpret_cast<int (*)()>(dlsym(module, "subscribe_from_module"));
  if (subscribe == nullptr) return 4;
  const int first = subscribe();
  const int second = subscribe();
  const int third = subscribe();
  std::printf("results %d %d %d\n", first, second, third);
  const auto refused = reinterpret_cast<kerntime_refused_cupti_subscribers_fn>(
      dlsym(RTLD_DEFAULT, kerntime::inject::kRefusedCuptiSubscribersSymbol));
  if (refused == nullptr) {
    std::printf("no preload\n");
    return 0;
  }
  const char* caller = nullptr;
  const unsigned count = refused(&caller);
  std::printf("refused %u\nfirst caller %s\n", count, caller != nullptr ? caller : "(none)");
  return 0;
}
