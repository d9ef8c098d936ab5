// SPDX-License-Identifier: Apache-2.0
// POSIX descriptors rather than stdio: open(2) with O_NONBLOCK returns at once for a FIFO that
// has no writer (fopen waits for one forever), and fstat(2) on the open descriptor tells what
// the path is without a race between a check and the open. Once open, a FIFO or pipe is read
// in blocking mode: a read(2) waits only while some process holds the writing end, and returns
// the end of the stream at once when none does, so a FIFO without a writer cannot block either.
#include "io/file_reader.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/stat.h>
#include <unistd.h>

#include <kerntime/error.hpp>

#include "io/out_of_memory.hpp"
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

// What a file that cannot be read is, for the message.
const char* kind_of(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

void set_blocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
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
  bool stream = standard_input;  // a pipe or FIFO: its size is known only at its end
  try {
    if (!standard_input) {
      struct stat status {};
      if (::fstat(file.get(), &status) != 0) {
        throw Error(name + ": cannot read " + what + ": " + std::strerror(errno));
      }
      // A directory keeps the system's words ("Is a directory"), as fopen and read gave them.
      if (S_ISDIR(status.st_mode)) {
        throw Error(name + ": cannot read " + what + ": " + std::strerror(EISDIR));
      }
      // A pipe or FIFO is read like standard input (`compare <(git show main:f) f`, `cat f |
      // kerntime report /dev/stdin`). Devices and sockets are still refused: /dev/zero is
      // endless, and a terminal would wait for a person.
      stream = S_ISFIFO(status.st_mode);
      if (!stream && !S_ISREG(status.st_mode)) {
        throw Error(name + ": cannot read " + what + ": it is " + kind_of(status.st_mode) +
                    ", not a regular file");
      }
      if (!stream && static_cast<std::uint64_t>(status.st_size) > max_bytes) {
        too_large(name, max_bytes, what);
      }
      set_blocking(file.get());
      // The text in memory once: growing by doubling would hold up to 3x the file while
      // copying. (One byte more, so the read that finds the end does not grow it.)
      if (!stream) text.reserve(static_cast<std::size_t>(status.st_size) + 1);
    }
    char buffer[65536];
    for (;;) {
      // One byte past the limit is enough to know the input is too large.
      const std::uint64_t room = max_bytes + 1 - text.size();
      const std::size_t want =
          room < sizeof buffer ? static_cast<std::size_t>(room) : sizeof buffer;
      const ssize_t got = ::read(file.get(), buffer, want);
      if (got < 0) {
        if (errno == EINTR) continue;
        throw Error(name + ": cannot read " + what + ": " + std::strerror(errno));
      }
      if (got == 0) break;
      text.append(buffer, static_cast<std::size_t>(got));
      if (text.size() > max_bytes) too_large(name, max_bytes, what);
    }
  } catch (const std::bad_alloc&) {
    throw_out_of_memory(name, what, text.size(), OutOfMemoryWhile::reading);
  }
  // A FIFO that no process opened for writing reads as empty at once; say why it is empty.
  if (stream && !standard_input && text.empty()) {
    throw Error(name + ": cannot read " + what +
                ": nothing was written to the pipe (it is a FIFO without a writer, or its "
                "writer wrote nothing)");
  }
  return text;
}

}  // namespace kerntime::io
