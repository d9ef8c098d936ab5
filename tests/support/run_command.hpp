// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace kerntime::testing {

struct CommandResult {
  int exit_status = -1;  ///< the process's exit status, or -1 if it did not exit normally
  std::string out;       ///< standard output
  std::string err;       ///< standard error
};

/// Runs `command` through /bin/sh and captures its output and exit status.
CommandResult run_command(const std::string& command);

/// Number of lines in `text` (a final line without newline counts).
int line_count(const std::string& text);

}  // namespace kerntime::testing
