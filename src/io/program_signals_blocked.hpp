// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <signal.h>

namespace kerntime::io {

/// While alive, blocks on the calling thread every signal that a program or another process may
/// send the process: all but the faults a thread raises itself (SIGSEGV, SIGBUS, SIGFPE,
/// SIGILL, SIGTRAP, SIGSYS). A thread started meanwhile inherits that mask.
///
/// kerntime's threads (and CUPTI's, which start inside kerntime's CUPTI calls) are started
/// under one, so that a signal directed at the process never lands on them. A program that
/// blocks SIGTERM in its own threads and takes it with sigwait(), as many services do, would
/// otherwise see it delivered to a tool's thread that left it unblocked, and killed by it.
class ProgramSignalsBlocked {
 public:
  ProgramSignalsBlocked() noexcept;
  ~ProgramSignalsBlocked();
  ProgramSignalsBlocked(const ProgramSignalsBlocked&) = delete;
  ProgramSignalsBlocked& operator=(const ProgramSignalsBlocked&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace kerntime::io
