// SPDX-License-Identifier: Apache-2.0
// Standard input, output or error closed when the command starts (2>&-). The next file the
// command opened would take the closed number, and a diagnostic or the help text would then go
// into a report file or a pipe. Each closed one is held by /dev/null, opened so that using it
// fails as on a closed descriptor (EBADF), and closed on exec, so that the program `kerntime run`
// starts finds it closed, as it would have without kerntime.
#pragma once

namespace kerntime::cli {

/// Holds each of descriptors 0, 1 and 2 that is closed. Call first thing in main().
void hold_closed_standard_descriptors();

}  // namespace kerntime::cli
