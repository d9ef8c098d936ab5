// SPDX-License-Identifier: Apache-2.0
// libkerntime_preload.so: what `kerntime run` puts in LD_PRELOAD (end_hook_abi.hpp says why).
// It goes into every process of the program, the shell and `timeout` as much as Python, so it
// is small and touches nothing but libc: no CUDA, no C++ runtime, no allocation, no locks. The
// real functions are looked up once when it loads, so that a vfork() child, which shares its
// parent's memory and may call exec or _exit at once, never enters the dynamic linker here.
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <cstddef>
#include <cstdlib>
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "inject/end_hook_abi.hpp"

namespace {

using ExitFn = void (*)(int);
using ExecveFn = int (*)(const char*, char* const[], char* const[]);
using ExecvFn = int (*)(const char*, char* const[]);
using FexecveFn = int (*)(int, char* const[], char* const[]);
using ExecveatFn = int (*)(int, const char*, char* const[], char* const[], int);
using KillFn = int (*)(pid_t, int);
using RaiseFn = int (*)(int);

struct Real {
  ExitFn exit_ = nullptr;
  ExitFn exit_upper = nullptr;
  ExitFn quick_exit = nullptr;
  ExecveFn execve = nullptr;
  ExecvFn execv = nullptr;
  ExecvFn execvp = nullptr;
  ExecveFn execvpe = nullptr;
  FexecveFn fexecve = nullptr;
  ExecveatFn execveat = nullptr;
  KillFn kill = nullptr;
  RaiseFn raise = nullptr;
};
Real g_real;

std::atomic<void (*)(int)> g_leave{nullptr};
std::atomic<void (*)()> g_exec{nullptr};
std::atomic<void (*)(int)> g_self_signal{nullptr};

template <class Fn>
Fn next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

__attribute__((constructor)) void resolve_real_functions() {
  g_real.exit_ = next<ExitFn>("_exit");
  g_real.exit_upper = next<ExitFn>("_Exit");
  g_real.quick_exit = next<ExitFn>("quick_exit");
  g_real.execve = next<ExecveFn>("execve");
  g_real.execv = next<ExecvFn>("execv");
  g_real.execvp = next<ExecvFn>("execvp");
  g_real.execvpe = next<ExecveFn>("execvpe");
  g_real.fexecve = next<FexecveFn>("fexecve");
  g_real.execveat = next<ExecveatFn>("execveat");  // glibc 2.34 and later
  g_real.kill = next<KillFn>("kill");
  g_real.raise = next<RaiseFn>("raise");
}

void before_leaving(int status) {
  if (auto hook = g_leave.load(std::memory_order_acquire)) hook(status);
}

void before_exec() {
  if (auto hook = g_exec.load(std::memory_order_acquire)) hook();
}

[[noreturn]] void leave(ExitFn real, int status) {
  if (real != nullptr) real(status);
  for (;;)
    syscall(SYS_exit_group, status);  // what glibc's _exit does
}

int missing() {
  errno = ENOSYS;
  return -1;
}

int call_execv(const char* path, char* const argv[]) {
  before_exec();
  return g_real.execv != nullptr ? g_real.execv(path, argv) : missing();
}

int call_execvp(const char* file, char* const argv[]) {
  before_exec();
  return g_real.execvp != nullptr ? g_real.execvp(file, argv) : missing();
}

int call_execve(const char* path, char* const argv[], char* const envp[]) {
  before_exec();
  return g_real.execve != nullptr ? g_real.execve(path, argv, envp) : missing();
}

// The arguments after `first` up to the terminating null pointer, as execv takes them; `args`
// has room for count_arguments() + 1 pointers.
std::size_t count_arguments(va_list list) {
  std::size_t count = 1;
  while (va_arg(list, const char*) != nullptr)
    ++count;
  return count;
}

void collect_arguments(const char* first, va_list list, std::size_t count, const char** args) {
  args[0] = first;
  for (std::size_t i = 1; i < count; ++i)
    args[i] = va_arg(list, const char*);
  args[count] = nullptr;
}

}  // namespace

#define KERNTIME_EXPORT extern "C" __attribute__((visibility("default")))

