// SPDX-License-Identifier: Apache-2.0
// The parsers and the glob behind Thresholds::add() and CompareOptions::set_min_change(); private
// to the library (tests include it), the public way in is those two.
#pragma once

#include <string_view>

namespace kerntime {

/// Parses a relative amount: "5%", "2.5 %" or "0.05" (a bare number must be below 1, so "5" is
/// rejected rather than guessed). Throws kerntime::Error naming `text`.
double parse_fraction(std::string_view text);

/// Parses a duration into nanoseconds: "500ns", "0.5us", "2 ms", "1s", or "0". Throws
/// kerntime::Error naming `text` for anything else or a negative value.
double parse_duration_ns(std::string_view text);

/// Shell-style glob match of the whole `text`: `*` any run of characters, `?` one character.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace kerntime
