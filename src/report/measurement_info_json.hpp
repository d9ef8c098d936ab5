// SPDX-License-Identifier: Apache-2.0
// An entry's "measurement" object (docs/report-format.md): how the benchmark engine measured it.
// Written and read here only, so that a field added to MeasurementInfo (or to Work) is added
// in one place.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <kerntime/measurement_info.hpp>
#include <kerntime/statistics.hpp>

#include "report/json_reader.hpp"

namespace kerntime::report {

/// The object as the writer puts it into an entry; throws kerntime::Error ("cannot write
/// report: <path>...") for a figure the reader would reject (not finite, or a negative time).
nlohmann::ordered_json measurement_info_json(const MeasurementInfo& info, const std::string& path);

/// Reads the object at `path`: every field optional, the type of each present one checked
/// (through `reader`, which names the source), unknown fields ignored. The rates are not read:
/// they are recomputed from `statistics` (the entry's, from its samples) and the work.
MeasurementInfo read_measurement_info(const JsonReader& reader, const Json& value,
                                      const std::string& path, const Statistics& statistics);

}  // namespace kerntime::report
