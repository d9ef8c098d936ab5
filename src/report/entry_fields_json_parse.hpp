// SPDX-License-Identifier: Apache-2.0
// The fields a kerntime-report/1 entry holds beside its samples (docs/report-format.md): the
// per-sample columns, another tool's summary written in place of samples, and the runs that
// partition the samples. Each is checked against the samples already read.
#pragma once

#include <string>

#include <kerntime/report.hpp>

#include "report/json_reader.hpp"

namespace kerntime::report {

/// "columns": [{"name", "values": [one number per sample]}] into `e.sample_columns`; names
/// unique, one finite value per sample of `e`.
void read_sample_columns(const JsonReader& reader, const Json& columns, const std::string& path,
                         Entry& e);

/// "summary_only": the count and mean (and optionally the relative stdev) of another tool.
SummaryOnly read_summary_only(const JsonReader& reader, const Json& value, const std::string& path);

/// "runs": [n1, n2, ...], the sample count of each run (process), which must add up to the
/// samples of `e`; one run leaves `e.run_sizes` empty, as without "runs".
void read_run_sizes(const JsonReader& reader, const Json& runs, const std::string& path, Entry& e);

}  // namespace kerntime::report
