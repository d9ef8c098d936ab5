// SPDX-License-Identifier: Apache-2.0
// Standard error closed, full, or a pipe nobody reads: a diagnostic is lost, nothing else (the
// exit status, a report). Standard output the user asked for (help, a table) that cannot be
// written fails the command with status 2.
#include <csignal>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/report_json.hpp>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::run_command;

const std::string cli = KERNTIME_CLI;
const std::string data = std::string{KERNTIME_TEST_DATA_DIR} + "/../compare/data/";

// `command` through /bin/sh with its standard error the write end of a pipe whose read end is
// closed: every write gets EPIPE and SIGPIPE, left at its default. The shell's exit status, or
// 128 + N when signal N ended the command.
int status_with_stderr_to_a_closed_pipe(const std::string& command) {
  int ends[2];
  if (pipe(ends) != 0) return -1;
  const pid_t child = fork();
  if (child == 0) {
    std::signal(SIGPIPE, SIG_DFL);
    dup2(ends[1], 2);
    close(ends[0]);
    close(ends[1]);
    execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(ends[0]);
  close(ends[1]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(CliStreams, AnErrorWithStandardErrorClosedOrFullStillExitsTwo) {
  for (const std::string redirect : {"2>/dev/full", "2>&-"}) {
    for (const std::string args :
         {"report /no/such/report.json", "compare /no/such/a.json /no/such/b.json",
          "nonsense-command", "report --no-such-option x.json",
          "run --capture-range sometimes -- true", "run -- /no/such/program"}) {
      // Braces: the inner redirection wins over run_command's own 2>FILE.
      const auto result = run_command("{ " + cli + " " + args + " " + redirect + "; }");
      EXPECT_EQ(result.exit_status, 2) << args << " " << redirect;
      EXPECT_EQ(result.err, "") << args << " " << redirect;
    }
  }
}

TEST(CliStreams, AnErrorWithStandardErrorToAPipeNobodyReadsStillExitsTwo) {
  EXPECT_EQ(status_with_stderr_to_a_closed_pipe(cli + " report /no/such/report.json"), 2);
  EXPECT_EQ(status_with_stderr_to_a_closed_pipe(cli + " nonsense-command"), 2);
}

TEST(CliStreams, RunKeepsTheProgramsStatusAndReportWhateverStandardErrorIs) {
  const std::string path = ::testing::TempDir() + "kerntime_cli_streams_run.json";
  for (const std::string redirect : {"2>/dev/full", "2>&-"}) {
    std::remove(path.c_str());
    const auto result =
        run_command("{ " + cli + " run -o " + path + " -- sh -c 'exit 3' " + redirect + "; }");
    EXPECT_EQ(result.exit_status, 3) << redirect;
    const Report report = read_report_file(path);
    ASSERT_FALSE(report.warnings.empty()) << redirect;
    EXPECT_NE(report.warnings.front().find("no CUDA work"), std::string::npos) << redirect;
  }
  std::remove(path.c_str());
  EXPECT_EQ(status_with_stderr_to_a_closed_pipe(cli + " run -o " + path + " -- sh -c 'exit 3'"), 3);
  EXPECT_NO_THROW(read_report_file(path));
}

// The program's standard error is the one kerntime got: a closed one stays closed for it.
TEST(CliStreams, RunLeavesAClosedStandardErrorClosedForTheProgram) {
  const auto result =
      run_command("{ " + cli +
                  " run -- sh -c 'if true >&2; then echo open; else echo closed; fi' " + "2>&-; }");
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_EQ(result.out, "closed\n");
}

TEST(CliStreams, OutputThatCannotBeWrittenFailsWithOneLine) {
  for (const std::string& args :
       std::vector<std::string>{"--help", "--version", "run --help", "report --help",
                                "--check-arguments info", "report " + data + "base.json",
                                "compare " + data + "base.json " + data + "slower.json"}) {
    for (const std::string redirect : {">/dev/full", ">&-"}) {
      const auto result = run_command("{ " + cli + " " + args + " " + redirect + "; }");
      EXPECT_EQ(result.exit_status, 2) << args << " " << redirect;
      EXPECT_EQ(testing::line_count(result.err), 1) << args << " " << redirect << result.err;
      EXPECT_NE(result.err.find("kerntime: cannot write to standard output"), std::string::npos)
          << args << " " << redirect << ": " << result.err;
    }
    // Neither output can be written: still status 2, not an abort.
    const auto both = run_command("{ " + cli + " " + args + " >/dev/full 2>/dev/full; }");
    EXPECT_EQ(both.exit_status, 2) << args;
  }
  const auto help = run_command(cli + " --help");
  EXPECT_EQ(help.exit_status, 0);
  EXPECT_NE(help.out.find("Usage"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace kerntime
