// SPDX-License-Identifier: Apache-2.0
// The one way kerntime reads a file or standard input whole: bounded, so that an endless pipe
// ends in a message rather than std::bad_alloc, and only from regular files, pipes and FIFOs, so
// that neither /dev/zero, a terminal nor a FIFO without a writer blocks the command.
#pragma once

#include <cstdint>
#include <string>

namespace kerntime::io {

/// The text of `path`, or of standard input when `path` is `-`, at most `max_bytes` long.
/// `name` is what messages call it ("base.json", "<stdin>"). A path must name a regular file, a
/// FIFO or a pipe (`<(cmd)`'s /dev/fd/N, /dev/stdin); a symbolic link to one is followed. A
/// directory, device or socket is refused before any read. A FIFO or pipe is read to its
/// writer's end; one that nothing was written to (a FIFO without a writer) is refused at once,
/// never waited for. The limit holds while reading, so a file that grows or a stream without
/// end stops at `max_bytes` + 1 bytes. `name` goes through path_in_message(). Every failure is a
/// one-line kerntime::Error naming `name` and what `what` the file should have been ("report"):
/// "base.json: cannot open report: Permission denied", "<stdin>: report is larger than the limit
/// of 1073741824 bytes (1 GiB)", and an allocation that fails, io/out_of_memory.hpp's message.
std::string read_file_bounded(const std::string& path, const std::string& name,
                              std::uint64_t max_bytes, const std::string& what);

}  // namespace kerntime::io
