// SPDX-License-Identifier: Apache-2.0
#include "io/diagnostic.hpp"

#include <cerrno>
#include <csignal>
#include <ctime>
#include <pthread.h>
#include <unistd.h>

namespace kerntime::io {
namespace {

// Writes all of `text` to descriptor 2; false when a write failed (the rest is dropped).
bool write_all(std::string_view text) {
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t wrote = ::write(STDERR_FILENO, data, left);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    data += wrote;
    left -= static_cast<std::size_t>(wrote);
  }
  return true;
}

// Blocks SIGPIPE in this thread for its lifetime (the signal a failed write raises is sent to
// the writing thread), and takes back the one a write raised, unless one was pending before.
class HeldSigpipe {
 public:
  HeldSigpipe() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    held_ = pthread_sigmask(SIG_BLOCK, &pipe_, &previous_) == 0;
    sigset_t pending;
    was_pending_ = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
  }
  ~HeldSigpipe() {
    if (!held_) return;
    if (raised_ && !was_pending_) {
      const timespec now{0, 0};
      while (sigtimedwait(&pipe_, nullptr, &now) < 0 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  HeldSigpipe(const HeldSigpipe&) = delete;
  HeldSigpipe& operator=(const HeldSigpipe&) = delete;

  void wrote(bool ok) { raised_ = raised_ || (!ok && errno == EPIPE); }

 private:
  sigset_t pipe_{};
  sigset_t previous_{};
  bool held_ = false;
  bool was_pending_ = false;
  bool raised_ = false;
};

}  // namespace

void write_diagnostic(std::string_view text) noexcept {
  const int saved_errno = errno;
  HeldSigpipe hold;
  hold.wrote(write_all(text));
  errno = saved_errno;
}

void write_error_line(std::string_view prefix, std::string_view message) noexcept {
  const int saved_errno = errno;
  HeldSigpipe hold;
  while (!message.empty() && message.back() == '\n')
    message.remove_suffix(1);
  // One buffer, written whenever full: no allocation on a path that may be handling bad_alloc.
  char buffer[512];
  std::size_t used = 0;
  bool ok = write_all(prefix);
  const auto put = [&](std::string_view piece) {
    if (used + piece.size() > sizeof buffer) {
      ok = ok && write_all({buffer, used});
      used = 0;
    }
    for (const char c : piece)
      buffer[used++] = c;
  };
  constexpr char kHex[] = "0123456789abcdef";
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      put("\\n");
    } else if (c == '\r') {
      put("\\r");
    } else if (c == '\t') {
      put("\\t");
    } else if (byte < 0x20 || byte == 0x7f) {
      const char escaped[] = {'\\', 'u', '0', '0', kHex[byte >> 4], kHex[byte & 0xf]};
      put({escaped, sizeof escaped});
    } else {
      put({&c, 1});
    }
  }
  put("\n");
  ok = ok && write_all({buffer, used});
  hold.wrote(ok);
  errno = saved_errno;
}

}  // namespace kerntime::io
