// SPDX-License-Identifier: Apache-2.0
// A table's name column as the caller's NameStyle asks, the note that says the names are not
// whole, and the lines under a terminal table kept inside its width.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <kerntime/name_style.hpp>

#include "text/short_name.hpp"

namespace kerntime::format {

/// The widest line of a table meant for a terminal (kerntime run's summary).
inline constexpr std::size_t kTerminalColumns = 120;
/// The narrowest name column such a table gives, however wide its other columns are.
inline constexpr std::size_t kMinNameColumns = 24;

/// The names of a table's rows: whole, or shortened to `width` columns and told apart
/// (detail::ShortNames). Not escaped: the view escapes them as its format needs.
class NameColumn {
 public:
  NameColumn(NameStyle style, std::size_t rows, text::ShortNames::NameAt name_at,
             std::size_t width = text::kShortNameWidth,
             text::NameKind kind = text::NameKind::symbol);

  std::string operator()(std::size_t row) const;
  bool shortened() const { return short_ && short_->shortened(); }
  bool numbered() const { return short_ && short_->numbered(); }

 private:
  text::ShortNames::NameAt name_at_;
  std::optional<text::ShortNames> short_;
};

/// "names are shortened ...; --names full shows them whole", saying what " #1" means when
/// `numbered`; empty when nothing was shortened.
std::string names_note(bool shortened, bool numbered);

/// `prefix` + `text` as lines of at most `width` columns, broken at spaces (a word longer than a
/// line at its columns), continued under the text after the prefix; each line ends in "\n".
std::string wrap_lines(const std::string& prefix, const std::string& text,
                       std::size_t width = kTerminalColumns);

}  // namespace kerntime::format
