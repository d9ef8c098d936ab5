// SPDX-License-Identifier: Apache-2.0
// The ends of a process that run no atexit handler, as the injection library meets them through
// the preloaded interposer (end_hook_abi.hpp):
// - _exit, _Exit, quick_exit (Python's os._exit, every multiprocessing worker): the final report,
//   written by the report worker while the leaving thread waits, at most a limit;
// - the exec family: a complete report before the process is replaced, recording going on in
//   case the exec fails (the new program, if it starts CUDA, writes a report of its own);
// - a signal the process sends itself while that signal's disposition is the default (a handler
//   that restored the default and sends its signal again; Python after an unhandled
//   KeyboardInterrupt): the same complete report, saying which signal.
//
// Each hook returns at once in a child made by fork() or vfork() (which must not touch its
// parent's CUDA state, nor anything but its own stack in a vfork child), and once the final
// report is under way. The final report is written once per process, whichever end comes first.
#pragma once

#include <functional>

namespace kerntime::inject {

struct EndJobs {
  /// The final report on the calling thread, when no report worker can write it.
  std::function<void()> finish;
  /// A complete report on the calling thread, likewise; `signal` 0: none.
  std::function<void(int signal)> snapshot;
};

struct EndLimits {
  /// How long a leaving or exec'ing thread waits for its report before it goes on anyway (a
  /// hung driver must not keep the process alive).
  int report_ms = 30'000;
};

/// Binds the hooks of this process (whose pid they remember) to `jobs`, and registers them with
/// the preloaded interposer. False when the process has no interposer (the program was not
/// started by `kerntime run`): the hooks then never run.
bool install_end_hooks(EndJobs jobs, const EndLimits& limits);

/// Whether this call begins the process's final report: true once per process, for the first
/// end that asks. The writer calls final_report_written() when the report is on disk.
bool begin_final_report();
void final_report_written();
/// Whether the final report has begun (by any end, on any thread). Async-signal-safe.
bool final_report_begun();

/// The hooks the interposer calls, for tests that call them without it.
void hook_leave(int status);
void hook_exec();
void hook_self_signal(int signal);

/// Whether a process sending itself `signal` means to end: SIGHUP, SIGINT, SIGTERM, SIGKILL.
/// (SIGUSR1, SIGUSR2 and SIGALRM also end a process by default, but a program that blocks them
/// and takes them with sigwait or a signalfd may send them to itself often: a report each time
/// would cost it a synchronize. An abort or a fault has the crash path of signal_worker.hpp.)
bool is_ending_signal(int signal);

}  // namespace kerntime::inject
