// SPDX-License-Identifier: Apache-2.0
#include <string>
#include <vector>

#include "format/report/measurement_details.hpp"
#include "format/report/renderers.hpp"
#include "format/report/summary.hpp"
#include "format/text_grid.hpp"

namespace kerntime::format {

// The environment first (which GPU these numbers are about), then the table, then what a
// reader must know before trusting it: the legend for "-" and every warning.
std::string render_table(const Report& report, NameStyle names) {
  std::string out;
  const std::vector<std::string> environment = environment_lines(report.environment);
  for (const std::string& line : environment)
    out += line + "\n";
  if (!environment.empty()) out += "\n";

  const Summary summary = summarize(report, names);
  out += grid_text(summary.grid);

  if (summary.has_missing) out += std::string("\n") + kMissingCell + ": " + kMissingLegend + "\n";
  if (!summary.names_note.empty()) out += "\nnote: " + summary.names_note + "\n";
  if (has_measurements(report)) {
    out +=
        std::string("\n") + kMeasurementTitle + "\n\n" + grid_text(measurement_grid(report, false));
  }
  if (!report.warnings.empty()) out += "\n";
  for (const std::string& warning : report.warnings)
    out += "warning: " + printable(warning) + "\n";
  return out;
}

}  // namespace kerntime::format
