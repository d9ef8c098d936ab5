// SPDX-License-Identifier: Apache-2.0
// A terminating signal during an atomic write removes the temporary file, and leaves a
// program's own handling of the signal as it was. Each case runs temporary_files_probe, a fresh
// process (the handlers are installed once per process).
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int status = -1;     // as the shell reports it: 128 + N for a death by signal N
  std::string output;  // what the probe said
  std::string file;    // the target's text afterwards
  int leftovers = 0;   // files in the folder besides the target
};

Outcome probe(const std::string& scenario, int signal) {
  const fs::path folder =
      fs::temp_directory_path() / ("kerntime_signal_" + scenario + "_" + std::to_string(signal) +
                                   "_" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  const fs::path target = folder / "out.json";
  std::ofstream(target) << "the old text";
  const auto result =
      testing::run_command(std::string{KERNTIME_TEMPORARY_FILES_PROBE} + " " + scenario + " " +
                           std::to_string(signal) + " '" + target.string() + "'; echo status=$?");
  Outcome outcome;
  const std::size_t at = result.out.rfind("status=");
  if (at != std::string::npos) outcome.status = std::stoi(result.out.substr(at + 7));
  outcome.output = result.out.substr(0, at);
  std::ifstream in(target);
  std::ostringstream text;
  text << in.rdbuf();
  outcome.file = text.str();
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path() != target) ++outcome.leftovers;
  }
  fs::remove_all(folder);
  return outcome;
}

TEST(TemporaryFiles, ATerminatingSignalRemovesTheTemporaryFile) {
  for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
    const Outcome outcome = probe("default", signal);
    EXPECT_EQ(outcome.status, 128 + signal) << "signal " << signal << ": " << outcome.output;
    EXPECT_EQ(outcome.leftovers, 0) << "signal " << signal << " left the temporary file";
    EXPECT_EQ(outcome.file, "the old text") << "signal " << signal;
  }
}

// `kerntime run`'s injection library handles SIGTERM so: its handler writes the report, resets
// the signal and raises it again. The writer's handler runs it, then removes the file.
TEST(TemporaryFiles, AHandlerThatEndsTheProcessRunsAndTheFileIsRemoved) {
  const Outcome outcome = probe("ends", SIGTERM);
  EXPECT_EQ(outcome.output, "handler\n");
  EXPECT_EQ(outcome.status, 128 + SIGTERM);
  EXPECT_EQ(outcome.leftovers, 0) << "the temporary file was left";
  EXPECT_EQ(outcome.file, "the old text");
}

// A program whose handler returns carries on: its write is completed, not broken.
TEST(TemporaryFiles, AHandlerThatReturnsLetsTheWriteComplete) {
  for (const int signal : {SIGTERM, SIGINT}) {
    const Outcome outcome = probe("carries-on", signal);
    EXPECT_EQ(outcome.output, "handler\n") << "signal " << signal;
    EXPECT_EQ(outcome.status, 0) << "signal " << signal;
    EXPECT_EQ(outcome.file, "the new text") << "signal " << signal;
    EXPECT_EQ(outcome.leftovers, 0) << "signal " << signal;
  }
}

// nohup's SIGHUP stays ignored, for the process and for the programs it starts.
TEST(TemporaryFiles, AnIgnoredSignalStaysIgnored) {
  const Outcome outcome = probe("ignored", SIGHUP);
  EXPECT_EQ(outcome.output, "still ignored\n");
  EXPECT_EQ(outcome.status, 0);
  EXPECT_EQ(outcome.file, "the new text");
  EXPECT_EQ(outcome.leftovers, 0);
}

// A child made by fork() inherits the registry, but its parent's files are not its own.
TEST(TemporaryFiles, AForkedChildLeavesItsParentsFile) {
  const Outcome outcome = probe("fork-child", SIGTERM);
  EXPECT_EQ(outcome.output, "temporary file kept\n");
  EXPECT_EQ(outcome.status, 0);
  EXPECT_EQ(outcome.file, "the new text");
  EXPECT_EQ(outcome.leftovers, 0);
}

}  // namespace
}  // namespace kerntime
