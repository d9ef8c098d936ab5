// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <kerntime/export.hpp>
#include <kerntime/report.hpp>
#include <kerntime/statistics.hpp>

namespace kerntime {

/// Serializes a report as kerntime-report/1 JSON (pretty-printed, samples kept).
KERNTIME_API std::string to_json(const Report& report);

/// Parses kerntime-report/1 JSON.
///
/// A file with only `schema` and `entries[].name` / `entries[].samples` is valid; unknown fields
/// are ignored; statistics are recomputed from the samples, never trusted from the file. Anything
/// malformed throws kerntime::Error naming `source` (e.g. the file name), the entry index and
/// field, and why: `base.json: entries[3].samples[7]: expected a finite number, got "abc"`.
///
/// Every entry's statistics are computed with `statistics`; pass `median_interval = false` when
/// the median's confidence interval is not shown (it is the costly part).
KERNTIME_API Report parse_report(std::string_view json_text, const std::string& source = "report",
                                 const StatisticsOptions& statistics = {});

/// The largest report file read_report_file() and the `kerntime report` / `compare` commands
/// read: 1 GiB. A report of 100 entries x 20,000 samples is about 40 MB; anything past the limit
/// is the wrong file (/dev/zero, an endless pipe), refused with a message instead of exhausting
/// memory.
inline constexpr std::uint64_t kMaxReportFileBytes = std::uint64_t{1} << 30;

/// Reads and parses a report file; errors name the path. The path must name a regular file, a
/// pipe or a FIFO (or a symbolic link to one) of at most kMaxReportFileBytes; a directory or
/// device is refused before anything is read, and a FIFO without a writer at once, so none can
/// block or exhaust memory. Running out of memory is an Error naming the path, not bad_alloc.
KERNTIME_API Report read_report_file(const std::string& path);

/// Writes `to_json(report)` to `path`, replacing it; errors name the path.
KERNTIME_API void write_report_file(const Report& report, const std::string& path);

}  // namespace kerntime
