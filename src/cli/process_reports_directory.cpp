// SPDX-License-Identifier: Apache-2.0
#include "cli/process_reports_directory.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <exception>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <climits>

#include <kerntime/error.hpp>

#include "io/path_in_message.hpp"

namespace kerntime::cli {

ProcessReportsDirectory::ProcessReportsDirectory(const std::string& chosen) {
  if (chosen.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    const std::string folder = tmp != nullptr && *tmp ? tmp : "/tmp";
    std::string pattern = folder + "/kerntime-run-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      throw Error("cannot create a folder for the process reports in " +
                  io::path_in_message(folder) + ": " + std::strerror(errno) +
                  " (set TMPDIR to another folder)");
    }
    path_ = pattern;
    temporary_ = true;
  } else {
    if (mkdir(chosen.c_str(), 0777) != 0 && errno != EEXIST) {
      throw Error("cannot create --process-reports folder " + io::path_in_message(chosen) + ": " +
                  std::strerror(errno));
    }
    path_ = chosen;
  }
  char resolved[PATH_MAX];
  if (realpath(path_.c_str(), resolved) != nullptr) path_ = resolved;
}

ProcessReportsDirectory::~ProcessReportsDirectory() {
  if (!temporary_) return;
  // Only what the processes wrote is in it: their reports and the temporary files of their
  // atomic writes; nothing of the user's.
  try {
    std::vector<std::string> names;
    if (DIR* dir = opendir(path_.c_str())) {
      while (const dirent* item = readdir(dir)) {
        const std::string name = item->d_name;
        if (name != "." && name != "..") names.push_back(name);
      }
      closedir(dir);
    }
    for (const std::string& name : names)
      unlink((path_ + "/" + name).c_str());
  } catch (const std::exception&) {
    // Out of memory: what is left stays.
  }
  rmdir(path_.c_str());
}

}  // namespace kerntime::cli
