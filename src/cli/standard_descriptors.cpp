// SPDX-License-Identifier: Apache-2.0
#include "cli/standard_descriptors.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace kerntime::cli {

void hold_closed_standard_descriptors() {
  // In order: with every lower one open, open() returns the closed number itself.
  for (int fd = 0; fd < 3; ++fd) {
    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    // Write-only for input and read-only for output: reading standard input or writing standard
    // output or error fails with EBADF, as it would have on the closed descriptor.
    int held = -1;
    do {
      held = open("/dev/null", (fd == 0 ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
    } while (held < 0 && errno == EINTR);
    if (held >= 0 && held != fd) close(held);  // cannot happen; never hold another number
  }
}

}  // namespace kerntime::cli
