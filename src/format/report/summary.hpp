// SPDX-License-Identifier: Apache-2.0
// The content the table and markdown views share: which columns, what each cell says, and the
// lines about the environment. The views differ only in layout and escaping.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <kerntime/name_style.hpp>
#include <kerntime/report.hpp>

#include "format/text_grid.hpp"

namespace kerntime::format {

/// Says "not enough samples" in a cell, explained by kMissingLegend under the table.
inline constexpr const char* kMissingCell = "-";
inline constexpr const char* kMissingLegend = "not enough samples";

/// One row per entry, cells already formatted (durations with units, noise in percent).
struct Summary {
  Grid grid;
  bool has_missing = false;  ///< some cell is kMissingCell, so the legend is needed
  std::string names_note;    ///< names_note() of the Name column: empty when names are whole
};

/// The summary of `report`; entry names as `names` asks, passed through printable().
Summary summarize(const Report& report, NameStyle names = NameStyle::short_form);

/// Lines saying where and with what the report was measured; empty when nothing is known.
std::vector<std::string> environment_lines(const Environment& environment);

}  // namespace kerntime::format
