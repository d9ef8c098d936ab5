// SPDX-License-Identifier: Apache-2.0
#include "support/golden.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <gtest/gtest.h>

namespace kerntime::testing {

bool updating_goldens() {
  const char* value = std::getenv("KERNTIME_UPDATE_GOLDEN");
  return value != nullptr && std::string(value) == "1";
}

void expect_golden(const std::string& directory, const std::string& file,
                   const std::string& actual) {
  const std::string path = directory + "/golden/" + file;
  if (updating_goldens()) {
    std::ofstream out(path, std::ios::binary);
    out << actual;
    ASSERT_TRUE(out.good()) << "cannot write " << path;
    std::cout << "updated " << path << "\n";
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file " << path
                         << "; create it with KERNTIME_UPDATE_GOLDEN=1";
  std::ostringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(actual, expected.str())
      << "the output differs from " << path
      << "; if the change is intended, regenerate with KERNTIME_UPDATE_GOLDEN=1";
}

}  // namespace kerntime::testing
