// SPDX-License-Identifier: Apache-2.0
// The one parser of output format names: parse_format() and parse_compare_format() share it, so
// both accept names alike and word an unknown name alike.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string_view>

namespace kerntime::format {

/// One format's spellings, the one the error message shows first ({"md", "markdown"}).
using FormatSpellings = std::initializer_list<std::string_view>;

/// The index in `formats` of the format that `name` spells. Throws kerntime::Error for any other
/// name: `unknown format "xml": choose table, md, csv or json`, which lists each format's first
/// spelling.
std::size_t parse_format_name(std::string_view name,
                              std::initializer_list<FormatSpellings> formats);

}  // namespace kerntime::format
