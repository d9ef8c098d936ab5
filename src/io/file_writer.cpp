// SPDX-License-Identifier: Apache-2.0
// POSIX calls rather than iostreams: each call's errno is the cause a person needs ("No space
// left on device", "No such file or directory"), and iostreams do not promise to keep it.
#include "io/file_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>

#include <kerntime/error.hpp>

#include "io/path_in_message.hpp"
#include "io/temporary_files.hpp"

namespace kerntime::io {
namespace {

[[noreturn]] void fail(const std::string& path, int error_number) {
  throw Error("cannot write " + path_in_message(path) + ": " + std::strerror(error_number));
}

// The process's umask, read without changing it (umask() can only be read by setting it,
// which would race with threads creating files). Linux 4.7+ shows it in /proc/self/status.
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  }
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

// Writes all of `text` to `fd`, through partial writes and signals; returns 0 or an errno.
int write_all(int fd, std::string_view text) {
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t wrote = ::write(fd, data, left);
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data += wrote;
    left -= static_cast<std::size_t>(wrote);
  }
  return 0;
}

int close_keeping_errno(int fd) {
  // Linux closes the descriptor even when close() fails with EINTR: never retry.
  return ::close(fd) == 0 ? 0 : errno;
}

// Whole buffers go to the file in pieces of this size: large enough that the system calls
// cost nothing, small enough that a rendering of millions of rows is never held whole.
constexpr std::size_t kWriteBufferBytes = std::size_t{1} << 20;

// Links followed to find the file to replace, as the system's own limit (Linux: 40).
constexpr int kMaxLinkHops = 40;

std::string folder_of(const std::string& target) {
  const std::size_t slash = target.find_last_of('/');
  return slash == std::string::npos ? "" : target.substr(0, slash + 1);
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(const std::string& path) : path_(path) {
  if (path.empty()) throw Error("cannot write a file without a name");
  // The link's target is replaced, as `>` in a shell writes through it, but atomically: the
  // temporary file goes beside the target, so that the rename stays within its file system.
  target_ = path;
  struct stat info {};
  for (int hops = 0; ::lstat(target_.c_str(), &info) == 0 && S_ISLNK(info.st_mode); ++hops) {
    if (hops == kMaxLinkHops) fail(path, ELOOP);
    std::string link(PATH_MAX, '\0');
    const ssize_t length = ::readlink(target_.c_str(), link.data(), link.size());
    if (length < 0) fail(path, errno);
    if (static_cast<std::size_t>(length) >= link.size()) fail(path, ENAMETOOLONG);
    link.resize(static_cast<std::size_t>(length));
    // A relative target is relative to the link's folder.
    target_ = link.front() == '/' ? link : folder_of(target_) + link;
  }
  if (::stat(target_.c_str(), &info) == 0) {
    if (!S_ISREG(info.st_mode)) {
      // A device, a pipe or /dev/stdout cannot be renamed over: it is written in place.
      if (S_ISDIR(info.st_mode)) fail(path, EISDIR);
      do {
        fd_ = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
      } while (fd_ < 0 && errno == EINTR);
      if (fd_ < 0) fail(path, errno);
      return;
    }
    replaces_file_ = true;
    replaced_mode_ = info.st_mode & 07777;
    replaced_uid_ = info.st_uid;
    replaced_gid_ = info.st_gid;
  }
  const std::string folder = folder_of(target_);
  temporary_ = folder + "." + target_.substr(folder.size()) + ".XXXXXX";
  fd_ = create_registered_temporary_file(temporary_, slot_);
  if (fd_ < 0) fail(path, errno);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (committed_) return;
  if (fd_ >= 0) ::close(fd_);
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  unregister_temporary_file(slot_);
}

void AtomicFileWriter::write(std::string_view text) {
  if (committed_) throw Error("cannot write " + path_in_message(path_) + ": it is complete");
  if (buffer_.size() + text.size() < kWriteBufferBytes) {
    buffer_.append(text);
    return;
  }
  flush_buffer();
  if (text.size() >= kWriteBufferBytes) {
    if (const int error = write_all(fd_, text); error != 0) fail(path_, error);
  } else {
    buffer_.append(text);
  }
}

void AtomicFileWriter::flush_buffer() {
  if (const int error = write_all(fd_, buffer_); error != 0) fail(path_, error);
  buffer_.clear();
}

void AtomicFileWriter::commit() {
  if (committed_) return;
  flush_buffer();
  int error = 0;
  if (temporary_.empty()) {
    error = close_keeping_errno(fd_);
    fd_ = -1;
    if (error != 0) fail(path_, error);
    committed_ = true;
    return;
  }
  // A file that is replaced keeps its owner (where the system allows it) and its mode: a report
  // kept private with chmod 600 stays private. A new file gets a new file's permissions.
  if (replaces_file_) {
    struct stat made {};
    if (::fstat(fd_, &made) == 0 &&
        (made.st_uid != replaced_uid_ || made.st_gid != replaced_gid_) &&
        ::fchown(fd_, replaced_uid_, replaced_gid_) != 0) {
      // The group, at least; a refusal leaves the writer's own (warn_unused_result: a cast
      // to void does not silence GCC).
      if (::fchown(fd_, static_cast<uid_t>(-1), replaced_gid_) != 0) errno = 0;
    }
  }
  const mode_t mode = replaces_file_ ? replaced_mode_ : 0666 & ~current_umask();
  if (::fchmod(fd_, mode) != 0) error = errno;
  if (error == 0 && ::fsync(fd_) != 0) error = errno;
  const int close_error = close_keeping_errno(fd_);
  fd_ = -1;
  if (error == 0) error = close_error;
  if (error == 0 && ::rename(temporary_.c_str(), target_.c_str()) != 0) error = errno;
  if (error != 0) fail(path_, error);  // the destructor removes the temporary file
  committed_ = true;
  unregister_temporary_file(slot_);
  // Make the rename itself durable; a failure here cannot be undone and loses nothing written.
  const std::string folder = folder_of(target_);
  const int dir = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    (void)::fsync(dir);
    ::close(dir);
  }
}

void write_file_atomically(const std::string& path, std::string_view text) {
  AtomicFileWriter file(path);
  file.write(text);
  file.commit();
}

void write_standard_output(std::string_view text) {
  errno = 0;
  const bool written = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
  const int write_error = errno;
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = !written ? write_error : errno;
  if (written && flushed) return;
  std::clearerr(stdout);
  if (error == EPIPE) return;  // the reader went away (`| head`); SIGPIPE, if not ignored, ends us
  throw Error(std::string("cannot write to standard output: ") +
              (error != 0 ? std::strerror(error) : "the write failed"));
}

}  // namespace kerntime::io
