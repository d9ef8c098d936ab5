// SPDX-License-Identifier: Apache-2.0
// Trace tables on the shared text grid, and the footer every trace table ends with.
#pragma once

#include <string>
#include <vector>

#include <kerntime/format.hpp>
#include <kerntime/trace.hpp>

#include "format/text_grid.hpp"

namespace kerntime::trace_format {

using Column = format_detail::GridColumn;
using Grid = format_detail::Grid;

/// Renders `grid` as a table, Markdown or CSV (Format::json is not a grid view). Text in
/// left-aligned columns (names) is escaped for the format; "(none)" stands for no rows.
std::string render_grid(Grid grid, Format format);

/// The trace's record counts, always including dropped records and records without
/// timestamps, then one "warning: ..." line per warning. For Markdown, lines end in a break.
std::string trace_footer(const Trace& trace, Format format);

/// "128x1x1".
std::string dimensions(const Dim3& dim);

}  // namespace kerntime::trace_format
