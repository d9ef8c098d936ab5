// SPDX-License-Identifier: Apache-2.0
// A CUDA program that ends in every way a process can, for run_ends_gpu_test: it launches a
// known number of known kernels (N steps of ends_alpha, ends_beta, ends_beta), synchronizes,
// and then ends as END says, with the work and the end on the main thread or on another one.
// run_ends_gpu_test runs it under `kerntime run` and under the independent reference reader and
// compares the kernels each counted.
//
//   ends_target END main|thread N
//
// END: return exit _exit _Exit exec fork sigterm sigint sighup handler_sigterm handler_sigint
// handler_sighup exception abort segv sigkill, sigterm_busy (a kernel still running at the
// signal), sigkill_busy (20 us kernels launched without a pause until SIGKILL comes after
// 3 s; "launched N" on standard output every 1,000), sigwait_sigterm (a service's way: SIGTERM
// blocked before any thread starts and taken by sigwait(), then exit(6)) and sigwait_late_sigusr1
// (SIGUSR1 blocked by the main thread only after CUDA started, then taken by sigwait()). A signal
// comes from a child made by fork(), as from another process; "handler_*" installs the program's
// own handler first, which says so on standard output, restores the default and sends the signal
// again, so that the signal still ends the process. With "thread", a signal is taken by the thread
// that did the work, while the main thread waits in join() with it blocked.
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <cuda_runtime.h>

extern char** environ;

__global__ void ends_alpha(float* data) {
  if (threadIdx.x == 0) data[blockIdx.x] += 1.0f;
}
__global__ void ends_beta(float* data) {
  if (threadIdx.x == 0) data[blockIdx.x] *= 2.0f;
}
// Spins for `ns` nanoseconds of the GPU's global timer.
__global__ void ends_spin(unsigned long long ns) {
  unsigned long long start = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  unsigned long long now = start;
  while (now - start < ns)
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
}

namespace {

// The steps the program replaced by exec runs: a count of its own, to tell the two apart.
constexpr int kStepsAfterExec = 7;
constexpr int kForkedWorkers = 2;

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "ends_target: %s: %s\n", what, cudaGetErrorString(status));
    std::_Exit(90);
  }
}

