// SPDX-License-Identifier: Apache-2.0
// What the command tests of `kerntime compare` and `kerntime report` share: the command run in
// the test data directory, and small text and file helpers (line counts: text_counts.hpp).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "support/run_command.hpp"
#include "support/text_counts.hpp"

namespace kerntime::cli_test {

using testing::CommandResult;
using testing::count_lines_with;
using testing::run_command;

inline const std::string kData = KERNTIME_TEST_DATA_DIR "/data";
// A report of the benchmark engine: how each entry was measured, with its declared work.
inline const std::string kEngineReport =
    KERNTIME_TEST_DATA_DIR "/../format/golden/engine_report.json";

// Runs kerntime in the data directory, so messages carry the short file names users type.
inline CommandResult kerntime(const std::string& arguments) {
  return run_command("cd '" + kData + "' && NO_COLOR= '" KERNTIME_EXECUTABLE "' " + arguments);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "kerntime_compare_" + name;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace kerntime::cli_test
