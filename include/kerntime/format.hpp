// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <kerntime/duration.hpp>
#include <kerntime/export.hpp>
#include <kerntime/measurement.hpp>
#include <kerntime/name_style.hpp>
#include <kerntime/report.hpp>

namespace kerntime {

/// The text renderings of a report.
enum class Format {
  table,     ///< aligned console table, units per magnitude (ns, us, ms, s)
  markdown,  ///< GitHub-flavoured Markdown table
  csv,       ///< one row per entry, durations in ns, RFC 4180 quoting
  json,      ///< kerntime-report/1, same as to_json()
};

/// Parses "table", "md"/"markdown", "csv" or "json"; throws kerntime::Error listing the choices.
KERNTIME_API Format parse_format(std::string_view name);

/// The format a file's extension names: .json, .md, .csv; .txt or none the table. What the
/// kerntime commands and the benchmark runner write to an --output FILE given without --format.
/// Throws kerntime::Error, listing the formats, for any other extension.
KERNTIME_API Format format_for_path(std::string_view path);

/// Renders `report` in `format`. Warnings are included where the format has room for them.
/// Table and Markdown write entry names as `names` says (NameStyle; a kernel's short form by
/// default) and say so under the table; CSV and JSON keep whole names.
KERNTIME_API std::string render(const Report& report, Format format,
                                NameStyle names = NameStyle::short_form);

/// One self-contained HTML page of `report` (no script, nothing fetched; light or dark as the
/// reader's setting says): every entry with its distribution as a box plot beside the table's
/// figures, how the engine measured each entry, and for a traced report the kernels by GPU time
/// (the 15 largest, the rest as one) and the NVTX ranges. `kerntime report --format html`.
KERNTIME_API std::string render_html(const Report& report, NameStyle names = NameStyle::short_form);

/// One self-contained HTML page of `reports` in order (oldest first, e.g. one per commit), the
/// points labelled by `labels` (one each: a commit, a file name): per entry a chart of its median
/// at each point with the point's interval, and the steps marked where the level moved by more
/// than `threshold` (a fraction) and by more than the noise between processes explains; a table
/// of every entry. Throws kerntime::Error without reports or with another count of labels.
/// `kerntime report --format html r1.json ... rN.json`.
KERNTIME_API std::string render_html_trend(const std::vector<Report>& reports,
                                           const std::vector<std::string>& labels,
                                           NameStyle names = NameStyle::short_form,
                                           double threshold = 0.05);

/// Renders the benchmark engine's measurements with the columns a benchmark needs (headline and
/// its timer, event time, spread, throughput, SM clock, stop reason), as the benchmark runner
/// prints them; Format::json renders `report` (kerntime-report/1) instead.
KERNTIME_API std::string render(const std::vector<Measurement>& measurements, const Report& report,
                                Format format);

}  // namespace kerntime
