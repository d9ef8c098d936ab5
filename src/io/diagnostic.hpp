// SPDX-License-Identifier: Apache-2.0
// The one way the command writes to standard error. A diagnostic is best effort: standard error
// may be closed (2>&-), full (2>/dev/full) or a pipe whose reader left, and none of these may end
// the process, throw out of an error path, or cost the program's exit status or a report.
#pragma once

#include <string_view>

namespace kerntime::io {

/// Writes `text` to standard error as it is, with write(2) on descriptor 2: partial writes and
/// EINTR are retried, any failure (EBADF, ENOSPC, EPIPE, ...) drops the rest of the text. Never
/// throws. SIGPIPE is held back for the write, so a reader that went away does not end the
/// process.
void write_diagnostic(std::string_view text) noexcept;

/// Writes `prefix`, then `message` on the same line, then a line break: a message with a line
/// break or another control character in it (an option value, a name from a file) stays one line
/// (\n, \r, \t, and \u00XX for the others, as JSON writes them; a final line break is dropped).
/// Allocates nothing and never throws, so that it is safe in any catch block.
void write_error_line(std::string_view prefix, std::string_view message) noexcept;

}  // namespace kerntime::io
