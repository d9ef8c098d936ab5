// SPDX-License-Identifier: Apache-2.0
// The bounded reader: regular files and links to them are read, devices, folders and FIFOs are
// refused before a read (none can block or fill memory), and the limit holds while reading.
#include "io/file_reader.hpp"

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
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

TEST(FileReader, DevicesFoldersAndFifosAreRefusedBeforeAnyRead) {
  EXPECT_EQ(message_of([] { io::read_file_bounded("/dev/zero", "/dev/zero", 100, "report"); }),
            "/dev/zero: cannot read report: it is a character device, not a regular file");
  const fs::path folder = fresh_folder("special");
  EXPECT_EQ(message_of([&] { io::read_file_bounded(folder.string(), "dir", 100, "report"); }),
            "dir: cannot read report: Is a directory");
  // A FIFO without a writer: opening it for reading would wait for a writer forever.
  const fs::path fifo = folder / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(message_of([&] { io::read_file_bounded(fifo.string(), "pipe", 100, "report"); }),
            "pipe: cannot read report: it is a FIFO, not a regular file");
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
