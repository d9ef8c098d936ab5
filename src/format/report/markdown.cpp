// SPDX-License-Identifier: Apache-2.0
#include <string>
#include <vector>

#include "format/report/measurement_details.hpp"
#include "format/report/renderers.hpp"
#include "format/report/summary.hpp"
#include "format/text_grid.hpp"

namespace kerntime::format {

std::string render_markdown(const Report& report, NameStyle names) {
  std::string out;
  const std::vector<std::string> environment = environment_lines(report.environment);
  for (const std::string& line : environment)
    out += "- " + markdown_escape(line) + "\n";
  if (!environment.empty()) out += "\n";

  Summary summary = summarize(report, names);
  for (auto& row : summary.grid.rows)
    row[0] = markdown_escape(row[0]);
  out += grid_markdown(summary.grid);

  // `-` in a code span: a bare "- " at the start of a line would open a list.
  if (summary.has_missing) out += std::string("\n`") + kMissingCell + "`: " + kMissingLegend + "\n";
  if (!summary.names_note.empty()) out += "\nnote: " + markdown_escape(summary.names_note) + "\n";
  if (has_measurements(report)) {
    out += std::string("\n") + kMeasurementTitle + "\n\n" +
           grid_markdown(measurement_grid(report, true));
  }
  for (const std::string& warning : report.warnings) {
    out += "\n**warning:** " + markdown_escape(warning) + "\n";
  }
  return out;
}

}  // namespace kerntime::format
