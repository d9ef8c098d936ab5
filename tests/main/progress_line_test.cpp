// SPDX-License-Identifier: Apache-2.0
// The runner's progress line on a real terminal: a pseudo-terminal, read back and played on a
// small model of a terminal (carriage return, erase to end of line, line feed), so that what
// a user would see is checked, not only the bytes. And silence when the output is a pipe.
#include "main/progress_line.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <pty.h>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "support/terminal_screen.hpp"

namespace kerntime::main {
namespace {

// A pseudo-terminal of `columns` columns; `out` writes to its terminal side.
class Pty {
 public:
  explicit Pty(unsigned short columns) {
    winsize size{};
    size.ws_col = columns;
    size.ws_row = 24;
    if (openpty(&master_, &slave_, nullptr, nullptr, &size) != 0) {
      ADD_FAILURE() << "openpty failed: " << std::strerror(errno);
      return;
    }
    ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK);
    out = ::fdopen(::dup(slave_), "w");
  }
  ~Pty() {
    if (out != nullptr) std::fclose(out);
    if (slave_ >= 0) ::close(slave_);
    if (master_ >= 0) ::close(master_);
  }
  Pty(const Pty&) = delete;
  Pty& operator=(const Pty&) = delete;

  // Everything written so far, as the terminal receives it.
  std::string read() {
    std::fflush(out);
    std::string text;
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::read(master_, buffer, sizeof buffer);
      if (n <= 0) break;
      text.append(buffer, static_cast<std::size_t>(n));
    }
    return text;
  }

  std::FILE* out = nullptr;

 private:
  int master_ = -1;
  int slave_ = -1;
};

using testing::terminal_screen;

MeasureProgress progress(const std::string& name, std::size_t samples, double elapsed) {
  MeasureProgress p;
  p.name = &name;
  p.samples = samples;
  p.elapsed_s = elapsed;
  p.timeout_s = 5.0;
  return p;
}

TEST(ProgressLine, IsWantedOnATerminalUnlessQuiet) {
  Pty pty{80};
  ASSERT_NE(pty.out, nullptr);
  EXPECT_TRUE(main::ProgressLine::wanted(false, pty.out));
  EXPECT_FALSE(main::ProgressLine::wanted(true, pty.out));
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::FILE* pipe_out = ::fdopen(fds[1], "w");
  EXPECT_FALSE(main::ProgressLine::wanted(false, pipe_out)) << "a pipe is not a terminal";
  std::fclose(pipe_out);
  ::close(fds[0]);
}

TEST(ProgressLine, RedrawsInPlaceAndClearsBeforeWhatFollows) {
  Pty pty{80};
  ASSERT_NE(pty.out, nullptr);
  main::ProgressLine line{pty.out, main::ProgressLine::wanted(false, pty.out), "process 2/5 "};
  const std::string name = "spin/ns=2000/cold";
  line.show(3, 22, progress(name, 1200, 10.25));
  line.show(3, 22, progress(name, 20, 0.5));  // shorter: nothing of the longer one may remain
  const std::string drawn = pty.read();
  EXPECT_EQ(drawn,
            "\r\033[Kprocess 2/5 [3/22] spin/ns=2000/cold: 1200 samples, 10.2 s"
            "\r\033[Kprocess 2/5 [3/22] spin/ns=2000/cold: 20 samples, 0.5 s");
  EXPECT_EQ(terminal_screen(drawn),
            std::vector<std::string>{"process 2/5 [3/22] spin/ns=2000/cold: 20 samples, 0.5 s"});

  line.clear();
  std::fputs("Benchmark  Samples\n", pty.out);  // what the runner prints next
  const std::string after = drawn + pty.read();
  const std::vector<std::string> shown = terminal_screen(after);
  ASSERT_GE(shown.size(), 1u);
  EXPECT_EQ(shown[0], "Benchmark  Samples") << "the line was erased before the table";

  line.clear();  // nothing drawn since: nothing written
  EXPECT_EQ(pty.read(), "");
}

TEST(ProgressLine, NeverWiderThanTheTerminal) {
  Pty pty{40};
  ASSERT_NE(pty.out, nullptr);
  main::ProgressLine line{pty.out, true, ""};
  const std::string name = "transpose/variant=naive/side=4096/cold/device=1";
  line.show(17, 22, progress(name, 337, 0.25));
  const std::vector<std::string> shown = terminal_screen(pty.read());
  ASSERT_EQ(shown.size(), 1u) << "a wrapped line could not be erased";
  EXPECT_EQ(shown[0], "[17/22] transpose/variant=naive/side=40");
  EXPECT_EQ(shown[0].size(), 39u);
}

TEST(ProgressLine, ControlCharactersInANameCannotBreakTheLine) {
  const std::string name = "odd\nname\x1b[31m";
  EXPECT_EQ(main::ProgressLine::text("", 1, 1, progress(name, 5, 1.0), 0),
            "[1/1] odd?name?[31m: 5 samples, 1.0 s");
}

TEST(ProgressLine, ARepetitionFollowsTheName) {
  const std::string name = "spin/ns=2000/cold";
  EXPECT_EQ(main::ProgressLine::text("", 2, 4, progress(name, 7, 0.25), 0, " (repetition 2/3)"),
            "[2/4] spin/ns=2000/cold (repetition 2/3): 7 samples, 0.2 s");
}

TEST(ProgressLine, SilentWhenNotATerminal) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::FILE* out = ::fdopen(fds[1], "w");
  main::ProgressLine line{out, main::ProgressLine::wanted(false, out), ""};
  const std::string name = "spin/ns=2000/cold";
  line.show(1, 1, progress(name, 20, 0.5));
  line.clear();
  std::fclose(out);  // flushes and closes the write end
  char buffer[64];
  EXPECT_EQ(::read(fds[0], buffer, sizeof buffer), 0) << "nothing was written to the pipe";
  ::close(fds[0]);
}

}  // namespace
}  // namespace kerntime::main
