// SPDX-License-Identifier: Apache-2.0
// A process that is sent a terminating signal while an AtomicFileWriter holds its temporary
// file, for temporary_files_test.cpp. A fresh process for each case, because the writer installs
// its handlers once per process, chaining to whatever handler the process had then.
//
//   temporary_files_probe CASE SIGNAL FILE
//
// CASE is what the process does with SIGNAL before its first write:
//   default     nothing: the signal ends the process
//   ends        a handler that resets the signal and raises it again (as `kerntime run`'s
//               injection library does): the signal ends the process
//   carries-on  a handler that returns: the process commits FILE and exits 0
//   ignored     SIG_IGN: the process commits FILE, says whether the signal is still ignored,
//               and exits 0
//   fork-child  nothing, but the signal goes to a child made by fork() while the file is open:
//               the child ends, and the parent says whether its temporary file is still there,
//               commits FILE and exits 0
// "handler" is written to standard output when a handler of the process runs.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "io/file_writer.hpp"

namespace {

void say(const char* text) {
  if (::write(STDOUT_FILENO, text, std::strlen(text)) < 0) std::_Exit(3);
}

void ends_by_default(int signal) {
  say("handler\n");
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  ::sigaction(signal, &fallback, nullptr);
  ::raise(signal);
}

void carries_on(int) {
  say("handler\n");
}

// Files in FILE's folder whose name starts with ".NAME." (the writer's temporary files).
int temporary_files_of(const std::string& file) {
  const std::size_t slash = file.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : file.substr(0, slash);
  const std::string prefix = "." + file.substr(slash + 1) + ".";
  int count = 0;
  if (DIR* dir = ::opendir(folder.c_str())) {
    while (const dirent* entry = ::readdir(dir)) {
      if (std::string{entry->d_name}.rfind(prefix, 0) == 0) ++count;
    }
    ::closedir(dir);
  }
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const std::string scenario = argv[1];
  const int signal = std::atoi(argv[2]);
  const std::string file = argv[3];
  struct sigaction action {};
  sigemptyset(&action.sa_mask);
  if (scenario == "ends") {
    action.sa_handler = &ends_by_default;
    ::sigaction(signal, &action, nullptr);
  } else if (scenario == "carries-on") {
    action.sa_handler = &carries_on;
    ::sigaction(signal, &action, nullptr);
  } else if (scenario == "ignored") {
    action.sa_handler = SIG_IGN;
    ::sigaction(signal, &action, nullptr);
  } else if (scenario == "default" || scenario == "fork-child") {
    // Whatever the process was started with (nohup ignores SIGHUP; a shell's background job,
    // SIGINT).
    action.sa_handler = SIG_DFL;
    ::sigaction(signal, &action, nullptr);
  } else {
    return 2;
  }

  kerntime::io::AtomicFileWriter writer(file);
  writer.write("the new text");
  if (temporary_files_of(file) != 1) return 4;
  if (scenario == "fork-child") {
    const pid_t child = ::fork();
    if (child == 0) {
      ::raise(signal);
      std::_Exit(5);  // not reached: the signal ends the child
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != signal) return 6;
    if (temporary_files_of(file) == 1) say("temporary file kept\n");
  } else {
    ::raise(signal);
  }
  if (scenario == "ignored") {
    struct sigaction now {};
    ::sigaction(signal, nullptr, &now);
    if ((now.sa_flags & SA_SIGINFO) == 0 && now.sa_handler == SIG_IGN) say("still ignored\n");
  }
  writer.commit();
  return 0;
}
