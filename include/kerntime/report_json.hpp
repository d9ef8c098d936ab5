// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

#include <kerntime/report.hpp>

namespace kerntime {

/// Serializes a report as kerntime-report/1 JSON (pretty-printed, samples kept).
std::string to_json(const Report& report);

/// Parses kerntime-report/1 JSON.
///
/// A file with only `schema` and `entries[].name` / `entries[].samples` is valid; unknown fields
/// are ignored; statistics are recomputed from the samples, never trusted from the file. Anything
/// malformed throws kerntime::Error naming `source` (e.g. the file name), the entry index and
/// field, and why: `base.json: entries[3].samples[7]: expected a finite number, got "abc"`.
Report parse_report(std::string_view json_text, const std::string& source = "report");

/// Reads and parses a report file; errors name the path.
Report read_report_file(const std::string& path);

/// Writes `to_json(report)` to `path`, replacing it; errors name the path.
void write_report_file(const Report& report, const std::string& path);

}  // namespace kerntime
