// SPDX-License-Identifier: Apache-2.0
// The one way kerntime writes files and standard output: every failure is a kerntime::Error
// that names the file and the cause the system gave, never a silently short file.
#pragma once

#include <string>
#include <string_view>

namespace kerntime::io {

/// Replaces the file at `path` with `text` atomically: writes a temporary file in the same
/// folder, syncs it to disk, gives it the permissions of a newly created file (0666 & ~umask)
/// and renames it over `path`, so a reader sees the old file or the new one, never a part.
/// A symbolic link is followed (the link stays; its target is replaced). A path that exists
/// and is not a regular file (/dev/stdout, a pipe) is written in place.
///
/// On failure the temporary file is removed, the old file is left as it was, and
/// kerntime::Error names the path and the cause: "cannot write out.json: No space left on
/// device".
void write_file_atomically(const std::string& path, std::string_view text);

/// Writes `text` to standard output and flushes it. Throws kerntime::Error when it cannot be
/// written ("cannot write to standard output: No space left on device"), except for a closed
/// pipe (EPIPE: `| head` read what it wanted), which is not an error.
void write_standard_output(std::string_view text);

}  // namespace kerntime::io
