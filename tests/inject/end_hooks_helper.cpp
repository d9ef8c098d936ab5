// SPDX-License-Identifier: Apache-2.0
// A program for end_hooks_test, without CUDA: it starts kerntime's report worker and end hooks
// with jobs that append a line to a file instead of writing a report, then ends the way MODE
// says, on the main thread or on another one. end_hooks_test runs it with and without
// libkerntime_preload.so in LD_PRELOAD and reads the lines and the exit status.
//
//   end_hooks_helper LINES_FILE MODE main|thread [LIMIT_MS]
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "inject/end_hooks.hpp"
#include "inject/signal_worker.hpp"

namespace {

using namespace kerntime::inject;

int g_lines = -1;

// One write(2) per line: the jobs run on the worker, in signal handlers' waits, in children.
void line(const std::string& text) {
  const std::string whole = text + "\n";
  if (write(g_lines, whole.data(), whole.size()) < 0) std::abort();
}

// As the injection library's finish(): once per process, whichever end comes first.
void final_report(const std::string& how) {
  if (!begin_final_report()) return;
  if (std::getenv("END_HOOKS_SLOW_FINAL") != nullptr) usleep(300'000);
  line(how);
  final_report_written();
}

bool interposed() {
  Dl_info info{};
  void* address = dlsym(RTLD_DEFAULT, "_exit");
  return address != nullptr && dladdr(address, &info) != 0 && info.dli_fname != nullptr &&
         std::strstr(info.dli_fname, "libkerntime_preload") != nullptr;
}

void start(int limit_ms) {
  WorkerJobs jobs;
  jobs.terminate = [](int signal) { final_report("terminate " + std::to_string(signal)); };
  jobs.leave = [] {
    if (std::getenv("END_HOOKS_HANG") != nullptr) pause();  // a driver that never returns
    final_report("leave");
  };
  jobs.snapshot = [](int signal) { line("snapshot " + std::to_string(signal)); };
  if (!start_report_worker(std::move(jobs), WorkerLimits{})) std::exit(80);
  EndJobs ends;
  ends.finish = [] { final_report("finish inline"); };
  ends.snapshot = [](int signal) { line("snapshot inline " + std::to_string(signal)); };
  EndLimits limits;
  limits.report_ms = limit_ms;
  const bool installed = install_end_hooks(std::move(ends), limits);
  line(std::string{"hooks "} + (installed ? "installed" : "absent") + ", _exit " +
       (interposed() ? "interposed" : "libc's"));
  std::atexit([] { final_report("atexit"); });
}

void handler_that_sends_again(int signal) {
  std::signal(signal, SIG_DFL);
  kill(getpid(), signal);
}

void handler_that_leaves(int) {
  _exit(9);
}

[[noreturn]] void end(const std::string& mode) {
  if (mode == "_exit") _exit(3);
  if (mode == "_Exit") _Exit(4);
  if (mode == "quick_exit") std::quick_exit(5);
  if (mode == "exit") std::exit(6);
  if (mode == "exec") {
    execl("/bin/sh", "sh", "-c", "exit 7", static_cast<char*>(nullptr));
    std::_Exit(81);
  }
  if (mode == "exec_fails") {  // the exec fails, the program goes on and leaves
    char* const argv[] = {const_cast<char*>("none"), nullptr};
    execv("/no/such/program", argv);
    line(std::string{"exec failed: "} + std::strerror(errno));
    _exit(8);
  }
  if (mode == "fork") {  // a child made by fork() alone leaves through _exit, then the parent
    std::fflush(nullptr);
    const pid_t child = fork();
    if (child == 0) _exit(0);
    int status = 0;
    waitpid(child, &status, 0);
    line("child status " + std::to_string(WEXITSTATUS(status)));
    _exit(10);
  }
  if (mode == "vfork") {  // a vfork() child execs, as posix_spawn and CPython's subprocess do
    const pid_t child = vfork();
    if (child == 0) {
      execl("/bin/sh", "sh", "-c", "exit 0", static_cast<char*>(nullptr));
      _exit(82);
    }
    int status = 0;
    waitpid(child, &status, 0);
    line("child status " + std::to_string(WEXITSTATUS(status)));
    _exit(11);
  }
  if (mode == "term_default") {  // the default disposition restored, then the signal raised
    std::signal(SIGTERM, SIG_DFL);
    raise(SIGTERM);
  }
  if (mode == "term_handler") {  // a handler that restores the default and sends it again
    std::signal(SIGTERM, &handler_that_sends_again);
    kill(getpid(), SIGTERM);
    pause();
  }
  if (mode == "handler_leaves") {  // a handler that calls _exit
    std::signal(SIGHUP, &handler_that_leaves);
    raise(SIGHUP);
    pause();
  }
  if (mode == "term_kerntime") {  // SIGTERM with kerntime's own handler: the worker writes
    raise(SIGTERM);
    pause();
  }
  if (mode == "signal_while_exiting") {  // exit() writes slowly, then a signal comes
    std::thread{[] { std::exit(14); }}.detach();
    usleep(50'000);
    std::signal(SIGTERM, SIG_DFL);  // as kerntime's handler does before it re-raises
    raise(SIGTERM);
    pause();
  }
  if (mode == "exit_while_leaving") {  // exit() writes slowly on another thread meanwhile
    std::thread{[] { std::exit(12); }}.detach();
    usleep(50'000);
    _exit(13);
  }
  line("unknown mode " + mode);
  std::_Exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  g_lines = open(argv[1], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (g_lines < 0) return 2;
  start(argc > 4 ? std::atoi(argv[4]) : 10'000);
  const std::string mode = argv[2];
  if (std::string{argv[3]} == "thread") {
    std::thread other{[mode] { end(mode); }};
    other.join();
    return 83;  // the end never returns
  }
  end(mode);
}
