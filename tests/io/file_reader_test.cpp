// SPDX-License-Identifier: Apache-2.0
// The bounded reader: regular files, links to them, FIFOs and pipes are read; devices and
// folders are refused before a read (none can block or fill memory); a FIFO without a writer
// fails at once; and the limit holds while reading.
#include "io/file_reader.hpp"

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>

namespace kerntime {
namespace {

namespace fs = std::filesystem;

fs::path fresh_folder(const std::string& name) {
  const fs::path folder =
      fs::temp_directory_path() / ("kerntime_reader_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

// The message of the kerntime::Error that `read` throws, or "" when it throws none.
template <class Read>
std::string message_of(Read read) {
  try {
    read();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(FileReader, ReadsARegularFileAndALinkToIt) {
  const fs::path folder = fresh_folder("regular");
  std::ofstream(folder / "a.json") << "{\"x\": 1}";
  fs::create_symlink(folder / "a.json", folder / "link.json");
  EXPECT_EQ(io::read_file_bounded((folder / "a.json").string(), "a.json", 100, "report"),
            "{\"x\": 1}");
  EXPECT_EQ(io::read_file_bounded((folder / "link.json").string(), "link.json", 100, "report"),
            "{\"x\": 1}");
  EXPECT_EQ(io::read_file_bounded((folder / "a.json").string(), "a.json", 8, "report"),
            "{\"x\": 1}");
  fs::remove_all(folder);
}

TEST(FileReader, AFileOverTheLimitNamesFileAndLimit) {
  const fs::path folder = fresh_folder("large");
  std::ofstream(folder / "big.json") << std::string(2 * 1024 * 1024 + 1, ' ');
  EXPECT_EQ(message_of([&] {
              io::read_file_bounded((folder / "big.json").string(), "big.json", 2 * 1024 * 1024,
                                    "report");
            }),
            "big.json: report is larger than the limit of 2097152 bytes (2 MiB); is this the "
            "right file?");
  fs::remove_all(folder);
}

TEST(FileReader, DevicesAndFoldersAreRefusedBeforeAnyRead) {
  EXPECT_EQ(message_of([] { io::read_file_bounded("/dev/zero", "/dev/zero", 100, "report"); }),
            "/dev/zero: cannot read report: it is a character device, not a regular file");
  const fs::path folder = fresh_folder("special");
  EXPECT_EQ(message_of([&] { io::read_file_bounded(folder.string(), "dir", 100, "report"); }),
            "dir: cannot read report: Is a directory");
  fs::remove_all(folder);
}

// A FIFO nothing opened for writing: opening it for reading, as fopen does, would wait for a
// writer forever.
TEST(FileReader, AFifoWithoutAWriterFailsAtOnce) {
  const fs::path folder = fresh_folder("fifo");
  const fs::path fifo = folder / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(message_of([&] { io::read_file_bounded(fifo.string(), "pipe", 100, "report"); }),
            "pipe: cannot read report: nothing was written to the pipe (it is a FIFO without a "
            "writer, or its writer wrote nothing)");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  fs::remove_all(folder);
}

// `kerntime compare <(git show main:bench.json) bench.json` names /dev/fd/N, a pipe, and
// `cat f | kerntime report /dev/stdin` names standard input's pipe: both are read, the limit
// holding as for a file.
TEST(FileReader, APipeIsReadWithinTheLimit) {
  // A writer whose reader went away gets EPIPE, not a SIGPIPE that would end the test.
  const auto old_handler = std::signal(SIGPIPE, SIG_IGN);
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  ASSERT_EQ(::write(ends[1], "{\"x\": 1}", 8), 8);
  ::close(ends[1]);
  const std::string path = "/dev/fd/" + std::to_string(ends[0]);
  EXPECT_EQ(io::read_file_bounded(path, path, 100, "report"), "{\"x\": 1}");
  ::close(ends[0]);

  // A writer still writing: the reader waits for its end. Exactly the limit is not too much.
  ASSERT_EQ(::pipe(ends), 0);
  std::thread writer([out = ends[1]] {
    const std::string block(4096, ' ');
    for (int i = 0; i < 64; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 100 : 0));
      if (::write(out, block.data(), block.size()) < 0) break;  // the reader went away
    }
    ::close(out);
  });
  const std::string slow = "/dev/fd/" + std::to_string(ends[0]);
  std::size_t read = 0;
  const std::string message =
      message_of([&] { read = io::read_file_bounded(slow, "<(cat)", 64 * 4096, "report").size(); });
  ::close(ends[0]);  // a writer still writing gets EPIPE and ends
  writer.join();
  EXPECT_EQ(message, "");
  EXPECT_EQ(read, 64u * 4096);

  ASSERT_EQ(::pipe(ends), 0);
  std::thread endless([out = ends[1]] {
    const std::string block(4096, ' ');
    while (::write(out, block.data(), block.size()) > 0) {
    }
    ::close(out);
  });
  const std::string large = "/dev/fd/" + std::to_string(ends[0]);
  EXPECT_EQ(message_of([&] { io::read_file_bounded(large, "<(yes)", 100000, "report"); }),
            "<(yes): report is larger than the limit of 100000 bytes; is this the right file?");
  ::close(ends[0]);  // the writer's next write fails (EPIPE), and it ends
  endless.join();
  std::signal(SIGPIPE, old_handler);
}

// A named FIFO with a writer (`cat f > fifo &`) is read to its writer's end.
TEST(FileReader, AFifoWithAWriterIsReadToItsEnd) {
  const fs::path folder = fresh_folder("fifo_writer");
  const fs::path fifo = folder / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // O_RDWR never waits, and holds the FIFO open for writing until it is closed.
  const int writer = ::open(fifo.c_str(), O_RDWR);
  ASSERT_GE(writer, 0);
  ASSERT_EQ(::write(writer, "{\"y\": ", 6), 6);
  std::thread finish([writer] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    if (::write(writer, "2}", 2) == 2) ::close(writer);
  });
  std::string text;
  const std::string message =
      message_of([&] { text = io::read_file_bounded(fifo.string(), "pipe", 100, "report"); });
  finish.join();
  EXPECT_EQ(message, "");
  EXPECT_EQ(text, "{\"y\": 2}");
  fs::remove_all(folder);
}

// Standard input may be any stream; an endless one stops at the limit instead of filling memory.
TEST(FileReader, AnEndlessStandardInputStopsAtTheLimit) {
  const int saved = ::dup(STDIN_FILENO);
  ASSERT_GE(saved, 0);
  const int zero = ::open("/dev/zero", O_RDONLY);
  ASSERT_GE(zero, 0);
  ASSERT_EQ(::dup2(zero, STDIN_FILENO), STDIN_FILENO);
  ::close(zero);
  const std::string message =
      message_of([] { io::read_file_bounded("-", "<stdin>", 1024 * 1024, "report"); });
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  EXPECT_EQ(message,
            "<stdin>: report is larger than the limit of 1048576 bytes (1 MiB); is this the right "
            "file?");
}

}  // namespace
}  // namespace kerntime
