// SPDX-License-Identifier: Apache-2.0
// The one way kerntime reads a file or standard input whole: bounded, so that /dev/zero or an
// endless pipe ends in a message rather than std::bad_alloc, and only from regular files, so
// that a FIFO without a writer or a terminal never blocks the command.
#pragma once

#include <cstdint>
#include <string>

namespace kerntime::io {

/// The text of `path`, or of standard input when `path` is `-`, at most `max_bytes` long.
/// `name` is what messages call it ("base.json", "<stdin>"). A path must name a regular file (a
/// symbolic link to one is followed); a directory, device, FIFO or socket is refused before any
/// read. The limit holds while reading, so a file that grows or a stream without end stops at
/// `max_bytes` + 1 bytes. `name` goes through path_in_message(). Every failure is a one-line
/// kerntime::Error naming `name` and what `what` the file should have been ("report"): "base.json:
/// cannot open report: Permission denied", "<stdin>: report is larger than the limit of 1073741824
/// bytes (1 GiB)".
std::string read_file_bounded(const std::string& path, const std::string& name,
                              std::uint64_t max_bytes, const std::string& what);

}  // namespace kerntime::io
