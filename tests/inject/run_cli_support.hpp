// SPDX-License-Identifier: Apache-2.0
// What the command tests of `kerntime run` share: a new empty folder, a file's text, and
// whether a path exists.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <stdlib.h>
#include <string>
#include <sys/stat.h>

#include <gtest/gtest.h>

namespace kerntime::run_cli_test {

// A new empty folder under the test's temporary folder.
inline std::string fresh_folder(const std::string& name) {
  std::string path = ::testing::TempDir() + name + "-XXXXXX";
  if (mkdtemp(path.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + path);
  return path;
}

inline std::string text_of(const std::string& path) {
  std::ifstream in{path};
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline bool exists(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
}

}  // namespace kerntime::run_cli_test
