// SPDX-License-Identifier: Apache-2.0
// What the tests of other tools' files share: their data files (tests/report/data), the message
// a malformed one gets, and the report's warnings.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <kerntime/report.hpp>
#include <kerntime/report_interop.hpp>

#include "support/error_message.hpp"

namespace kerntime::interop_test {

inline const std::string kData = KERNTIME_TEST_DATA_DIR "/data";

inline std::string read_data(const std::string& name) {
  std::ifstream in(kData + "/" + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string error_of(const std::string& text, const std::string& source = "x.json") {
  return testing::error_message([&] { parse_any_report(text, source); });
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline bool any_warning(const Report& report, const std::string& part) {
  for (const std::string& w : report.warnings) {
    if (contains(w, part)) return true;
  }
  return false;
}

}  // namespace kerntime::interop_test
