// SPDX-License-Identifier: Apache-2.0
#include "cli/run_outputs.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>

#include <kerntime/error.hpp>

#include "io/diagnostic.hpp"
#include "io/path_in_message.hpp"

namespace kerntime::cli {

void check_output_path(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  const auto refuse = [&](const std::string& why) {
    throw Error(option + " " + io::path_in_message(path) + ": " + why +
                "; the program was not started");
  };
  struct stat info {};
  if (stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) refuse("is a folder; name a file");
    if (!S_ISREG(info.st_mode)) {
      // A device or a pipe (/dev/stdout) is written in place, not replaced.
      if (access(path.c_str(), W_OK) != 0) refuse(std::string{"cannot write: "} + strerror(errno));
      return;
    }
  }
  // The writer replaces a symbolic link's target, through a temporary file beside it.
  std::string target = path;
  struct stat link {};
  char resolved[PATH_MAX];
  if (lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode) &&
      realpath(path.c_str(), resolved) != nullptr) {
    target = resolved;
  }
  const std::size_t slash = target.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  std::string probe = folder + ".kerntime-run-check.XXXXXX";
  const int fd = mkostemp(probe.data(), O_CLOEXEC);
  if (fd < 0) {
    refuse("cannot create a file in " + io::path_in_message(folder.empty() ? "." : folder) + ": " +
           std::strerror(errno));
  }
  close(fd);
  unlink(probe.c_str());
}

std::string fallback_path(const std::string& what, const std::string& extension) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string folder = tmp != nullptr && *tmp ? tmp : "/tmp";
  return folder + "/kerntime-run-" + std::to_string(getpid()) + "-" + what + extension;
}

bool write_with_fallback(const std::string& option, const std::string& what,
                         const std::string& path,
                         const std::function<void(const std::string&)>& write,
                         const std::string& extension) {
  try {
    write(path);
    return true;
  } catch (const Error& error) {
    const std::string fallback = fallback_path(what, extension);
    const std::string failed = option + ": " + error.what();
    try {
      write(fallback);
      io::write_error_line("kerntime run: ", failed + "; the " + what + " went to " +
                                                 io::path_in_message(fallback) + " instead");
      return true;
    } catch (const Error& second) {
      io::write_error_line("kerntime run: ",
                           failed + "; the fallback failed too: " + second.what());
      return false;
    }
  }
}

}  // namespace kerntime::cli
