// SPDX-License-Identifier: Apache-2.0
// The thread that writes `kerntime run`'s reports while the program runs and when a signal ends
// it, and the signal handlers that hand it that work. A signal handler may only make
// async-signal-safe calls, and writing a report is not one (it allocates, formats, renames a
// file), so the handler wakes the worker through a pipe, waits for it on an atomic, then lets
// the signal end the process as it would have: the exit status stays the signal's.
//
// Two kinds of signal:
// - terminating (SIGTERM, SIGINT, SIGHUP, when the program left them at their default): the
//   worker writes the final report, which may call CUDA and CUPTI; the handler waits for it;
// - fatal (SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL: an abort, often after a CUDA error, or a
//   fault, possibly inside the driver): the worker first writes a report from what is in memory
//   without calling CUDA or CUPTI (the crashed thread may hold the driver's locks), then tries
//   the final one; the handler waits a bounded time for each, then calls the handler the
//   program had installed before, if any, and re-raises.
#pragma once

#include <cstdint>
#include <functional>

namespace kerntime::inject {

struct WorkerJobs {
  /// Every checkpoint interval while the program runs, and never more than a tenth of the time:
  /// a checkpoint that took T waits at least 9 T before the next.
  std::function<void()> checkpoint;
  /// Every tick while the program runs, until it returns false (short waits for something).
  std::function<bool()> tick;
  /// A terminating signal: the final report.
  std::function<void(int signal)> terminate;
  /// The final report after a terminating signal is not done after terminate_final_ms (a CUDA
  /// or CUPTI call that never returns): a report from memory, with no CUDA or CUPTI call, on
  /// another thread; the process then ends with the signal.
  std::function<void(int signal)> terminate_overdue;
  /// A fatal signal, first: a report from memory, with no CUDA or CUPTI call.
  std::function<void(int signal)> crash_report;
  /// Then: the final report, which may call CUDA and CUPTI (and may never return).
  std::function<void(int signal)> crash_final;
  /// The process leaves without atexit handlers (_exit): the final report.
  std::function<void()> leave;
  /// The process is about to be replaced (exec) or to send itself `signal` (0: none): a
  /// complete report, and recording goes on (the exec may fail, the signal may be waited for).
  std::function<void(int signal)> snapshot;
};

struct WorkerLimits {
  std::uint64_t checkpoint_interval_ms = 0;  ///< 0: no checkpoints
  int tick_ms = 100;
  int crash_report_ms = 5'000;  ///< how long a fatal signal waits for each report
  int crash_final_ms = 10'000;
  /// How long a terminating signal's handler holds the thread it interrupted while the final
  /// report is written. Past it the interrupted call goes on (it may hold a lock the report
  /// needs: a CUDA call's), and the worker ends the process with the signal when done.
  int terminate_hold_ms = 5'000;
  /// How long the final report after a terminating signal may take before the process ends
  /// without it (terminate_overdue writes one from memory, within crash_report_ms).
  int terminate_final_ms = 30'000;
};

/// Starts the worker (with the terminating signals blocked on it) and installs the handlers.
/// Once per process; false when the pipe or the thread cannot be made (nothing installed).
bool start_report_worker(WorkerJobs jobs, const WorkerLimits& limits);

/// Tells the worker to stop and waits for it, unless called on the worker itself. Signals that
/// come after it end the process at once (the caller writes the final report).
void stop_report_worker();

/// From the thread that is about to end the process without atexit handlers (a preloaded
/// _exit, end_hooks.hpp): has the worker run `leave` and waits up to `limit_ms` for it, or for
/// the signal or the leave already under way. Async-signal-safe. False, and nothing waited for,
/// when no worker runs in this process or the caller is the worker itself.
bool leave_through_worker(int limit_ms);

/// Likewise for `snapshot(signal)`, which the worker runs each time it is asked. Returns when it
/// ran (or the worker ended), or after `limit_ms`.
bool snapshot_through_worker(int signal, int limit_ms);

/// The first terminating or fatal signal received; 0: none.
int received_signal();
/// Whether received_signal() is a fatal one.
bool received_fatal_signal();

/// "SIGABRT", "SIGSEGV", ... ("signal N" for others).
const char* signal_name(int signal);

}  // namespace kerntime::inject
