// SPDX-License-Identifier: Apache-2.0
#include "io/file_writer.hpp"

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>

#include "support/error_message.hpp"

namespace kerntime {
namespace {

namespace fs = std::filesystem;

// A fresh, empty folder per test.
fs::path fresh_folder(const std::string& name) {
  const fs::path folder =
      fs::temp_directory_path() / ("kerntime_io_" + name + "_" + std::to_string(::getpid()));
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

std::size_t files_in(const fs::path& folder) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder))
    ++n;
  return n;
}

std::string error_of(const std::function<void()>& action) {
  return testing::error_message([&] { action(); });
}

TEST(WriteFileAtomically, CreatesAndReplacesTheFile) {
  const fs::path folder = fresh_folder("replace");
  const std::string path = (folder / "out.json").string();
  io::write_file_atomically(path, "old");
  EXPECT_EQ(contents(path), "old");
  io::write_file_atomically(path, std::string(100'000, 'x'));
  EXPECT_EQ(contents(path), std::string(100'000, 'x'));
  io::write_file_atomically(path, "");
  EXPECT_EQ(contents(path), "");
  EXPECT_EQ(files_in(folder), 1u) << "a temporary file was left behind";
  fs::remove_all(folder);
}

TEST(WriteFileAtomically, GivesThePermissionsOfANewFile) {
  const fs::path folder = fresh_folder("mode");
  const std::string path = (folder / "out.txt").string();
  const mode_t old_mask = ::umask(022);
  io::write_file_atomically(path, "text");
  ::umask(027);
  const std::string second = (folder / "second.txt").string();
  io::write_file_atomically(second, "text");
  ::umask(old_mask);
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
  ASSERT_EQ(::stat(second.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0640u);
  fs::remove_all(folder);
}

TEST(WriteFileAtomically, AMissingFolderNamesThePathAndTheCause) {
  const fs::path folder = fresh_folder("missing");
  const std::string path = (folder / "no-such-dir" / "out.json").string();
  EXPECT_EQ(error_of([&] { io::write_file_atomically(path, "text"); }),
            "cannot write " + path + ": No such file or directory");
  EXPECT_EQ(files_in(folder), 0u);
  fs::remove_all(folder);
}

TEST(WriteFileAtomically, AFolderIsNotReplaced) {
  const fs::path folder = fresh_folder("folder");
  EXPECT_EQ(error_of([&] { io::write_file_atomically(folder.string(), "text"); }),
            "cannot write " + folder.string() + ": Is a directory");
  fs::remove_all(folder);
}

// A write that fails halfway (here: the file size limit, which holds for root too, where
// read-only folders do not) leaves the old file as it was and no temporary file.
TEST(WriteFileAtomically, AFailedWriteLeavesTheOldFile) {
  const fs::path folder = fresh_folder("partial");
  const std::string path = (folder / "baseline.json").string();
  io::write_file_atomically(path, "the old baseline");
  rlimit old_limit{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old_limit;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::string message =
      error_of([&] { io::write_file_atomically(path, std::string(100'000, 'x')); });
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(message, "cannot write " + path + ": File too large");
  EXPECT_EQ(contents(path), "the old baseline");
  EXPECT_EQ(files_in(folder), 1u) << "the temporary file was not removed";
  fs::remove_all(folder);
}

TEST(WriteFileAtomically, ALinkKeepsPointingAtTheReplacedFile) {
  const fs::path folder = fresh_folder("link");
  const fs::path target = folder / "real.json";
  const fs::path link = folder / "link.json";
  io::write_file_atomically(target.string(), "old");
  fs::create_symlink(target, link);
  io::write_file_atomically(link.string(), "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(contents(target), "new");
  fs::remove_all(folder);
}

// A report kept private with chmod 600 stays private when it is written again.
TEST(WriteFileAtomically, AReplacedFileKeepsItsMode) {
  const fs::path folder = fresh_folder("keep_mode");
  const std::string path = (folder / "out.json").string();
  io::write_file_atomically(path, "old");
  const mode_t old_mask = ::umask(022);
  for (const mode_t mode : {0600, 0640, 0604}) {
    ASSERT_EQ(::chmod(path.c_str(), mode), 0);
    io::write_file_atomically(path, "new");
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, mode) << std::oct << "0" << mode;
    EXPECT_EQ(contents(path), "new");
  }
  ::umask(old_mask);
  EXPECT_EQ(files_in(folder), 1u);
  fs::remove_all(folder);
}

// Writing through a link that points at no file yet creates the file it points at, as a
// shell's `>` does, and keeps the link; a chain of relative links is followed from each link's
// own folder, and the temporary file goes beside the target, not beside the link.
TEST(WriteFileAtomically, ALinkToAMissingFileCreatesItsTarget) {
  const fs::path folder = fresh_folder("dangling");
  fs::create_directories(folder / "links");
  fs::create_directories(folder / "data");
  fs::create_symlink("../data/real.json", folder / "links" / "direct.json");
  fs::create_symlink("direct.json", folder / "links" / "chain.json");
  io::write_file_atomically((folder / "links" / "chain.json").string(), "through two links");
  EXPECT_TRUE(fs::is_symlink(folder / "links" / "chain.json"));
  EXPECT_TRUE(fs::is_symlink(folder / "links" / "direct.json"));
  EXPECT_EQ(fs::read_symlink(folder / "links" / "direct.json"), "../data/real.json");
  EXPECT_EQ(contents(folder / "data" / "real.json"), "through two links");
  EXPECT_EQ(files_in(folder / "links"), 2u);
  EXPECT_EQ(files_in(folder / "data"), 1u);
  // A link into a folder that does not exist names the link and the cause.
  fs::create_symlink("nowhere/real.json", folder / "links" / "lost.json");
  const std::string lost = (folder / "links" / "lost.json").string();
  EXPECT_EQ(error_of([&] { io::write_file_atomically(lost, "text"); }),
            "cannot write " + lost + ": No such file or directory");
  fs::remove_all(folder);
}

TEST(WriteFileAtomically, ALoopOfLinksNamesTheCause) {
  const fs::path folder = fresh_folder("loop");
  fs::create_symlink("b.json", folder / "a.json");
  fs::create_symlink("a.json", folder / "b.json");
  const std::string path = (folder / "a.json").string();
  EXPECT_EQ(error_of([&] { io::write_file_atomically(path, "text"); }),
            "cannot write " + path + ": Too many levels of symbolic links");
  EXPECT_EQ(files_in(folder), 2u);
  fs::remove_all(folder);
}

TEST(WriteFileAtomically, ADeviceIsWrittenInPlace) {
  EXPECT_NO_THROW(io::write_file_atomically("/dev/null", "text"));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_EQ(error_of([] { io::write_file_atomically("/dev/full", "text"); }),
            "cannot write /dev/full: No space left on device");
}

TEST(AtomicFileWriter, PiecesLargerAndSmallerThanItsBufferArriveInOrder) {
  const fs::path folder = fresh_folder("pieces");
  const std::string path = (folder / "out.txt").string();
  std::string expected;
  {
    io::AtomicFileWriter file(path);
    for (int i = 0; i < 3000; ++i) {
      const std::string piece = std::to_string(i) + std::string(997, 'a' + i % 26) + "\n";
      file.write(piece);
      expected += piece;
    }
    const std::string large(3 << 20, 'L');  // bypasses the buffer
    file.write(large);
    expected += large;
    file.write("end");
    expected += "end";
    EXPECT_FALSE(fs::exists(path)) << "the target appeared before the commit";
    file.commit();
  }
  EXPECT_EQ(contents(path), expected);
  EXPECT_EQ(files_in(folder), 1u) << "a temporary file was left behind";
  fs::remove_all(folder);
}

// An exception while rendering unwinds through the writer: the old file stays.
TEST(AtomicFileWriter, DestroyedWithoutCommitLeavesTheOldFile) {
  const fs::path folder = fresh_folder("abandon");
  const std::string path = (folder / "baseline.json").string();
  io::write_file_atomically(path, "the old baseline");
  {
    io::AtomicFileWriter file(path);
    file.write(std::string(5 << 20, 'x'));
  }
  EXPECT_EQ(contents(path), "the old baseline");
  EXPECT_EQ(files_in(folder), 1u) << "the temporary file was not removed";
  fs::remove_all(folder);
}

TEST(AtomicFileWriter, AFailureWhileWritingNamesThePathAndLeavesTheOldFile) {
  const fs::path folder = fresh_folder("midway");
  const std::string path = (folder / "baseline.json").string();
  io::write_file_atomically(path, "the old baseline");
  rlimit old_limit{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old_limit;
  small.rlim_cur = 1 << 20;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::string message = error_of([&] {
    io::AtomicFileWriter file(path);
    for (int i = 0; i < 4; ++i)
      file.write(std::string(1 << 20, 'x'));
    file.commit();
  });
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(message, "cannot write " + path + ": File too large");
  EXPECT_EQ(contents(path), "the old baseline");
  EXPECT_EQ(files_in(folder), 1u) << "the temporary file was not removed";
  fs::remove_all(folder);
}

// Standard output on /dev/full: the error surfaces instead of a silently lost result.
TEST(WriteStandardOutput, AFullDeviceIsAnError) {
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full here";
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  ASSERT_GE(saved, 0);
  const int full = ::open("/dev/full", O_WRONLY);
  ASSERT_GE(full, 0);
  ::dup2(full, STDOUT_FILENO);
  ::close(full);
  const std::string message = error_of([] { io::write_standard_output("a result\n"); });
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  EXPECT_EQ(message, "cannot write to standard output: No space left on device");
}

TEST(WriteStandardOutput, WritesToAPipe) {
  std::fflush(stdout);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const int saved = ::dup(STDOUT_FILENO);
  ::dup2(fds[1], STDOUT_FILENO);
  ::close(fds[1]);
  io::write_standard_output("hello\n");
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  char buffer[16] = {};
  const ssize_t got = ::read(fds[0], buffer, sizeof buffer);
  ::close(fds[0]);
  EXPECT_EQ(std::string(buffer, got > 0 ? static_cast<std::size_t>(got) : 0), "hello\n");
}

}  // namespace
}  // namespace kerntime