// N steps of three kernels, then a synchronize: every kernel has finished.
void work(int steps) {
  float* data = nullptr;
  check(cudaMalloc(&data, 64 * sizeof(float)), "cudaMalloc");
  for (int i = 0; i < steps; ++i) {
    ends_alpha<<<4, 32>>>(data);
    ends_beta<<<4, 32>>>(data);
    ends_beta<<<4, 32>>>(data);
  }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

// Sends `signal` to this process from a child made by fork(), after `delay_ms`: the child is
// another process, as a job scheduler or a terminal is, and leaves through _exit.
void signal_from_outside(int signal, int delay_ms) {
  std::fflush(nullptr);
  const pid_t parent = getpid();
  if (fork() == 0) {
    usleep(static_cast<useconds_t>(delay_ms) * 1000);
    kill(parent, signal);
    _exit(0);
  }
}

[[noreturn]] void wait_for_the_end() {
  for (int i = 0; i < 300; ++i)
    usleep(100'000);
  std::fprintf(stderr, "ends_target: no signal ended the process within 30 s\n");
  std::_Exit(97);
}

void handler_then_default(int signal) {
  static const char said[] = "handler ran\n";
  if (write(STDOUT_FILENO, said, sizeof said - 1) < 0) _exit(98);
  std::signal(signal, SIG_DFL);
  raise(signal);
}

int signal_of(const std::string& end) {
  if (end.find("sigterm") != std::string::npos) return SIGTERM;
  if (end.find("sigint") != std::string::npos) return SIGINT;
  if (end.find("sighup") != std::string::npos) return SIGHUP;
  if (end.find("sigusr1") != std::string::npos) return SIGUSR1;
  if (end.rfind("sigkill", 0) == 0) return SIGKILL;
  return 0;
}

// Runs `body` on this thread or on a new one that this thread waits for.
template <class Body>
void on(bool other_thread, Body body) {
  if (!other_thread) {
    body();
    return;
  }
  std::thread thread{body};
  thread.join();
}

// A process forked before CUDA starts, which starts CUDA, works and leaves through _exit, as
// the workers of a pre-forking server do.
void forked_workers(bool other_thread, int steps) {
  for (int i = 0; i < kForkedWorkers; ++i) {
    std::fflush(nullptr);
    if (fork() == 0) {
      on(other_thread, [&] {
        work(steps);
        _exit(0);
      });
    }
  }
  int status = 0;
  while (wait(&status) > 0) {
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::_Exit(93);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: ends_target END main|thread N\n");
    return 2;
  }
  const std::string end = argv[1];
  const bool other_thread = std::string{argv[2]} == "thread";
  const int steps = std::atoi(argv[3]);
  const int signal = signal_of(end);
  if (end.rfind("handler_", 0) == 0) std::signal(signal, &handler_then_default);
  sigset_t taken;
  sigemptyset(&taken);
  if (signal != 0) sigaddset(&taken, signal);
  const bool waits = end == "sigwait_sigterm";
  // Blocked only after CUDA (and a tool's threads) started, as a program that sets up its signal
  // handling late does: a thread that leaves it unblocked would take it instead of sigwait().
  const bool waits_late = end == "sigwait_late_sigusr1";
  const bool on_worker = other_thread && signal != 0 && !waits && !waits_late;
  // Blocked before CUDA (and its threads, CUPTI's and a tool's) starts, so that only sigwait(),
  // or with "thread" only the thread that did the work, can take it.
  if (waits || on_worker) pthread_sigmask(SIG_BLOCK, &taken, nullptr);

  if (end == "fork") {
    on(other_thread, [&] { forked_workers(other_thread, steps); });
    return 0;
  }
  // Ends that happen where the work happened.
  on(other_thread, [&] {
    work(steps);
    if (end == "exit") std::exit(3);
    if (end == "_exit") _exit(4);
    if (end == "_Exit") _Exit(5);
    if (end == "exec") {
      const std::string next = std::to_string(kStepsAfterExec);
      char* const next_argv[] = {argv[0], const_cast<char*>("return"), argv[2],
                                 const_cast<char*>(next.c_str()), nullptr};
      execve(argv[0], next_argv, environ);
      std::_Exit(94);
    }
    if (end == "exception") throw std::runtime_error("ends_target: nobody catches this");
    if (end == "abort") std::abort();
    if (end == "segv") {
      volatile std::uintptr_t address = 8;  // the compiler cannot know it is unmapped
      *reinterpret_cast<volatile int*>(address) = 1;
    }
    if (end == "sigkill_busy") {
      signal_from_outside(signal, 3000);
      for (unsigned long launched = 1;; ++launched) {
        ends_spin<<<1, 1>>>(20'000ULL);
        if (launched % 1000 == 0) {
          const std::string line = "launched " + std::to_string(launched) + "\n";
          if (write(STDOUT_FILENO, line.data(), line.size()) < 0) std::_Exit(99);
        }
      }
    }
    if (end == "sigterm_busy") {
      // A kernel that runs for two seconds when the signal comes after 0.2.
      ends_spin<<<1, 1>>>(2'000'000'000ULL);
      check(cudaGetLastError(), "ends_spin");
      signal_from_outside(signal, 200);
    } else if (end == "sigkill") {
      // Killed after checkpoints have seen the GPU idle (the test asks for one every 250 ms).
      signal_from_outside(signal, 1500);
    } else if (signal != 0) {
      signal_from_outside(signal, 100);
    }
    if (on_worker) {
      pthread_sigmask(SIG_UNBLOCK, &taken, nullptr);
      wait_for_the_end();
    }
  });
  if (waits_late) pthread_sigmask(SIG_BLOCK, &taken, nullptr);
  if (waits || waits_late) {
    int got = 0;
    if (sigwait(&taken, &got) != 0 || got != signal) std::_Exit(96);
    std::printf("sigwait took signal %d\n", got);
    std::exit(6);
  }
  if (signal != 0) wait_for_the_end();
  if (end != "return") {
    std::fprintf(stderr, "ends_target: unknown end %s\n", end.c_str());
    return 2;
  }
  return 0;
}
