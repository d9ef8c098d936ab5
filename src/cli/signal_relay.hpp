// SPDX-License-Identifier: Apache-2.0
// How `kerntime run` passes the signals it receives on to the program, as `timeout`, `tini` and
// `sudo` do: whatever a user or a scheduler sends to kerntime reaches the program, and kerntime
// itself stays until the program ends, to merge its reports and exit with its status.
//
// The program runs in kerntime's process group, so the terminal's signals (Ctrl-C, Ctrl-\,
// Ctrl-Z, a resize, a hangup) reach it directly; kerntime does not pass those on again (the
// kernel sends them: si_code SI_KERNEL). Nor does it pass on what the program or one of its
// children sent (kill(0, ...) reaches kerntime too, or a program signals its parent). A signal
// that was ignored when kerntime started (nohup, a background job of a script) stays ignored,
// and the program inherits that.
#pragma once

#include <functional>
#include <signal.h>
#include <sys/types.h>

namespace kerntime::cli {

/// Where a received signal came from, as sigwaitinfo() tells it.
struct SignalOrigin {
  int signal = 0;
  int code = 0;      ///< siginfo's si_code: SI_USER, SI_QUEUE, SI_TKILL (kill, sigqueue), SI_KERNEL
  pid_t sender = 0;  ///< siginfo's si_pid, for SI_USER, SI_QUEUE and SI_TKILL
};

/// Whether a signal kerntime received goes on to the program: not when the terminal sent it to
/// the foreground group (the program has it already), not when `sent_by_program(sender)` (the
/// program or one of its children sent it). Pure, for tests.
bool should_forward(const SignalOrigin& origin, const std::function<bool(pid_t)>& sent_by_program);

/// Whether process `pid` is `ancestor` or one of its descendants (by the parents in /proc).
bool is_descendant(pid_t pid, pid_t ancestor);

/// Blocks the relayed signals (HUP INT QUIT TERM USR1 USR2 ALRM WINCH CONT TSTP, those not ignored
/// at start) and SIGCHLD for its lifetime, so that none is lost or ends kerntime between its
/// creation and the program's end; waits for the program with sigtimedwait().
class SignalRelay {
 public:
  SignalRelay();
  ~SignalRelay();
  SignalRelay(const SignalRelay&) = delete;
  SignalRelay& operator=(const SignalRelay&) = delete;

  /// In the child between fork() and exec(): the mask and the SIGCHLD action kerntime started
  /// with, so that the program starts as it would have without kerntime. Async-signal-safe.
  void restore_in_child() const noexcept;

  /// Waits for `child` to end, passing signals on (SIGTSTP also stops kerntime, so that a shell
  /// sees the job stopped). Its exit status as a shell reports it: 128 + N for signal N. Signals
  /// still pending when it ended came while it ran (a Ctrl-C it handled): they are dropped.
  int wait_for(pid_t child);

  /// After the program ended: a relayed signal that ends a process by default (HUP INT QUIT TERM
  /// USR1 USR2 ALRM), taken if one is pending, else 0. The caller cleans up and calls
  /// end_by_signal(). SIGTSTP stops kerntime here too; the others are dropped.
  int take_terminating_signal();

 private:
  sigset_t waited_{};         // the relayed signals and SIGCHLD
  sigset_t previous_mask_{};  // as kerntime started
  struct sigaction previous_child_action_ {};
};

/// Ends the process by `signal` as its default action does, so that the exit status a shell
/// sees is 128 + signal. Call after cleaning up.
[[noreturn]] void end_by_signal(int signal);

}  // namespace kerntime::cli
