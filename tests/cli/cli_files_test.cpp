// SPDX-License-Identifier: Apache-2.0
// The commands' files as a shell hands them over: reports from pipes and FIFOs (process
// substitution, /dev/stdin), a FIFO without a writer refused at once, and -o that keeps a
// file's mode and writes through a symbolic link.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

namespace fs = std::filesystem;
using testing::run_command;

const std::string cli = KERNTIME_CLI;

fs::path fresh_folder(const std::string& name) {
  const fs::path folder =
      fs::temp_directory_path() / ("kerntime_cli_files_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Two reports of one entry, the second 50 % slower.
void write_reports(const fs::path& folder) {
  std::ofstream(folder / "base.json")
      << R"({"schema": "kerntime-report/1", "entries": [{"name": "gemm", "samples": )"
      << R"([100000, 101000, 99000, 100000, 102000, 98000, 100000, 101000, 99000, 100000]}]})";
  std::ofstream(folder / "new.json")
      << R"({"schema": "kerntime-report/1", "entries": [{"name": "gemm", "samples": )"
      << R"([150000, 151000, 149000, 150000, 152000, 148000, 150000, 151000, 149000, 150000]}]})";
}

// The issue's own commands: `compare <(git show main:bench.json) bench.json` (bash's process
// substitution names /dev/fd/63, a pipe) and `cat f | kerntime report /dev/stdin`. Both were
// refused as "a FIFO" when the reader took regular files only.
TEST(CliFiles, ReportsAreReadFromPipes) {
  const fs::path folder = fresh_folder("pipes");
  write_reports(folder);
  const std::string base = (folder / "base.json").string();
  const std::string candidate = (folder / "new.json").string();
  const auto compared = run_command("bash -c \"'" + cli + "' compare <(cat '" + base + "') '" +
                                    candidate + "' --format md\"");
  EXPECT_EQ(compared.exit_status, 1) << compared.err;  // the candidate is slower
  EXPECT_NE(compared.out.find("| gemm"), std::string::npos) << compared.out;
  EXPECT_NE(compared.out.find("**regressed**"), std::string::npos) << compared.out;

  const auto reported =
      run_command("cat '" + base + "' | '" + cli + "' report /dev/stdin --format csv");
  EXPECT_EQ(reported.exit_status, 0) << reported.err;
  EXPECT_NE(reported.out.find("\ngemm,,,10,100000,"), std::string::npos) << reported.out;
  fs::remove_all(folder);
}

// A named FIFO with a writer is read to the writer's end; one without a writer fails at once
// with one line, where opening it as before the refusal (fopen) waited forever.
TEST(CliFiles, AFifoIsReadFromItsWriterAndOneWithoutFailsAtOnce) {
  const fs::path folder = fresh_folder("fifo");
  write_reports(folder);
  const std::string fifo = (folder / "pipe.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // The shell holds the FIFO open (<> neither waits nor ends the stream) and writes the report
  // into it; it lets go once kerntime has the FIFO open for reading (lr-x in /proc: before the
  // exec, the forked shell still holds the read-write descriptor, lrwx), and kerntime reads to
  // the end.
  const auto written = run_command(
      "exec 3<>'" + fifo + "'; cat '" + (folder / "base.json").string() + "' >&3; '" + cli +
      "' report '" + fifo +
      "' --format csv 3>&- & pid=$!; i=0; while ! ls -l /proc/$pid/fd 2>/dev/null | grep -q "
      "'^lr-x.*pipe.json' && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; exec 3>&-; wait "
      "$pid");
  EXPECT_EQ(written.exit_status, 0) << written.err;
  EXPECT_NE(written.out.find("\ngemm,,,10,100000,"), std::string::npos) << written.out;

  const auto start = std::chrono::steady_clock::now();
  const auto alone = run_command("'" + cli + "' report '" + fifo + "'");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(alone.exit_status, 2);
  EXPECT_EQ(alone.err, "kerntime: " + fifo +
                           ": cannot read report: nothing was written to the pipe (it is a FIFO "
                           "without a writer, or its writer wrote nothing)\n");
  fs::remove_all(folder);
}

// `-o` replaces the file atomically (a temporary file renamed over it): it used to give the new
// file the mode of a new file (0644) and to replace a link to a missing file with a file.
TEST(CliFiles, OutputKeepsTheModeAndWritesThroughALink) {
  const fs::path folder = fresh_folder("output");
  write_reports(folder);
  const std::string base = (folder / "base.json").string();
  const fs::path out = folder / "private.md";
  std::ofstream(out) << "old";
  ASSERT_EQ(::chmod(out.c_str(), 0600), 0);
  const auto kept =
      run_command("umask 022 && '" + cli + "' report '" + base + "' -o '" + out.string() + "'");
  EXPECT_EQ(kept.exit_status, 0) << kept.err;
  struct stat info {};
  ASSERT_EQ(::stat(out.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  EXPECT_NE(contents(out).find("gemm"), std::string::npos);

  fs::create_directories(folder / "results");
  fs::create_symlink("results/latest.md", folder / "latest.md");
  const auto linked = run_command("'" + cli + "' report '" + base + "' -o '" +
                                  (folder / "latest.md").string() + "'");
  EXPECT_EQ(linked.exit_status, 0) << linked.err;
  EXPECT_TRUE(fs::is_symlink(folder / "latest.md"));
  EXPECT_NE(contents(folder / "results" / "latest.md").find("gemm"), std::string::npos);
  fs::remove_all(folder);
}

}  // namespace
}  // namespace kerntime
