// SPDX-License-Identifier: Apache-2.0
#include "inject/signal_worker.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <ctime>
#include <exception>
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

#include <climits>

#include "io/program_signals_blocked.hpp"

namespace kerntime::inject {
namespace {

constexpr int kTerminating[] = {SIGTERM, SIGINT, SIGHUP};
constexpr int kFatal[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};

// Stages of the worker's answer to a signal, which the handlers wait for.
constexpr int kCrashReportWritten = 1;
constexpr int kDone = 2;  // the final report is written, or the worker is gone

constexpr std::int64_t kCheckpointWaitFactor = 9;

struct Worker {
  WorkerJobs jobs;
  WorkerLimits limits;
  pid_t pid = 0;  // a child made by fork() alone inherits this state, not the thread
  int wake[2] = {-1, -1};
  std::thread thread;
  std::atomic<pid_t> worker_thread{0};
  std::atomic<bool> running{false};
  std::atomic<int> signal{0};
  std::atomic<bool> fatal{false};
  std::atomic<int> stage{0};
  std::atomic<bool> leaving{false};  // a leave was handed over
  // A terminating signal's handler let its thread go before the report was written: the worker
  // ends the process with that signal once it is.
  std::atomic<bool> ends_process{false};
  std::atomic<std::uint64_t> snapshots_asked{0};
  std::atomic<std::uint64_t> snapshots_done{0};
  std::atomic<int> snapshot_signal{0};
  struct sigaction previous[NSIG] = {};  // the fatal signals' handlers before kerntime's
};

// Leaked on purpose: signal handlers and atexit handlers may run after static destructors.
std::atomic<Worker*> g_worker{nullptr};

pid_t current_thread() {
  return static_cast<pid_t>(syscall(SYS_gettid));
}

// Whether this handler should hand its signal to the worker: the worker runs, in this process
// (not in a fork() child), and this is not the worker itself (it cannot wait for itself).
Worker* worker_for_handler() {
  Worker* worker = g_worker.load();
  if (worker == nullptr || getpid() != worker->pid || !worker->running.load()) return nullptr;
  if (worker->worker_thread.load() == current_thread()) return nullptr;
  return worker;
}

long elapsed_ms(const timespec& since) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (now.tv_sec - since.tv_sec) * 1000 + (now.tv_nsec - since.tv_nsec) / 1'000'000;
}

// Async-signal-safe: polls the atomic, sleeping 2 ms between looks. limit_ms < 0: no limit.
bool wait_for_stage(const Worker& worker, int stage, int limit_ms) {
  timespec start{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (worker.stage.load() < stage) {
    if (limit_ms >= 0 && elapsed_ms(start) > limit_ms) return false;
    timespec pause{0, 2'000'000};
    nanosleep(&pause, nullptr);
  }
  return true;
}

// Claims the worker for `signal`; false when another signal came first (its work then covers
// this one too).
bool hand_over(Worker& worker, int signal, bool fatal, char job) {
  int none = 0;
  if (!worker.signal.compare_exchange_strong(none, signal)) return false;
  worker.fatal.store(fatal);
  if (write(worker.wake[1], &job, 1) != 1) {
    worker.stage.store(kDone);  // no worker will answer
  }
  return true;
}

void end_with(int signal) {
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  raise(signal);  // blocked while this handler runs: delivered when it returns
}

// The worker blocks the terminating signals, so raise() would wait forever: the signal goes to
// the process, to a thread that takes it. A process where every thread blocks it exits with the
// status a shell gives a signal's death.
void end_process_from_worker(int signal) {
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  kill(getpid(), signal);
  timespec pause{1, 0};
  nanosleep(&pause, nullptr);
  _exit(128 + signal);
}

void on_terminating_signal(int signal) {
  const int saved_errno = errno;
  if (Worker* worker = worker_for_handler()) {
    hand_over(*worker, signal, false, 't');
    // Waiting here, instead of returning, keeps the program's interrupted call (a sleep, a
    // read) from carrying on as if nothing happened.
    const bool fatal = worker->fatal.load();
    if (!wait_for_stage(*worker, kDone,
                        fatal ? worker->limits.crash_final_ms : worker->limits.terminate_hold_ms) &&
        !fatal) {
      // The interrupted call may be a CUDA call holding the lock that the report's final
      // synchronization or flush waits for: it goes on, and the worker ends the process.
      worker->ends_process.store(true);
      if (worker->stage.load() < kDone) {
        errno = saved_errno;
        return;
      }
    }
  }
  end_with(signal);
  errno = saved_errno;
}

// The program's own handler, if it had one, runs first. One that returns and leaves the
// disposition alone has dealt with the signal (a runtime that handles its own faults), and the
// program carries on; anything else ends the process, with kerntime's report written first.
void on_fatal_signal(int signal, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  Worker* any = g_worker.load();
  if (any != nullptr && signal > 0 && signal < NSIG) {
    const struct sigaction& previous = any->previous[signal];
    const bool has_handler = (previous.sa_flags & SA_SIGINFO) != 0
                                 ? previous.sa_sigaction != nullptr
                                 : previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN;
    if (has_handler) {
      if ((previous.sa_flags & SA_SIGINFO) != 0) {
        previous.sa_sigaction(signal, info, context);
      } else {
        previous.sa_handler(signal);
      }
      struct sigaction now {};
      sigaction(signal, nullptr, &now);
      const bool still_ours =
          (now.sa_flags & SA_SIGINFO) != 0 && now.sa_sigaction == &on_fatal_signal;
      if (still_ours && signal != SIGABRT) {  // abort() ends the process after any handler
        errno = saved_errno;
        return;
      }
    }
  }
  if (Worker* worker = worker_for_handler()) {
    hand_over(*worker, signal, true, 'f');
    if (worker->fatal.load()) {
      if (wait_for_stage(*worker, kCrashReportWritten, worker->limits.crash_report_ms)) {
        wait_for_stage(*worker, kDone, worker->limits.crash_final_ms);
      }
    } else {
      wait_for_stage(*worker, kDone, worker->limits.crash_final_ms);  // a SIGTERM's report
    }
  }
  end_with(signal);
  errno = saved_errno;
}

// The worker of this process, for a call that hands it work and waits (not from the worker).
Worker* worker_to_hand_to() {
  Worker* worker = g_worker.load();
  if (worker == nullptr || getpid() != worker->pid) return nullptr;
  if (worker->worker_thread.load() == current_thread()) return nullptr;
  return worker;
}

void run_job(const std::function<void(int)>& job, int signal) {
  if (!job) return;
  try {
    job(signal);
  } catch (...) {
    // The job reports its own failures; the handler waiting for it must still be answered.
  }
}

// Milliseconds of the steady clock, for the worker's own timing (not a signal handler's).
std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <class Job>
void run_quietly(const Job& job) {
  try {
    job();
  } catch (...) {
    // A checkpoint or a tick that failed is tried again next time.
  }
}

// A terminating signal asked the process to end, and its final report may wait forever (a
// synchronization with a kernel that never ends, or a lock inside CUPTI): past
// terminate_final_ms a report is written from memory, and the process ends with the signal.
void watch_final_report(Worker* worker, int signal) {
  if (wait_for_stage(*worker, kDone, worker->limits.terminate_final_ms)) return;
  if (worker->jobs.terminate_overdue) {
    // On a thread of its own: the worker may hold nothing it needs, but it must not block this
    // watch, which ends the process whatever happens.
    auto* written = new std::atomic<bool>{false};  // leaked: the thread may outlive the wait
    try {
      std::thread{[worker, signal, written] {
        run_job(worker->jobs.terminate_overdue, signal);
        written->store(true);
      }}.detach();
      timespec start{};
      clock_gettime(CLOCK_MONOTONIC, &start);
      while (!written->load() && elapsed_ms(start) <= worker->limits.crash_report_ms &&
             worker->stage.load() < kDone) {
        timespec pause{0, 2'000'000};
        nanosleep(&pause, nullptr);
      }
    } catch (const std::exception&) {
      // No thread: the process ends without the report from memory.
    }
  }
  if (worker->stage.load() >= kDone) return;  // the worker or the handler ends the process
  end_process_from_worker(signal);
}

void work(Worker* worker) {
  pthread_setname_np(pthread_self(), "kerntime-work");  // as the reader thread is named
  worker->worker_thread.store(current_thread());
  const std::int64_t interval = static_cast<std::int64_t>(
      std::min<std::uint64_t>(worker->limits.checkpoint_interval_ms, INT_MAX));
  std::int64_t next_checkpoint = interval > 0 ? now_ms() + interval : -1;
  bool ticking = static_cast<bool>(worker->jobs.tick) && worker->limits.tick_ms > 0;
  while (worker->running.load()) {
    int timeout = next_checkpoint < 0
                      ? -1
                      : static_cast<int>(std::max<std::int64_t>(0, next_checkpoint - now_ms()));
    if (ticking)
      timeout = timeout < 0 ? worker->limits.tick_ms : std::min(timeout, worker->limits.tick_ms);
    pollfd wake{worker->wake[0], POLLIN, 0};
    const int ready = poll(&wake, 1, timeout);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (worker->signal.load() != 0 || worker->leaving.load()) continue;
      if (ticking) {
        run_quietly([&] { ticking = worker->jobs.tick(); });
      }
      if (next_checkpoint >= 0 && now_ms() >= next_checkpoint) {
        const std::int64_t began = now_ms();
        if (worker->jobs.checkpoint) run_quietly(worker->jobs.checkpoint);
        // A checkpoint that takes long (the report of many kernel names) waits nine times as
        // long before the next: the worker takes at most a tenth of a CPU from the program.
        const std::int64_t took = now_ms() - began;
        next_checkpoint = now_ms() + std::max(interval, kCheckpointWaitFactor * took);
      }
      continue;
    }
    char job = 0;
    if (ready < 0 || read(worker->wake[0], &job, 1) != 1 || job == 'q') break;
    const int signal = worker->signal.load();
    if (job == 't') {
      try {
        std::thread{&watch_final_report, worker, signal}.detach();
      } catch (const std::exception&) {
        // Without the watch, the report is waited for as long as it takes.
      }
      run_job(worker->jobs.terminate, signal);
      break;
    }
    if (job == 'f') {
      run_job(worker->jobs.crash_report, signal);
      worker->stage.store(kCrashReportWritten);
      run_job(worker->jobs.crash_final, signal);
      break;
    }
    if (job == 'e') {
      run_quietly([&] {
        if (worker->jobs.leave) worker->jobs.leave();
      });
      break;
    }
    if (job == 's') {
      // One snapshot answers every request made before it starts.
      const std::uint64_t asked = worker->snapshots_asked.load();
      if (worker->snapshots_done.load() < asked) {
        run_job(worker->jobs.snapshot, worker->snapshot_signal.load());
        worker->snapshots_done.store(asked);
      }
      if (interval > 0) next_checkpoint = now_ms() + interval;
    }
  }
  worker->running.store(false);
  worker->stage.store(kDone);
  if (worker->ends_process.load() && worker->signal.load() > 0) {
    end_process_from_worker(worker->signal.load());
  }
}

void install_handlers(Worker& worker) {
  struct sigaction terminating {};
  terminating.sa_handler = &on_terminating_signal;
  sigemptyset(&terminating.sa_mask);
  for (const int signal : kTerminating)
    sigaddset(&terminating.sa_mask, signal);
  for (const int signal : kTerminating) {
    struct sigaction current {};
    if (sigaction(signal, nullptr, &current) != 0) continue;
    // A program that handles these itself ends through exit(), and the atexit handler writes.
    if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO) != 0) continue;
    sigaction(signal, &terminating, nullptr);
  }
  struct sigaction fatal {};
  fatal.sa_sigaction = &on_fatal_signal;
  fatal.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&fatal.sa_mask);
  // No terminating signal may run its (waiting) handler on top of this one.
  for (const int signal : kTerminating)
    sigaddset(&fatal.sa_mask, signal);
  for (const int signal : kFatal)
    sigaction(signal, &fatal, &worker.previous[signal]);
}

}  // namespace

