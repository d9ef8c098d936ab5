// SPDX-License-Identifier: Apache-2.0
#include "main/processes.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kerntime/error.hpp>

extern char** environ;

namespace kerntime::main {

std::vector<std::string> worker_arguments(int argc, const char* const* argv, std::size_t process,
                                          const std::string& output,
                                          const std::vector<std::string>& extra) {
  std::vector<std::string> arguments;
  for (int i = 0; i < argc; ++i)
    arguments.emplace_back(argv[i] != nullptr ? argv[i] : "");
  if (arguments.empty()) arguments.emplace_back("benchmarks");
  arguments.push_back(std::string{kWorkerOption} + "=" + std::to_string(process));
  arguments.push_back(std::string{kWorkerOutputOption} + "=" + output);
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  return arguments;
}

std::vector<std::size_t> process_order(std::size_t count, std::size_t process,
                                       std::size_t processes) {
  std::vector<std::size_t> order;
  order.reserve(count);
  const std::size_t start = processes == 0 || count == 0 ? 0 : process * count / processes % count;
  for (std::size_t i = 0; i < count; ++i)
    order.push_back((start + i) % count);
  return order;
}

int run_process(const std::string& executable, const std::vector<std::string>& arguments) {
  std::vector<char*> argv;
  for (const std::string& a : arguments)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, executable.c_str(), nullptr, nullptr, argv.data(), environ);
  if (error != 0) {
    throw Error("cannot start " + executable + ": " + std::strerror(error));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      throw Error(std::string{"cannot wait for process "} + std::to_string(pid) + ": " +
                  std::strerror(errno));
    }
  }
  return status;
}

std::string describe_wait_status(int wait_status) {
  if (WIFEXITED(wait_status)) {
    const int code = WEXITSTATUS(wait_status);
    return code == 0 ? std::string{} : "exit status " + std::to_string(code);
  }
  if (WIFSIGNALED(wait_status)) {
    const int signal = WTERMSIG(wait_status);
    const char* name = strsignal(signal);
    return "killed by signal " + std::to_string(signal) +
           (name != nullptr ? std::string{" ("} + name + ")" : std::string{});
  }
  return "ended with wait status " + std::to_string(wait_status);
}

int exit_status_of(int wait_status) {
  return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
}

std::optional<std::string> describe_process_failure(std::size_t process, std::size_t processes,
                                                    int wait_status,
                                                    const std::optional<std::string>& running,
                                                    const std::string& unreadable) {
  const std::string how = describe_wait_status(wait_status);
  const int exit_status = exit_status_of(wait_status);
  const std::string who =
      "process " + std::to_string(process + 1) + " of " + std::to_string(processes);
  const std::string failed = how.empty() ? who : who + " failed (" + how + ")";
  if (!unreadable.empty()) return failed + ": its results cannot be read: " + unreadable;
  if (!running) {
    if (exit_status == 0) return who + " wrote no results";
    return failed + " before it wrote any results";
  }
  if (!running->empty()) {
    return failed + " while measuring " + *running + "; the configurations it finished are kept";
  }
  if (exit_status == 0 || exit_status == 1) return std::nullopt;
  return failed + " after its last configuration; its results are kept";
}

}  // namespace kerntime::main
