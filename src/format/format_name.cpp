// SPDX-License-Identifier: Apache-2.0
#include "format/format_name.hpp"

#include <string>

#include <kerntime/error.hpp>

namespace kerntime::format {

std::size_t parse_format_name(std::string_view name,
                              std::initializer_list<FormatSpellings> formats) {
  std::size_t index = 0;
  for (const FormatSpellings& spellings : formats) {
    for (std::string_view spelling : spellings)
      if (name == spelling) return index;
    ++index;
  }
  std::string choices;
  index = 0;
  for (const FormatSpellings& spellings : formats) {
    if (spellings.size() == 0) continue;
    if (index > 0) choices += index + 1 == formats.size() ? " or " : ", ";
    choices += *spellings.begin();
    ++index;
  }
  throw Error("unknown format \"" + std::string{name} + "\": choose " + choices);
}

}  // namespace kerntime::format
