// SPDX-License-Identifier: Apache-2.0
// Part of libkerntime_preload.so: CUPTI's subscriber slot, seen from the program's side.
// `kerntime run` holds that one slot from cuInit on, so a profiler the program starts itself
// (torch.profiler's Kineto, a kerntime::Tracer) is refused it and records no GPU activity,
// while kerntime keeps every record. CUPTI tells only the refused caller; the call passes
// through here on its way to CUPTI, so the refusal is noted for the report
// (kerntime_refused_cupti_subscribers_v1, end_hook_abi.hpp). kerntime's own CUPTI calls go
// through dlsym on its handle and never come here.
//
// libc only, as the rest of the preload: the result codes are CUPTI's numbers
// (end_hook_abi.hpp).
#include <atomic>
#include <cstddef>
#include <dlfcn.h>
#include <link.h>

#include "inject/end_hook_abi.hpp"

namespace {

using kerntime::inject::kCuptiErrorMultipleSubscribers;
using kerntime::inject::kCuptiErrorNotInitialized;

using SubscribeFn = int (*)(void**, void*, void*);
using SubscribeV2Fn = int (*)(void**, void*, void*, void*);

// Whether `path` holds "libcupti.so" (no string functions: libc's may be interposed too).
bool names_libcupti(const char* path) {
  constexpr char kName[] = "libcupti.so";
  for (const char* p = path; p != nullptr && *p != '\0'; ++p) {
    std::size_t i = 0;
    while (kName[i] != '\0' && p[i] == kName[i])
      ++i;
    if (kName[i] == '\0') return true;
  }
  return false;
}

std::atomic<unsigned> g_refused{0};
std::atomic<int> g_caller_claimed{0};
std::atomic<int> g_caller_written{0};
char g_caller[512];  // the library of the first refused call, written once

// Set while this thread is inside a call this library passed on: another interposer that passes
// the call back here (one preloaded before this library that forwards with RTLD_NEXT) must not
// send it around again.
thread_local bool t_forwarding = false;

// The base address of the object `address` lies in; nullptr when none.
void* object_of(const void* address) {
  Dl_info info{};
  return dladdr(address, &info) != 0 ? info.dli_fbase : nullptr;
}

// `name` in a loaded libcupti, found by its file name: the first whose path names it.
void* in_loaded_libcupti(const char* name) {
  // The path is copied out first: dlopen inside dl_iterate_phdr's callback would take the
  // loader's lock it holds.
  char path[1024];
  path[0] = '\0';
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        if (!names_libcupti(info->dlpi_name)) return 0;
        auto* out = static_cast<char*>(data);
        std::size_t n = 0;
        for (; info->dlpi_name[n] != '\0' && n + 1 < 1024; ++n)
          out[n] = info->dlpi_name[n];
        out[n] = '\0';
        return 1;
      },
      path);
  if (path[0] == '\0') return nullptr;
  void* handle = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) return nullptr;
  void* found = dlsym(handle, name);
  dlclose(handle);
  return found;
}

// The function the caller would have reached without this library: in the global scope after
// it, else in the caller's own dependencies (a libcupti that a Python extension module loaded
// into its local scope), else in a loaded libcupti. Looked up at each call: CUPTI is subscribed
// to once or twice in a process, and two callers may use two libcupti copies. Never this
// library's own function, nor the caller's.
void* real_function(const char* name, void* return_address) {
  if (t_forwarding) return in_loaded_libcupti(name);
  if (void* found = dlsym(RTLD_NEXT, name)) return found;
  Dl_info caller{};
  if (dladdr(return_address, &caller) != 0 && caller.dli_fname != nullptr) {
    if (void* handle = dlopen(caller.dli_fname, RTLD_LAZY | RTLD_NOLOAD)) {
      void* found = dlsym(handle, name);
      dlclose(handle);
      const void* own = object_of(reinterpret_cast<const void*>(&in_loaded_libcupti));
      const void* where = object_of(found);
      if (found != nullptr && where != own && where != caller.dli_fbase) return found;
    }
  }
  return in_loaded_libcupti(name);
}

// Marks this thread as inside a passed-on call while it lives.
struct Forwarding {
  Forwarding() { t_forwarding = true; }
  ~Forwarding() { t_forwarding = false; }
};

void note_refusal(void* return_address) {
  g_refused.fetch_add(1, std::memory_order_relaxed);
  if (g_caller_claimed.exchange(1) != 0) return;
  Dl_info info{};
  const char* path =
      dladdr(return_address, &info) != 0 && info.dli_fname != nullptr ? info.dli_fname : "";
  std::size_t n = 0;
  for (; path[n] != '\0' && n + 1 < sizeof g_caller; ++n)
    g_caller[n] = path[n];
  g_caller[n] = '\0';
  g_caller_written.store(1, std::memory_order_release);
}

// Passes the call on to the function the caller would have reached, and notes a refusal.
template <typename Fn, typename... Args>
int pass_on(const char* name, void* caller, Args... args) {
  const auto real = reinterpret_cast<Fn>(real_function(name, caller));
  if (real == nullptr) return kCuptiErrorNotInitialized;
  int result = 0;
  {
    const Forwarding inside;
    result = real(args...);
  }
  if (result == kCuptiErrorMultipleSubscribers) note_refusal(caller);
  return result;
}

}  // namespace

#define KERNTIME_EXPORT extern "C" __attribute__((visibility("default")))

KERNTIME_EXPORT int cuptiSubscribe(void** subscriber, void* callback, void* userdata) {
  return pass_on<SubscribeFn>("cuptiSubscribe", __builtin_return_address(0), subscriber, callback,
                              userdata);
}

KERNTIME_EXPORT int cuptiSubscribe_v2(void** subscriber, void* callback, void* userdata,
                                      void* params) {
  return pass_on<SubscribeV2Fn>("cuptiSubscribe_v2", __builtin_return_address(0), subscriber,
                                callback, userdata, params);
}

KERNTIME_EXPORT unsigned kerntime_refused_cupti_subscribers_v1(const char** first_caller) {
  if (first_caller != nullptr) {
    *first_caller = g_caller_written.load(std::memory_order_acquire) != 0 ? g_caller : nullptr;
  }
  return g_refused.load(std::memory_order_relaxed);
}
