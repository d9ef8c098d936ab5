// SPDX-License-Identifier: Apache-2.0
// The suggestion after an unknown command or option: the known word closest to what was typed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kerntime::cli {

/// The candidate within a small edit distance of `word` (at most 2, or 3 for words of 8 or
/// more characters; the nearest, the first of equals), or "" when none is that close.
std::string closest(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace kerntime::cli
