// SPDX-License-Identifier: Apache-2.0
// The runner's progress line as a user sees it: the runner on a pseudo-terminal (forkpty), its
// output played on a small terminal model; and no trace of it when standard error is a pipe.
#include <cerrno>
#include <pty.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "support/gpu_test.hpp"
#include "support/run_command.hpp"
#include "support/terminal_screen.hpp"

namespace kerntime {
namespace {

const std::string runner = KERNTIME_BENCH_FIXTURE;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct TerminalRun {
  std::string bytes;  ///< everything the program wrote to its terminal
  int exit_status = -1;
};

// Runs the runner with `arguments` on a new pseudo-terminal of 120 columns (its standard
// input, output and error) and reads it until the program ends.
TerminalRun run_on_terminal(const std::vector<std::string>& arguments) {
  TerminalRun run;
  winsize size{};
  size.ws_col = 120;
  size.ws_row = 40;
  int master = -1;
  const pid_t child = forkpty(&master, nullptr, nullptr, &size);
  if (child < 0) {
    ADD_FAILURE() << "forkpty failed";
    return run;
  }
  if (child == 0) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(runner.c_str()));
    for (const std::string& a : arguments)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(runner.c_str(), argv.data());
    ::_exit(127);
  }
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n > 0) {
      run.bytes.append(buffer, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO: the program closed the terminal's last descriptor
    }
  }
  ::close(master);
  int status = 0;
  ::waitpid(child, &status, 0);
  run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

using testing::terminal_screen;

class RunnerTerminalGpu : public testing::GpuTest {};

TEST_F(RunnerTerminalGpu, TheProgressLineIsDrawnAndErasedBeforeTheTable) {
  const TerminalRun run =
      run_on_terminal({"--filter", "spin", "--timeout", "1", "--processes", "2"});
  ASSERT_EQ(run.exit_status, 0) << run.bytes;
  // Drawn: each child's line names the process and the configuration.
  EXPECT_TRUE(contains(run.bytes, "\r\033[Kprocess 1/2 [1/2] spin/ns=")) << run.bytes;
  EXPECT_TRUE(contains(run.bytes, "\r\033[Kprocess 2/2 [")) << run.bytes;
  EXPECT_TRUE(contains(run.bytes, " samples, ")) << run.bytes;
  // Erased: nothing of it is left on the screen, and the table starts at a line's start.
  bool header = false;
  for (const std::string& row : terminal_screen(run.bytes)) {
    EXPECT_FALSE(contains(row, " samples, ")) << "a progress line was left: " << row;
    header = header || row.rfind("Benchmark ", 0) == 0;
  }
  EXPECT_TRUE(header) << run.bytes;
}

TEST_F(RunnerTerminalGpu, QuietDrawsNoProgressLine) {
  const TerminalRun run =
      run_on_terminal({"--filter", "spin/ns=2000", "--processes", "1", "--quiet"});
  ASSERT_EQ(run.exit_status, 0) << run.bytes;
  EXPECT_FALSE(contains(run.bytes, "\033[K")) << run.bytes;
}

TEST_F(RunnerTerminalGpu, NoProgressLineWhenStandardErrorIsNotATerminal) {
  const auto r = testing::run_command(runner + " --filter spin/ns=2000 --processes 2");
  ASSERT_EQ(r.exit_status, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "\033[K")) << r.err;
  EXPECT_FALSE(contains(r.err, "\r")) << r.err;
  EXPECT_TRUE(contains(r.out, "spin/ns=2000/cold")) << r.out;
}

}  // namespace
}  // namespace kerntime
