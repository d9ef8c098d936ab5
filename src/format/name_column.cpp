// SPDX-License-Identifier: Apache-2.0
#include "format/name_column.hpp"

#include <utility>
#include <vector>

namespace kerntime::format {
namespace {

// Code points of `word` split into pieces of at most `width` columns.
std::vector<std::string> split_word(const std::string& word, std::size_t width) {
  std::vector<std::string> pieces(1);
  std::size_t columns = 0;
  for (const char c : word) {
    const bool continuation = (static_cast<unsigned char>(c) & 0xC0) == 0x80;
    if (!continuation && columns == width) {
      pieces.emplace_back();
      columns = 0;
    }
    pieces.back() += c;
    if (!continuation) ++columns;
  }
  return pieces;
}

}  // namespace

NameColumn::NameColumn(NameStyle style, std::size_t rows, text::ShortNames::NameAt name_at,
                       std::size_t width, text::NameKind kind)
    : name_at_(std::move(name_at)) {
  if (style == NameStyle::short_form) short_.emplace(rows, name_at_, width, kind);
}

std::string NameColumn::operator()(std::size_t row) const {
  return std::string{short_ ? (*short_)(row) : name_at_(row)};
}

std::string names_note(bool shortened, bool numbered) {
  if (!shortened) return {};
  return numbered ? "names are shortened (template arguments and parameters left out) and "
                    "numbered where they read alike; --names full shows them whole"
                  : "names are shortened (template arguments and parameters left out); "
                    "--names full shows them whole";
}

std::string wrap_lines(const std::string& prefix, const std::string& text, std::size_t width) {
  const std::size_t indent = text::text_columns(prefix);
  const std::size_t room = width > indent + 8 ? width - indent : 8;
  std::string out = prefix;
  std::size_t used = 0;  // columns of text on the current line
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    for (const std::string& piece : split_word(text.substr(start, end - start), room)) {
      const std::size_t columns = text::text_columns(piece);
      if (used > 0 && used + 1 + columns > room) {
        out += "\n" + std::string(indent, ' ');
        used = 0;
      }
      if (used > 0) {
        out += ' ';
        ++used;
      }
      out += piece;
      used += columns;
    }
    start = end + 1;
  }
  return out + "\n";
}

}  // namespace kerntime::format
