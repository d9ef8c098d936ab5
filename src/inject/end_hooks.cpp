// SPDX-License-Identifier: Apache-2.0
#include "inject/end_hooks.hpp"

#include <atomic>
#include <csignal>
#include <ctime>
#include <dlfcn.h>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

#include "inject/end_hook_abi.hpp"
#include "inject/signal_worker.hpp"

namespace kerntime::inject {
namespace {

struct Hooks {
  EndJobs jobs;
  EndLimits limits;
  pid_t pid = 0;  // a fork() or vfork() child has another
};

// Leaked on purpose: the hooks may run after static destructors (quick_exit, a late _exit).
std::atomic<Hooks*> g_hooks{nullptr};

constexpr int kNotBegun = 0;
constexpr int kWriting = 1;
constexpr int kWritten = 2;
std::atomic<int> g_final{kNotBegun};
std::atomic<pid_t> g_writer{0};  // the thread writing the final report

pid_t current_thread() {
  return static_cast<pid_t>(syscall(SYS_gettid));
}

// The hooks of this process, or nullptr in a fork() or vfork() child: getpid() and an atomic
// load, all a vfork() child may do here.
Hooks* own_hooks() {
  Hooks* hooks = g_hooks.load();
  return hooks != nullptr && getpid() == hooks->pid ? hooks : nullptr;
}

long elapsed_ms(const timespec& since) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (now.tv_sec - since.tv_sec) * 1000 + (now.tv_nsec - since.tv_nsec) / 1'000'000;
}

// Waits until the final report is written or `limit_ms` have passed since `start`.
bool wait_for_final_report(const timespec& start, int limit_ms) {
  while (g_final.load() != kWritten) {
    if (elapsed_ms(start) > limit_ms) return false;
    timespec pause{0, 1'000'000};
    nanosleep(&pause, nullptr);
  }
  return true;
}

// Appends the decimal digits of `value` (>= 0) at `end`; returns the new end.
char* append_number(char* end, long value) {
  char digits[24];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0 && count < 24);
  while (count > 0)
    *end++ = digits[--count];
  return end;
}

char* append_text(char* end, const char* text) {
  while (*text != '\0')
    *end++ = *text++;
  return end;
}

// Async-signal-safe (no stdio): a leaving thread may be inside a signal handler.
void say_unfinished(int limit_ms) {
  char line[200];
  char* end = append_text(line, "kerntime run: pid ");
  end = append_number(end, static_cast<long>(getpid()));
  end = append_text(end, " left before its report was written (waited ");
  end = append_number(end, limit_ms);
  end = append_text(end, " ms); its last checkpoint remains\n");
  if (write(STDERR_FILENO, line, static_cast<std::size_t>(end - line)) < 0) return;
}

void snapshot(Hooks& hooks, int signal) {
  if (g_final.load() != kNotBegun) return;  // the final report is already under way
  if (!snapshot_through_worker(signal, hooks.limits.report_ms) && hooks.jobs.snapshot) {
    hooks.jobs.snapshot(signal);
  }
}

extern "C" void leave_hook(int status) {
  hook_leave(status);
}
extern "C" void exec_hook() {
  hook_exec();
}
extern "C" void self_signal_hook(int signal) {
  hook_self_signal(signal);
}

}  // namespace

bool install_end_hooks(EndJobs jobs, const EndLimits& limits) {
  // Replaced, never freed: another thread may be inside a hook.
  g_hooks.store(new Hooks{std::move(jobs), limits, getpid()});
  auto install =
      reinterpret_cast<kerntime_install_end_hooks_fn>(dlsym(RTLD_DEFAULT, kInstallEndHooksSymbol));
  if (install == nullptr) return false;
  kerntime_end_hooks table{};
  table.size = sizeof table;
  table.leave = &leave_hook;
  table.exec = &exec_hook;
  table.self_signal = &self_signal_hook;
  return install(&table) == 1;
}

bool begin_final_report() {
  int expected = kNotBegun;
  if (!g_final.compare_exchange_strong(expected, kWriting)) return false;
  g_writer.store(current_thread());
  return true;
}

void final_report_written() {
  g_final.store(kWritten);
}

bool final_report_begun() {
  return g_final.load() != kNotBegun;
}

void hook_leave(int) {
  Hooks* hooks = own_hooks();
  if (hooks == nullptr) return;
  const int limit = hooks->limits.report_ms;
  timespec start{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  bool handed = false;
  if (g_final.load() == kNotBegun) {
    handed = leave_through_worker(limit);
    if (!handed && hooks->jobs.finish) hooks->jobs.finish();
  }
  // Another thread's exit() or signal may be writing it: leaving now would cut it short.
  if (g_final.load() == kWriting && g_writer.load() == current_thread()) return;
  if ((handed || g_final.load() != kNotBegun) && !wait_for_final_report(start, limit)) {
    say_unfinished(limit);
  }
}

void hook_exec() {
  if (Hooks* hooks = own_hooks()) snapshot(*hooks, 0);
}

void hook_self_signal(int signal) {
  Hooks* hooks = own_hooks();
  if (hooks == nullptr || !is_ending_signal(signal)) return;
  // Only the default disposition ends the process unseen: a handler (the program's, or
  // kerntime's for SIGTERM, SIGINT and SIGHUP) runs first and has its own way to the report.
  struct sigaction now {};
  if (signal != SIGKILL) {
    if (sigaction(signal, nullptr, &now) != 0) return;
    if ((now.sa_flags & SA_SIGINFO) != 0 || now.sa_handler != SIG_DFL) return;
  }
  // The final report under way on another thread (exit(), a signal's worker) would be cut
  // short by the signal: it waits for the report, as a leaving thread does.
  if (g_final.load() == kWriting) {
    timespec start{};
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (g_writer.load() != current_thread()) wait_for_final_report(start, hooks->limits.report_ms);
    return;
  }
  snapshot(*hooks, signal);
}

bool is_ending_signal(int signal) {
  switch (signal) {
    case SIGHUP:
    case SIGINT:
    case SIGKILL:
    case SIGTERM:
      return true;
    default:
      return false;
  }
}

}  // namespace kerntime::inject
