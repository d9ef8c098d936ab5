// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string_view>

namespace kerntime::report {

/// Inverse of kerntime::cuda_version_string(): "12.8" -> 12080; nothing for anything else ("12",
/// "v13.0").
inline std::optional<int> parse_cuda_version(std::string_view text) {
  const auto dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == text.size()) return std::nullopt;
  int major = 0;
  int minor = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == dot) continue;
    const char c = text[i];
    if (c < '0' || c > '9') return std::nullopt;
    int& part = i < dot ? major : minor;
    part = part * 10 + (c - '0');
    // Bounds keep the arithmetic far from overflow; no CUDA version comes close.
    if (part > 99999) return std::nullopt;
  }
  if (minor > 99) return std::nullopt;
  return major * 1000 + minor * 10;
}

}  // namespace kerntime::report
