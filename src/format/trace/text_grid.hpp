// SPDX-License-Identifier: Apache-2.0
// A table of text cells, rendered as an aligned console table, GitHub Markdown or CSV; and
// the footer every trace table ends with.
#pragma once

#include <string>
#include <vector>

#include <kerntime/format.hpp>
#include <kerntime/trace.hpp>

namespace kerntime::trace_format {

struct Column {
  std::string title;
  bool right_aligned = true;
};

struct Grid {
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> rows;
};

/// Renders `grid` as a table, Markdown or CSV (Format::json is not a grid view).
std::string render_grid(const Grid& grid, Format format);

/// The trace's record counts, always including dropped records and records without
/// timestamps, then one "warning: ..." line per warning. For Markdown, lines end in a break.
std::string trace_footer(const Trace& trace, Format format);

/// "128x1x1".
std::string dimensions(const Dim3& dim);

}  // namespace kerntime::trace_format
