// SPDX-License-Identifier: Apache-2.0
// Text building blocks that every renderer shares (reports, comparisons, traces): a grid of
// cells laid out as an aligned console table, a Markdown table or CSV, and the escaping that
// keeps user-provided names from breaking any of them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "format/chunked_text.hpp"

namespace kerntime::format {

struct GridColumn {
  std::string title;
  bool right_aligned = true;  ///< numbers right, names and sentences left
};

/// Rows of already formatted cells, one per column.
struct Grid {
  std::vector<GridColumn> columns;
  std::vector<std::vector<std::string>> rows;
  std::string empty_text;  ///< a line printed under the header when there are no rows
};

/// Decorates a padded cell of the console table (e.g. with ANSI colours, which must come after
/// padding so that alignment ignores them). `row` is an index into Grid::rows.
using CellPainter =
    std::function<std::string(std::size_t row, std::size_t column, const std::string& padded_cell)>;

/// Rows made on demand, for tables too large to hold as cells (a comparison of a million
/// entries): `row(i)` returns the cells of row i, and may be called more than once per row.
struct RowSource {
  std::size_t count = 0;
  std::function<std::vector<std::string>(std::size_t)> row;
};

/// Aligned console table: header, a rule of dashes, rows; two spaces between columns and no
/// trailing blanks, so the output diffs cleanly.
std::string grid_text(const Grid& grid, const CellPainter& paint = {});

/// Columns left for column `column` of grid_text(grid) in a line of `line` columns: the line
/// less every other column (its widest cell or title) and the separators; 0 when they fill it.
std::size_t column_room(const Grid& grid, std::size_t column, std::size_t line);

/// grid_text() of rows made on demand, appended to `out`: one pass over the rows finds the
/// column widths and a second writes the lines, so memory does not grow with the row count.
void write_grid_text(const std::vector<GridColumn>& columns, const RowSource& rows,
                     const std::string& empty_text, ChunkedText& out,
                     const CellPainter& paint = {});

/// GitHub-flavoured Markdown table. Cells are written as given: escape user-provided text
/// with markdown_escape() first.
std::string grid_markdown(const Grid& grid);

/// grid_markdown() of rows made on demand, appended to `out` row by row.
void write_grid_markdown(const std::vector<GridColumn>& columns, const RowSource& rows,
                         ChunkedText& out);

/// CSV with a header row; every cell quoted as RFC 4180 requires, LF line ends.
std::string grid_csv(const Grid& grid);

/// `text` with control characters written as escapes (\n, \t, \r, \x1b) and invalid UTF-8 as
/// \xNN, so that a name can never break a table row, a Markdown line or an XML document. C1
/// controls, bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and
/// the line and paragraph separators (U+2028, U+2029) are written as \u0085, \u202e, ...: they
/// would break a line or reorder what a reader sees.
std::string printable(const std::string& text);

/// Terminal columns of printable text, counting UTF-8 code points (wide CJK characters count
/// as one; kernel names are ASCII in practice).
std::size_t display_width(const std::string& text);

/// printable(text) with Markdown syntax backslash-escaped. Kernel names are full of it:
/// `void k<float>(float*)` would lose its template argument as an HTML tag and start emphasis
/// at the `*`, and a pipe would split the cell. GFM allows any ASCII punctuation to be escaped.
std::string markdown_escape(const std::string& text);

/// An RFC 4180 field: quoted when it holds a comma, quote or line break; inner quotes doubled.
/// Line breaks and tabs are kept; other control characters and invalid UTF-8 are escaped as
/// printable() escapes them (ESC as \x1b, NUL as \x00).
std::string csv_field(const std::string& text);

}  // namespace kerntime::format
