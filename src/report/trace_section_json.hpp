// SPDX-License-Identifier: Apache-2.0
// The optional "trace" section of kerntime-report/1 (docs/report-format.md): written only
// when a report has one, and read by the same rules as the rest of the file.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <kerntime/report.hpp>

#include "report/json_reader.hpp"

namespace kerntime::report_detail {

/// The section as JSON; throws kerntime::Error ("cannot write report: trace...") for what the
/// reader would reject.
nlohmann::ordered_json trace_section_json(const TraceSection& trace);

/// Reads the section at `path` (normally "trace"); errors name the path below it.
TraceSection parse_trace_section(const JsonReader& reader, const Json& value,
                                 const std::string& path);

}  // namespace kerntime::report_detail
