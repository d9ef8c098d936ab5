// SPDX-License-Identifier: Apache-2.0
// The mask kerntime's threads start with: every signal a process can be sent is blocked on them,
// the faults they may raise themselves are not, and the starting thread gets its mask back.
#include "io/program_signals_blocked.hpp"

#include <csignal>
#include <pthread.h>
#include <thread>

#include <gtest/gtest.h>

namespace kerntime::io {
namespace {

sigset_t current_mask() {
  sigset_t mask;
  pthread_sigmask(SIG_BLOCK, nullptr, &mask);
  return mask;
}

TEST(ProgramSignalsBlocked, AThreadStartedUnderItTakesNoSignalOfTheProgramButItsOwnFaults) {
  sigset_t seen;
  sigemptyset(&seen);
  {
    const ProgramSignalsBlocked quiet;
    std::thread{[&] { seen = current_mask(); }}.join();
  }
  for (const int signal : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD,
                           SIGPIPE, SIGWINCH, SIGABRT, SIGRTMIN}) {
    EXPECT_EQ(sigismember(&seen, signal), 1) << signal;
  }
  for (const int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS})
    EXPECT_EQ(sigismember(&seen, signal), 0) << signal;
}

TEST(ProgramSignalsBlocked, TheStartingThreadGetsItsOwnMaskBack) {
  sigset_t usr2;
  sigemptyset(&usr2);
  sigaddset(&usr2, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &usr2, nullptr);  // the program's own choice, kept
  const sigset_t before = current_mask();
  { const ProgramSignalsBlocked quiet; }
  const sigset_t after = current_mask();
  for (int signal = 1; signal < NSIG; ++signal)
    EXPECT_EQ(sigismember(&after, signal), sigismember(&before, signal)) << signal;
  EXPECT_EQ(sigismember(&after, SIGTERM), 0);
  EXPECT_EQ(sigismember(&after, SIGUSR2), 1);
  pthread_sigmask(SIG_UNBLOCK, &usr2, nullptr);
}

}  // namespace
}  // namespace kerntime::io
