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

/// Whether `err` prints `warning` as a "warning: " line. The text view wraps long warnings at
/// 120 columns (a word longer than a line is cut), so spaces and line breaks are not compared.
bool prints_warning(const std::string& err, const std::string& warning);

}  // namespace kerntime::testing
