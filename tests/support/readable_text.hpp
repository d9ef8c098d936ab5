// SPDX-License-Identifier: Apache-2.0
// What every text view promises people (issue 25, item 8): no "inf", no "nan" and no number of
// more than 12 digits, whatever the values behind it (overflowed ratios, denormal samples,
// durations of 1e300 ns).
#pragma once

#include <cctype>
#include <cstddef>
#include <string>

namespace kerntime::testing {

/// The first part of `text` that breaks the promise, with some context; empty when none does.
/// `check_digits` false for CSV, whose numbers are exact (up to 17 digits) for programs.
inline std::string unreadable_part(const std::string& text, bool check_digits = true) {
  const auto context = [&](std::size_t at) {
    const std::size_t from = at < 40 ? 0 : at - 40;
    return "'" + text.substr(from, 100) + "'";
  };
  const auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  const auto lower = [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t i = 0; i + 3 <= text.size(); ++i) {
    std::string word = text.substr(i, 3);
    for (char& c : word)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (word != "inf" && word != "nan") continue;
    // A word of its own or a number's suffix ("infE", "-nan"), not "info" or "nanoseconds".
    const bool starts = i == 0 || !letter(text[i - 1]);
    const bool ends = i + 3 == text.size() || !lower(text[i + 3]);
    if (starts && ends) return word + " at " + context(i);
  }
  if (!check_digits) return {};
  std::size_t digits = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      if (++digits > 12) return "more than 12 digits at " + context(i);
    } else if (c != '.') {
      digits = 0;
    }
  }
  return {};
}

}  // namespace kerntime::testing
