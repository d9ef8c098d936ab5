// SPDX-License-Identifier: Apache-2.0
#include "support/run_command.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace kerntime::testing {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in{path};
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

CommandResult run_command(const std::string& command) {
  char err_path[] = "/tmp/kerntime-test-stderr-XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  close(fd);
  CommandResult result;
  FILE* pipe = popen((command + " 2>" + err_path).c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("popen failed for: " + command);
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  result.err = read_file(err_path);
  std::remove(err_path);
  return result;
}

int line_count(const std::string& text) {
  int lines = 0;
  for (char c : text)
    lines += c == '\n';
  if (!text.empty() && text.back() != '\n') ++lines;
  return lines;
}

bool prints_warning(const std::string& err, const std::string& warning) {
  const auto squeezed = [](const std::string& text) {
    std::string out;
    for (const char c : text) {
      if (c != ' ' && c != '\n') out += c;
    }
    return out;
  };
  return squeezed(err).find(squeezed("warning: " + warning)) != std::string::npos;
}

}  // namespace kerntime::testing
