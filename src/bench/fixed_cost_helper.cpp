// SPDX-License-Identifier: Apache-2.0
#include "bench/fixed_cost_helper.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace kerntime::bench {
namespace {

constexpr const char* kHelperMark = "KERNTIME_CALIBRATION_PROCESS";
constexpr int kTimeoutMs = 60'000;
constexpr std::size_t kMaxOutputBytes = 64 * 1024;
constexpr double kMaxPlausibleNs = 100'000.0;  // as the cache's check (fixed_cost.cpp)

// GPUs whose calibration process failed, and why: a failure is not worth a process per
// Engine (kerntime::measure() makes one per call), so each GPU is tried once per process.
std::mutex& failures_lock() {
  static std::mutex m;
  return m;
}
std::map<std::string, std::string>& failures() {
  static std::map<std::string, std::string> failed;
  return failed;
}

bool switched_on(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' && std::string{value} != "0";
}

bool is_executable(const std::string& path) {
  struct stat info {};
  return !path.empty() && stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string{"."} : path.substr(0, slash);
}

// The folder of the kerntime library this code is in (shared or linked into a program).
std::string library_folder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&helper_command), &info) == 0 || info.dli_fname == nullptr) {
    return {};
  }
  return folder_of(info.dli_fname);
}

std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::istringstream folders{path};
  for (std::string folder; std::getline(folders, folder, ':');) {
    const std::string candidate = (folder.empty() ? std::string{"."} : folder) + "/" + name;
    if (is_executable(candidate)) return candidate;
  }
  return {};
}

// Reads what the child writes until it closes the pipe or the time is up.
bool read_until_closed(int fd, std::string& out) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kTimeoutMs);
  char buffer[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    if (out.size() < kMaxOutputBytes) out.append(buffer, static_cast<std::size_t>(n));
  }
}

std::string last_line(const std::string& text) {
  std::string line;
  std::istringstream lines{text};
  for (std::string l; std::getline(lines, l);) {
    if (!l.empty()) line = l;
  }
  return line;
}

}  // namespace

std::string helper_command() {
  if (const char* chosen = std::getenv("KERNTIME_CLI"); chosen != nullptr && *chosen != '\0') {
    return is_executable(chosen) ? std::string{chosen} : std::string{};
  }
  const std::string here = library_folder();
  if (!here.empty()) {
    // Installed: PREFIX/lib and PREFIX/bin; in a Python package the library is in
    // PREFIX/lib/pythonX.Y/site-packages/kerntime and the command in PREFIX/bin.
    for (const std::string& candidate :
         {here + "/../bin/kerntime", here + "/kerntime", here + "/../../../../bin/kerntime"}) {
      if (is_executable(candidate)) return candidate;
    }
  }
  return on_path("kerntime");
}

std::vector<std::string> helper_environment(const std::vector<std::string>& environment) {
  std::vector<std::string> out;
  for (const std::string& variable : environment) {
    const std::string name = variable.substr(0, variable.find('='));
    if (name == "CUDA_INJECTION64_PATH" || name == "NVTX_INJECTION64_PATH" || name == kHelperMark) {
      continue;
    }
    out.push_back(variable);
  }
  out.push_back(std::string{kHelperMark} + "=1");
  return out;
}

std::optional<double> parse_helper_output(const std::string& output) {
  const std::string line = last_line(output);
  if (line.empty()) return std::nullopt;
  char* end = nullptr;
  const double ns = std::strtod(line.c_str(), &end);
  if (end == line.c_str() || *end != '\0') return std::nullopt;
  if (!std::isfinite(ns) || ns <= 0.0 || ns >= kMaxPlausibleNs) return std::nullopt;
  return ns;
}

namespace {
HelperResult run_helper(const std::string& pci_bus_id);
}  // namespace

HelperResult fixed_cost_from_helper(const std::string& pci_bus_id) {
  if (switched_on(kHelperMark)) return {std::nullopt, "this is a calibration process already"};
  if (switched_on("KERNTIME_NO_CALIBRATION_PROCESS")) {
    return {std::nullopt, "KERNTIME_NO_CALIBRATION_PROCESS is set"};
  }
  std::lock_guard lock{failures_lock()};  // one helper at a time, each GPU's failure kept
  if (const auto it = failures().find(pci_bus_id); it != failures().end()) {
    return {std::nullopt, it->second + " (tried once in this process)"};
  }
  HelperResult result = run_helper(pci_bus_id);
  if (!result.ns) failures()[pci_bus_id] = result.problem;
  return result;
}

namespace {

HelperResult run_helper(const std::string& pci_bus_id) {
  const std::string command = helper_command();
  if (command.empty()) {
    return {std::nullopt,
            "no kerntime command was found to calibrate in a process of its own (set "
            "KERNTIME_CLI to its path)"};
  }
  std::vector<std::string> arguments = {command, "calibrate", "--pci-bus-id", pci_bus_id,
                                        "--value-only"};
  std::vector<std::string> variables;
  for (char** v = environ; v != nullptr && *v != nullptr; ++v)
    variables.emplace_back(*v);
  variables = helper_environment(variables);
  std::vector<char*> argv;
  for (std::string& a : arguments)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (std::string& v : variables)
    envp.push_back(v.data());
  envp.push_back(nullptr);

  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    return {std::nullopt, std::string{"cannot make a pipe: "} + std::strerror(errno)};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, command.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    return {std::nullopt, "cannot start " + command + ": " + std::strerror(spawned)};
  }
  std::string output;
  const bool finished = read_until_closed(pipe_fds[0], output);
  close(pipe_fds[0]);
  if (!finished) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished) return {std::nullopt, command + " calibrate took over 60 s and was stopped"};
  const std::optional<double> ns = parse_helper_output(output);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && ns) return {ns, {}};
  const std::string said = last_line(output);
  return {std::nullopt, command + " calibrate failed" + (said.empty() ? "" : ": " + said)};
}

}  // namespace
}  // namespace kerntime::bench
