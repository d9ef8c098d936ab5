// SPDX-License-Identifier: Apache-2.0
// The registry is what a signal handler may touch: fixed slots in static storage (no
// allocation, no lock), lock-free atomics, and only async-signal-safe calls (unlink, getpid,
// sigaction, sigpending, raise).
#include "io/temporary_files.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <unistd.h>

#include <climits>

namespace kerntime::io {
namespace {

constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP};
constexpr int kSignalCount = 3;

// More temporary files than any kerntime process writes at once (one per output, and the
// injection library's one report); past it a file is written, but not removed on a signal.
constexpr int kSlots = 32;

enum SlotState : int { kFree = 0, kClaimed = 1, kArmed = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  std::atomic<pid_t> owner{0};  // a child made by fork() must not remove its parent's files
  char path[PATH_MAX] = {};
};

// Constant-initialized (every member has a constant initializer), so no static constructor can
// run after a registration made by another one and wipe it.
Slot g_slots[kSlots];

// While a handler removes files, no slot is claimed anew: a path being read by unlink(2) is
// never overwritten by a registration in another thread.
std::atomic<int> g_removing{0};

// The handlers replaced, by the index of their signal in kSignals.
struct sigaction g_previous[kSignalCount];

int index_of(int signal) {
  for (int i = 0; i < kSignalCount; ++i) {
    if (kSignals[i] == signal) return i;
  }
  return -1;
}

bool is_function(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) != 0
             ? action.sa_sigaction != nullptr
             : action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN;
}

void remove_registered_files() {
  g_removing.fetch_add(1);
  const pid_t self = ::getpid();
  for (Slot& slot : g_slots) {
    if (slot.state.load() == kArmed && slot.owner.load() == self) ::unlink(slot.path);
  }
  g_removing.fetch_sub(1);
}

// Whether the process ends when this handler returns: the signal is pending (raised again by a
// handler that ran, it is blocked until this one returns) and its action is the default one.
bool about_to_end(int signal) {
  struct sigaction now {};
  if (::sigaction(signal, nullptr, &now) != 0) return false;
  if ((now.sa_flags & SA_SIGINFO) != 0 || now.sa_handler != SIG_DFL) return false;
  sigset_t pending;
  sigemptyset(&pending);
  return ::sigpending(&pending) == 0 && sigismember(&pending, signal) == 1;
}

void on_terminating_signal(int signal, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const int i = index_of(signal);
  if (i >= 0 && is_function(g_previous[i])) {
    const struct sigaction& previous = g_previous[i];
    if ((previous.sa_flags & SA_SIGINFO) != 0) {
      previous.sa_sigaction(signal, info, context);
    } else {
      previous.sa_handler(signal);
    }
    if (about_to_end(signal)) remove_registered_files();
  } else if (i < 0 || g_previous[i].sa_handler != SIG_IGN) {
    remove_registered_files();
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    ::sigaction(signal, &fallback, nullptr);
    ::raise(signal);  // blocked while this handler runs: it ends the process when it returns
  }
  errno = saved_errno;
}

void install_handlers() {
  for (int i = 0; i < kSignalCount; ++i) {
    struct sigaction current {};
    if (::sigaction(kSignals[i], nullptr, &current) != 0) continue;
    if ((current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN) continue;
    g_previous[i] = current;
    struct sigaction ours {};
    ours.sa_sigaction = &on_terminating_signal;
    // The handler chained to runs as it did: with its own mask and on its own stack, and the
    // calls it interrupts restarted or not as before.
    ours.sa_mask = current.sa_mask;
    for (const int signal : kSignals)
      sigaddset(&ours.sa_mask, signal);
    ours.sa_flags =
        SA_SIGINFO |
        (is_function(current) ? current.sa_flags & (SA_RESTART | SA_ONSTACK) : SA_RESTART);
    ::sigaction(kSignals[i], &ours, nullptr);
  }
}

int claim_slot(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kClaimed)) continue;
    if (g_removing.load() != 0) {  // a handler is reading the slots: leave them be
      g_slots[i].state.store(kFree);
      return -1;
    }
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].owner.store(::getpid());
    g_slots[i].state.store(kArmed);
    return i;
  }
  return -1;
}

}  // namespace

int create_registered_temporary_file(std::string& path, int& slot) {
  static std::once_flag installed;
  std::call_once(installed, &install_handlers);
  // A signal to this thread between the file's creation and its registration would leave it:
  // the three signals wait until it is registered.
  sigset_t terminating;
  sigset_t previous_mask;
  sigemptyset(&terminating);
  for (const int signal : kSignals)
    sigaddset(&terminating, signal);
  ::pthread_sigmask(SIG_BLOCK, &terminating, &previous_mask);
  const int fd = ::mkostemp(path.data(), O_CLOEXEC);
  const int error = errno;
  slot = fd >= 0 ? claim_slot(path) : -1;
  ::pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
  errno = error;
  return fd;
}

void unregister_temporary_file(int slot) {
  if (slot >= 0 && slot < kSlots) g_slots[slot].state.store(kFree);
}

}  // namespace kerntime::io
