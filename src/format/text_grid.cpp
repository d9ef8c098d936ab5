// SPDX-License-Identifier: Apache-2.0
#include "format/text_grid.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

namespace kerntime::format {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not valid.
std::size_t utf8_sequence(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  // Overlong three- and four-byte forms, surrogates and code points above U+10FFFF.
  if (lead == 0xe0 && byte(i + 1) < 0xa0) return 0;
  if (lead == 0xed && byte(i + 1) >= 0xa0) return 0;
  if (lead == 0xf0 && byte(i + 1) < 0x90) return 0;
  if (lead == 0xf4 && byte(i + 1) >= 0x90) return 0;
  return length;
}

// The code point of the valid UTF-8 sequence of `length` bytes at text[i].
char32_t code_point(const std::string& text, std::size_t i, std::size_t length) {
  const auto byte = [&](std::size_t k) {
    return static_cast<char32_t>(static_cast<unsigned char>(text[k]));
  };
  static constexpr char32_t kLeadBits[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
  char32_t point = byte(i) & kLeadBits[length];
  for (std::size_t k = 1; k < length; ++k)
    point = (point << 6) | (byte(i + k) & 0x3f);
  return point;
}

// Valid code points that would still let a name take over a line: C1 controls (U+0085 is a
// line break to some readers), the bidirectional controls that reorder what a terminal, an
// editor or a code review shows (U+202E turns the rest of the line around), and the line and
// paragraph separators.
bool reorders_or_breaks(char32_t c) {
  return (c >= 0x80 && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029;
}

std::string pad(const std::string& text, std::size_t width, bool right_aligned) {
  const std::string fill(width - std::min(width, display_width(text)), ' ');
  return right_aligned ? fill + text : text + fill;
}

std::string markdown_row(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const std::string& cell : cells)
    line += " " + cell + " |";
  return line + "\n";
}

std::string csv_row(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i)
    line += (i > 0 ? "," : "") + csv_field(cells[i]);
  return line + "\n";
}

std::vector<std::string> titles_of(const Grid& grid) {
  std::vector<std::string> titles;
  for (const GridColumn& column : grid.columns)
    titles.push_back(column.title);
  return titles;
}

// A Grid's own rows, for the functions that make rows on demand.
RowSource rows_of(const Grid& grid) {
  return {grid.rows.size(), [&grid](std::size_t i) { return grid.rows[i]; }};
}

}  // namespace

std::size_t column_room(const Grid& grid, std::size_t column, std::size_t line) {
  std::size_t used = grid.columns.empty() ? 0 : 2 * (grid.columns.size() - 1);
  for (std::size_t i = 0; i < grid.columns.size(); ++i) {
    if (i == column) continue;
    std::size_t width = display_width(grid.columns[i].title);
    for (const auto& row : grid.rows) {
      if (i < row.size()) width = std::max(width, display_width(row[i]));
    }
    used += width;
  }
  return used < line ? line - used : 0;
}

void write_grid_text(const std::vector<GridColumn>& columns, const RowSource& rows,
                     const std::string& empty_text, ChunkedText& out, const CellPainter& paint) {
  std::vector<std::size_t> widths;
  for (const GridColumn& column : columns)
    widths.push_back(display_width(column.title));
  for (std::size_t r = 0; r < rows.count; ++r) {
    const std::vector<std::string> row = rows.row(r);
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(row[i]));
    }
  }
  std::string text;
  const auto line = [&](const std::vector<std::string>& cells, std::size_t row, bool painted) {
    text.clear();
    for (std::size_t i = 0; i < cells.size() && i < widths.size(); ++i) {
      if (i > 0) text += "  ";
      std::string cell = pad(cells[i], widths[i], columns[i].right_aligned);
      text += painted && paint ? paint(row, i, cell) : cell;
    }
    text.erase(text.find_last_not_of(' ') + 1);
    text += '\n';
    out += text;
  };
  std::vector<std::string> titles;
  std::vector<std::string> rules;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    titles.push_back(columns[i].title);
    rules.emplace_back(widths[i], '-');
  }
  line(titles, 0, false);
  line(rules, 0, false);
  for (std::size_t r = 0; r < rows.count; ++r)
    line(rows.row(r), r, true);
  if (rows.count == 0 && !empty_text.empty()) out += empty_text + "\n";
}

std::string grid_text(const Grid& grid, const CellPainter& paint) {
  return collect_text([&](ChunkedText& out) {
    write_grid_text(grid.columns, rows_of(grid), grid.empty_text, out, paint);
  });
}

void write_grid_markdown(const std::vector<GridColumn>& columns, const RowSource& rows,
                         ChunkedText& out) {
  std::vector<std::string> titles;
  std::vector<std::string> alignments;
  for (const GridColumn& column : columns) {
    titles.push_back(column.title);
    alignments.push_back(column.right_aligned ? "---:" : ":---");
  }
  out += markdown_row(titles);
  out += markdown_row(alignments);
  for (std::size_t r = 0; r < rows.count; ++r)
    out += markdown_row(rows.row(r));
}

std::string grid_markdown(const Grid& grid) {
  return collect_text(
      [&](ChunkedText& out) { write_grid_markdown(grid.columns, rows_of(grid), out); });
}

std::string grid_csv(const Grid& grid) {
  std::string out = csv_row(titles_of(grid));
  for (const auto& row : grid.rows)
    out += csv_row(row);
  return out;
}

std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (const std::size_t length = utf8_sequence(text, i); length != 0) {
      const char32_t point = code_point(text, i, length);
      if (reorders_or_breaks(point)) {
        out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(point));
      } else {
        out.append(text, i, length);
      }
      i += length;
      continue;
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
    ++i;
  }
  return out;
}

std::size_t display_width(const std::string& text) {
  std::size_t width = 0;
  for (const char c : text)
    width += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return width;
}

std::string markdown_escape(const std::string& text) {
  std::string out;
  for (const char c : printable(text)) {
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '<':
      case '>':
      case '|':
      case '&':
      case '~':
      case '#':
        out += '\\';
        break;
      default:
        break;
    }
    out += c;
  }
  return out;
}

// The line breaks and tab a quoted field carries stay; every other control byte (ESC, NUL) and
// invalid UTF-8 is escaped as printable() escapes it for the table, Markdown and JUnit, so that
// a name cannot drive a terminal that shows the file or cut it short in a spreadsheet.
std::string csv_text(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t stop = std::min(text.find_first_of("\n\r\t", start), text.size());
    out += printable(text.substr(start, stop - start));
    if (stop == text.size()) break;
    out += text[stop];
    start = stop + 1;
  }
  return out;
}

std::string csv_field(const std::string& raw) {
  const std::string text = csv_text(raw);
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace kerntime::format