bool start_report_worker(WorkerJobs jobs, const WorkerLimits& limits) {
  if (g_worker.load() != nullptr) return false;
  auto* worker = new Worker;
  worker->jobs = std::move(jobs);
  worker->limits = limits;
  worker->pid = getpid();
  if (pipe(worker->wake) != 0) {
    delete worker;
    return false;
  }
  worker->running.store(true);
  try {
    // The worker must never run a terminating signal's handler (that handler waits for it), nor
    // take any signal the program directs at the process.
    const io::ProgramSignalsBlocked quiet_thread;
    worker->thread = std::thread{&work, worker};
  } catch (const std::exception&) {
    close(worker->wake[0]);
    close(worker->wake[1]);
    delete worker;
    return false;
  }
  g_worker.store(worker);
  install_handlers(*worker);
  return true;
}

void stop_report_worker() {
  Worker* worker = g_worker.load();
  if (worker == nullptr || getpid() != worker->pid) return;
  if (worker->worker_thread.load() == current_thread()) {
    worker->running.store(false);  // the worker leaves when its job returns
    return;
  }
  if (!worker->thread.joinable()) return;
  const char quit = 'q';
  if (write(worker->wake[1], &quit, 1) < 0) {
    worker->running.store(false);  // it leaves at its next checkpoint
  }
  worker->thread.join();
}

