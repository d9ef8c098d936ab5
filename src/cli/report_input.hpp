// SPDX-License-Identifier: Apache-2.0
// Report arguments of `kerntime compare` and `kerntime report`: a file, or `-` for standard
// input as Unix tools accept, read whole so that the commands can also tell whether two
// arguments hold the same bytes.
#pragma once

#include <string>

#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>

#include "io/file_reader.hpp"
#include "io/path_in_message.hpp"

namespace kerntime::cli {

/// The name messages use for `-`.
inline const char* const kStandardInputName = "<stdin>";

/// How messages name a report argument: `-` as kStandardInputName, a path as the user typed
/// it, or quoted and escaped when it holds a line break or other control character, so that
/// every message stays one line.
inline std::string report_display_name(const std::string& path) {
  return path == "-" ? kStandardInputName : io::path_in_message(path);
}

/// The text of `path`, or of standard input for `-`, at most kMaxReportFileBytes. Throws
/// kerntime::Error naming the path and the cause ("Permission denied", "Is a directory", the
/// size limit); a device is refused, a pipe or FIFO is read (`<(cmd)`, /dev/stdin), and
/// standard input may be any stream.
inline std::string read_report_text(const std::string& path) {
  return io::read_file_bounded(path, report_display_name(path), kMaxReportFileBytes, "report");
}

/// How a report argument's text is read: any format parse_any_report() knows, NVBench's sample
/// files looked for beside the file (not for standard input, which has no folder).
inline ReportReadOptions report_read_options(const std::string& path,
                                             const StatisticsOptions& statistics) {
  if (path != "-") return read_options_for_file(path, statistics);
  ReportReadOptions options;
  options.statistics = statistics;
  return options;
}

/// The report at `path` (`-`: standard input) in kerntime's, Google Benchmark's or NVBench's
/// JSON; errors name the path. Statistics are computed with `statistics` (compare passes
/// median_interval = false: it never shows the interval).
inline Report read_report_argument(const std::string& path,
                                   const StatisticsOptions& statistics = {}) {
  return parse_any_report(read_report_text(path), report_display_name(path),
                          report_read_options(path, statistics));
}

}  // namespace kerntime::cli
