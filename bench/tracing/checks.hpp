// SPDX-License-Identifier: Apache-2.0
// trace_bench's verdicts: each check prints one PASS or FAIL line, and the program's exit status
// says whether any failed.
#pragma once

#include <cstdio>
#include <string>

namespace trace_examples {

class Checks {
 public:
  /// Prints "  PASS  what: detail" or "  FAIL  what: detail"; returns `pass`.
  bool check(bool pass, const std::string& what, const std::string& detail) {
    std::printf("  %s  %s: %s\n", pass ? "PASS" : "FAIL", what.c_str(), detail.c_str());
    (pass ? passed_ : failed_) += 1;
    return pass;
  }
  int passed() const { return passed_; }
  int failed() const { return failed_; }

 private:
  int passed_ = 0;
  int failed_ = 0;
};

/// Microseconds with `digits` decimals, for tables that compare numbers across rows.
inline std::string us(double ns, int digits = 3) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f us", digits, ns / 1e3);
  return text;
}

/// Signed microseconds ("+0.120 us").
inline std::string signed_us(double ns, int digits = 3) {
  char text[64];
  std::snprintf(text, sizeof(text), "%+.*f us", digits, ns / 1e3);
  return text;
}

}  // namespace trace_examples