bool leave_through_worker(int limit_ms) {
  Worker* worker = worker_to_hand_to();
  if (worker == nullptr || !worker->running.load()) return false;
  bool none = false;
  // A signal already being answered, or another thread's leave, writes the same final report.
  if (worker->signal.load() == 0 && worker->leaving.compare_exchange_strong(none, true)) {
    const char job = 'e';
    if (write(worker->wake[1], &job, 1) != 1) return false;
  }
  wait_for_stage(*worker, kDone, limit_ms);
  return true;
}

bool snapshot_through_worker(int signal, int limit_ms) {
  Worker* worker = worker_to_hand_to();
  if (worker == nullptr || !worker->running.load()) return false;
  worker->snapshot_signal.store(signal);
  const std::uint64_t ticket = worker->snapshots_asked.fetch_add(1) + 1;
  const char job = 's';
  if (write(worker->wake[1], &job, 1) != 1) return false;
  timespec start{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (worker->snapshots_done.load() < ticket && worker->stage.load() < kDone) {
    if (limit_ms >= 0 && elapsed_ms(start) > limit_ms) break;
    timespec pause{0, 1'000'000};
    nanosleep(&pause, nullptr);
  }
  return true;
}

int received_signal() {
  const Worker* worker = g_worker.load();
  return worker != nullptr ? worker->signal.load() : 0;
}

bool received_fatal_signal() {
  const Worker* worker = g_worker.load();
  return worker != nullptr && worker->signal.load() != 0 && worker->fatal.load();
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGABRT:
      return "SIGABRT";
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

}  // namespace kerntime::inject
