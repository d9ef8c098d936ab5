// SPDX-License-Identifier: Apache-2.0
// The contract between libkerntime_preload.so, which `kerntime run` preloads into every process
// of the program, and the injection library, which CUDA loads only into processes that start
// CUDA. The preload interposes the calls that end or replace a process without running atexit
// handlers (_exit, _Exit, quick_exit, the exec family) and those that send the process a signal
// (kill, raise); before calling the real function it calls the hook the injection library
// registered, if any. A process that never starts CUDA has no hooks and pays one atomic load.
// It also passes on the program's cuptiSubscribe calls and counts those CUPTI refused.
//
// Plain C types only: the two libraries are built apart and must agree on this layout alone.
#pragma once

extern "C" {

struct kerntime_end_hooks {
  /// sizeof(kerntime_end_hooks) as the registering library knows it: later fields are optional.
  unsigned long size;
  /// Before _exit, _Exit and quick_exit. Returns when the final report is written (or not
  /// within its limit); the preload then ends the process with `status`.
  void (*leave)(int status);
  /// Before a call of the exec family. Returns when a complete report is written; recording
  /// goes on in case the exec fails.
  void (*exec)(void);
  /// Before kill() or raise() sends `signal` to this process itself.
  void (*self_signal)(int signal);
};

/// Exported by libkerntime_preload.so under kKerntimeInstallEndHooks: copies the hooks (nullptr
/// uninstalls them) and returns 1.
typedef int (*kerntime_install_end_hooks_fn)(const struct kerntime_end_hooks* hooks);

/// Exported by libkerntime_preload.so under kRefusedCuptiSubscribersSymbol (preload_cupti.cpp):
/// how many of the program's cuptiSubscribe calls CUPTI refused because its one subscriber slot
/// was taken, and the path of the library that made the first (nullptr: none, or not yet known).
typedef unsigned (*kerntime_refused_cupti_subscribers_fn)(const char** first_caller);
}

namespace kerntime::inject {
inline constexpr const char* kInstallEndHooksSymbol = "kerntime_install_end_hooks_v1";
inline constexpr const char* kRefusedCuptiSubscribersSymbol =
    "kerntime_refused_cupti_subscribers_v1";
/// CUPTI's result codes the preload passes on, by number (it includes no CUPTI header;
/// injection_reports.cpp checks them against cupti_result.h).
inline constexpr int kCuptiErrorNotInitialized = 15;
inline constexpr int kCuptiErrorMultipleSubscribers = 39;
}  // namespace kerntime::inject
