// SPDX-License-Identifier: Apache-2.0
// The one way kerntime writes files and standard output: every failure is a kerntime::Error
// that names the file and the cause the system gave, never a silently short file.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace kerntime::io {

/// A file written piece by piece and replaced atomically when done, for outputs too large to
/// hold in memory as one string: write() appends (buffered), commit() syncs the temporary file
/// and renames it over the target, exactly as write_file_atomically() does. Destroyed without
/// a commit (an exception while rendering), it removes the temporary file and leaves the old
/// file as it was; a SIGTERM, SIGINT or SIGHUP that ends the process removes it too
/// (io/temporary_files.hpp). A target that is not a regular file (/dev/stdout, a pipe) is
/// written in place. Every failure throws kerntime::Error naming the path, as
/// write_file_atomically().
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(const std::string& path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(std::string_view text);
  void commit();

 private:
  void flush_buffer();

  std::string path_;            // as the caller named it, for messages
  std::string target_;          // what is replaced (a symbolic link's target)
  std::string temporary_;       // empty when writing in place
  int slot_ = -1;               // its registration, removed on a terminating signal
  bool replaces_file_ = false;  // then its mode and owner are kept
  mode_t replaced_mode_ = 0;
  uid_t replaced_uid_ = 0;
  gid_t replaced_gid_ = 0;
  int fd_ = -1;
  std::string buffer_;
  bool committed_ = false;
};

/// Replaces the file at `path` with `text` atomically: writes a temporary file in the same
/// folder, syncs it to disk, gives it the mode and owner of the file it replaces (a new file:
/// the permissions of a newly created file, 0666 & ~umask) and renames it over `path`, so a
/// reader sees the old file or the new one, never a part. A symbolic link is written through,
/// as a shell's `>` does: the link stays, and its target (followed through any chain of links,
/// relative ones from the link's folder) is replaced, or created if it does not exist, with the
/// temporary file in the target's folder. A path that exists and is not a regular file
/// (/dev/stdout, a pipe) is written in place. Other names of the file (hard links) keep the old
/// text, and extended attributes and ACLs are not copied.
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