KERNTIME_EXPORT int kerntime_install_end_hooks_v1(const kerntime_end_hooks* hooks) {
  const unsigned long size = hooks != nullptr ? hooks->size : 0;
  auto field = [&](std::size_t end_offset) { return size >= end_offset; };
  g_leave.store(hooks != nullptr && field(offsetof(kerntime_end_hooks, leave) + sizeof(void*))
                    ? hooks->leave
                    : nullptr,
                std::memory_order_release);
  g_exec.store(hooks != nullptr && field(offsetof(kerntime_end_hooks, exec) + sizeof(void*))
                   ? hooks->exec
                   : nullptr,
               std::memory_order_release);
  g_self_signal.store(
      hooks != nullptr && field(offsetof(kerntime_end_hooks, self_signal) + sizeof(void*))
          ? hooks->self_signal
          : nullptr,
      std::memory_order_release);
  return 1;
}

KERNTIME_EXPORT void _exit(int status) {
  before_leaving(status);
  leave(g_real.exit_, status);
}

KERNTIME_EXPORT void _Exit(int status) {
  before_leaving(status);
  leave(g_real.exit_upper, status);
}

// quick_exit runs the at_quick_exit handlers, then leaves through glibc's own _exit, which no
// preload can reach; the report is written before those handlers, as it would be for exit().
KERNTIME_EXPORT void quick_exit(int status) {
  before_leaving(status);
  leave(g_real.quick_exit, status);
}

KERNTIME_EXPORT int execve(const char* path, char* const argv[], char* const envp[]) {
  return call_execve(path, argv, envp);
}

KERNTIME_EXPORT int execv(const char* path, char* const argv[]) {
  return call_execv(path, argv);
}

KERNTIME_EXPORT int execvp(const char* file, char* const argv[]) {
  return call_execvp(file, argv);
}

KERNTIME_EXPORT int execvpe(const char* file, char* const argv[], char* const envp[]) {
  before_exec();
  return g_real.execvpe != nullptr ? g_real.execvpe(file, argv, envp) : missing();
}

KERNTIME_EXPORT int fexecve(int fd, char* const argv[], char* const envp[]) {
  before_exec();
  return g_real.fexecve != nullptr ? g_real.fexecve(fd, argv, envp) : missing();
}

KERNTIME_EXPORT int execveat(int dirfd, const char* path, char* const argv[], char* const envp[],
                             int flags) {
  before_exec();
  return g_real.execveat != nullptr ? g_real.execveat(dirfd, path, argv, envp, flags) : missing();
}

// glibc's execl, execlp and execle reach execve inside libc, past any preload: each is
// rebuilt here on its v counterpart. The arguments after `arg` go to an array on the caller's
// frame (alloca: no allocation, which a vfork child must not do), and `list` stays open after
// the terminating null, for execle's environment.
#define KERNTIME_ARGUMENTS_AFTER(arg, list, args)                                      \
  va_list list;                                                                        \
  va_start(list, arg);                                                                 \
  const std::size_t args##_count = count_arguments(list);                              \
  va_end(list);                                                                        \
  auto** args = static_cast<const char**>(alloca((args##_count + 1) * sizeof(char*))); \
  va_start(list, arg);                                                                 \
  collect_arguments(arg, list, args##_count, args)

KERNTIME_EXPORT int execl(const char* path, const char* arg, ...) {
  KERNTIME_ARGUMENTS_AFTER(arg, list, args);
  va_end(list);
  return call_execv(path, const_cast<char* const*>(args));
}

KERNTIME_EXPORT int execlp(const char* file, const char* arg, ...) {
  KERNTIME_ARGUMENTS_AFTER(arg, list, args);
  va_end(list);
  return call_execvp(file, const_cast<char* const*>(args));
}

KERNTIME_EXPORT int execle(const char* path, const char* arg, ...) {
  KERNTIME_ARGUMENTS_AFTER(arg, list, args);
  char* const* envp = va_arg(list, char* const*);
  va_end(list);
  return call_execve(path, const_cast<char* const*>(args), envp);
}

// A signal the process sends to itself: a program's handler that restores the default and
// sends its signal again (Python's exit on an unhandled KeyboardInterrupt does this).
KERNTIME_EXPORT int kill(pid_t pid, int signal) {
  if (signal > 0) {
    auto hook = g_self_signal.load(std::memory_order_acquire);
    if (hook != nullptr && (pid == 0 || pid == getpid() || (pid < -1 && -pid == getpgrp()))) {
      hook(signal);
    }
  }
  return g_real.kill != nullptr ? g_real.kill(pid, signal)
                                : static_cast<int>(syscall(SYS_kill, pid, signal));
}

KERNTIME_EXPORT int raise(int signal) {
  if (signal > 0) {
    if (auto hook = g_self_signal.load(std::memory_order_acquire)) hook(signal);
  }
  return g_real.raise != nullptr ? g_real.raise(signal) : missing();
}
