// SPDX-License-Identifier: Apache-2.0
#include "cli/signal_relay.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <kerntime/error.hpp>

namespace kerntime::cli {
namespace {

constexpr int kTerminating[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM};
constexpr int kOthers[] = {SIGWINCH, SIGCONT, SIGTSTP};

// What a terminal sends to its foreground process group (keys, a resize, a hangup).
bool terminal_signal(int signal) {
  return signal == SIGINT || signal == SIGQUIT || signal == SIGTSTP || signal == SIGWINCH ||
         signal == SIGHUP || signal == SIGCONT;
}

bool ignored_at_start(int signal) {
  struct sigaction action {};
  return sigaction(signal, nullptr, &action) == 0 && action.sa_handler == SIG_IGN;
}

// The parent of `pid` from /proc/PID/stat ("PID (COMMAND) STATE PPID ..."; COMMAND may hold
// spaces and parentheses, so the fields are read after the last ')'), or -1.
pid_t parent_of(pid_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  std::FILE* file = std::fopen(path.c_str(), "r");
  if (file == nullptr) return -1;
  char text[1024] = {};
  const std::size_t got = std::fread(text, 1, sizeof text - 1, file);
  std::fclose(file);
  const char* close = std::strrchr(text, ')');
  if (got == 0 || close == nullptr) return -1;
  char state = 0;
  int parent = -1;
  if (std::sscanf(close + 1, " %c %d", &state, &parent) != 2) return -1;
  return parent;
}

// Stops kerntime as SIGTSTP's default action would: the kernel applies its rules (a process
// group no parent shell could continue, an orphaned one, is not stopped), where SIGSTOP would
// stop it regardless.
void stop_as_by_default() {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTSTP);
  raise(SIGTSTP);                            // pending while blocked
  sigprocmask(SIG_UNBLOCK, &stop, nullptr);  // delivered here: the default action
  sigprocmask(SIG_BLOCK, &stop, nullptr);
}

// Takes every pending signal of `set` without acting on it.
void drop_pending(const sigset_t& set) {
  const timespec now{0, 0};
  for (;;) {
    if (sigtimedwait(&set, nullptr, &now) < 0 && errno != EINTR) return;
  }
}

}  // namespace

bool should_forward(const SignalOrigin& origin, const std::function<bool(pid_t)>& sent_by_program) {
  if (origin.code == SI_KERNEL && terminal_signal(origin.signal)) return false;
  const bool has_sender =
      origin.code == SI_USER || origin.code == SI_QUEUE || origin.code == SI_TKILL;
  return !(has_sender && origin.sender > 0 && sent_by_program(origin.sender));
}

bool is_descendant(pid_t pid, pid_t ancestor) {
  // A chain deeper than this is not a program's process tree.
  for (int depth = 0; depth < 256 && pid > 1; ++depth) {
    if (pid == ancestor) return true;
    pid = parent_of(pid);
  }
  return false;
}

SignalRelay::SignalRelay() {
  sigemptyset(&waited_);
  for (const int signal : kTerminating) {
    if (!ignored_at_start(signal)) sigaddset(&waited_, signal);
  }
  for (const int signal : kOthers) {
    if (!ignored_at_start(signal)) sigaddset(&waited_, signal);
  }
  sigaddset(&waited_, SIGCHLD);
  sigprocmask(SIG_BLOCK, &waited_, &previous_mask_);
  // Ignored SIGCHLD (inherited from whoever started kerntime) would reap the program unseen.
  struct sigaction child_action {};
  child_action.sa_handler = SIG_DFL;
  sigemptyset(&child_action.sa_mask);
  sigaction(SIGCHLD, &child_action, &previous_child_action_);
}

SignalRelay::~SignalRelay() {
  sigaction(SIGCHLD, &previous_child_action_, nullptr);
  sigprocmask(SIG_SETMASK, &previous_mask_, nullptr);
}

void SignalRelay::restore_in_child() const noexcept {
  sigaction(SIGCHLD, &previous_child_action_, nullptr);
  sigprocmask(SIG_SETMASK, &previous_mask_, nullptr);
}

int SignalRelay::wait_for(pid_t child) {
  const auto sent_by_program = [child](pid_t sender) { return is_descendant(sender, child); };
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) {
      // What is pending came while the program ran, and was the program's: a Ctrl-C it handled
      // before it exited must not end kerntime's merge too.
      drop_pending(waited_);
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
      return 1;
    }
    if (done < 0 && errno != EINTR) {
      throw Error(std::string{"cannot wait for the program: "} + std::strerror(errno));
    }
    // SIGCHLD wakes this when the program ends; the timeout only guards against a lost one.
    siginfo_t info{};
    const timespec second{1, 0};
    const int signal = sigtimedwait(&waited_, &info, &second);
    if (signal <= 0 || signal == SIGCHLD) continue;
    if (should_forward({signal, info.si_code, info.si_pid}, sent_by_program)) kill(child, signal);
    if (signal == SIGTSTP) stop_as_by_default();
  }
}

int SignalRelay::take_terminating_signal() {
  for (;;) {
    const timespec now{0, 0};
    const int signal = sigtimedwait(&waited_, nullptr, &now);
    if (signal < 0 && errno == EINTR) continue;
    if (signal <= 0) return 0;
    if (signal == SIGTSTP) stop_as_by_default();
    for (const int terminating : kTerminating) {
      if (signal == terminating) return signal;
    }
  }
}

void end_by_signal(int signal) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal, &default_action, nullptr);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal);
  sigprocmask(SIG_UNBLOCK, &only, nullptr);
  raise(signal);
  std::_Exit(128 + signal);
}

}  // namespace kerntime::cli
