// SPDX-License-Identifier: Apache-2.0
#include "io/program_signals_blocked.hpp"

#include <initializer_list>
#include <pthread.h>

namespace kerntime::io {

ProgramSignalsBlocked::ProgramSignalsBlocked() noexcept {
  sigset_t blocked;
  sigfillset(&blocked);
  // Blocked, a fault of the thread itself would end the process without any handler.
  for (const int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS})
    sigdelset(&blocked, fault);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous_);
}

ProgramSignalsBlocked::~ProgramSignalsBlocked() {
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

}  // namespace kerntime::io
