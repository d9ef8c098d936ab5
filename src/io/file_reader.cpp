// SPDX-License-Identifier: Apache-2.0
// POSIX descriptors rather than stdio: open(2) with O_NONBLOCK returns at once for a FIFO that
// has no writer (fopen waits for one forever), and fstat(2) on the open descriptor tells what
// the path is without a race between a check and the open.
#include "io/file_reader.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kerntime/error.hpp>

#include "io/path_in_message.hpp"

namespace kerntime::io {
namespace {

class Descriptor {
 public:
  explicit Descriptor(int fd, bool owned) : fd_(fd), owned_(owned) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (owned_ && fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
  bool owned_;
};

std::string limit_text(std::uint64_t max_bytes) {
  std::string text = "the limit of " + std::to_string(max_bytes) + " bytes";
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
  if (max_bytes >= kGiB && max_bytes % kGiB == 0) {
    text += " (" + std::to_string(max_bytes / kGiB) + " GiB)";
  } else if (max_bytes >= kMiB && max_bytes % kMiB == 0) {
    text += " (" + std::to_string(max_bytes / kMiB) + " MiB)";
  }
  return text;
}

[[noreturn]] void too_large(const std::string& name, std::uint64_t max_bytes,
                            const std::string& what) {
  throw Error(name + ": " + what + " is larger than " + limit_text(max_bytes) +
              "; is this the right file?");
}

// What a non-regular file is, for the message.
const char* kind_of(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::string read_file_bounded(const std::string& path, const std::string& given_name,
                              std::uint64_t max_bytes, const std::string& what) {
  const std::string name = path_in_message(given_name);
  const bool standard_input = path == "-";
  Descriptor file(standard_input
                      ? STDIN_FILENO
                      : ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC),
                  !standard_input);
  if (file.get() < 0) {
    throw Error(name + ": cannot open " + what + ": " + std::strerror(errno));
  }
  std::string text;
  if (!standard_input) {
    struct stat status {};
    if (::fstat(file.get(), &status) != 0) {
      throw Error(name + ": cannot read " + what + ": " + std::strerror(errno));
    }
    // A directory keeps the system's words ("Is a directory"), as fopen and read gave them.
    if (S_ISDIR(status.st_mode)) {
      throw Error(name + ": cannot read " + what + ": " + std::strerror(EISDIR));
    }
    if (!S_ISREG(status.st_mode)) {
      throw Error(name + ": cannot read " + what + ": it is " + kind_of(status.st_mode) +
                  ", not a regular file");
    }
    if (static_cast<std::uint64_t>(status.st_size) > max_bytes) too_large(name, max_bytes, what);
    // Regular files never block; clearing the flag keeps reads plain on any file system.
    const int flags = ::fcntl(file.get(), F_GETFL);
    if (flags >= 0) ::fcntl(file.get(), F_SETFL, flags & ~O_NONBLOCK);
    // The text in memory once: growing by doubling would hold up to 3x the file while copying.
    // (One byte more, so the read that finds the end does not grow it.)
    text.reserve(static_cast<std::size_t>(status.st_size) + 1);
  }
  char buffer[65536];
  for (;;) {
    // One byte past the limit is enough to know the input is too large.
    const std::uint64_t room = max_bytes + 1 - text.size();
    const std::size_t want = room < sizeof buffer ? static_cast<std::size_t>(room) : sizeof buffer;
    const ssize_t got = ::read(file.get(), buffer, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(name + ": cannot read " + what + ": " + std::strerror(errno));
    }
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > max_bytes) too_large(name, max_bytes, what);
  }
  return text;
}

}  // namespace kerntime::io
