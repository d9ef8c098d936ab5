// SPDX-License-Identifier: Apache-2.0
// The measurement of an entry whose samples come from several reports (merged runs), and the
// rates at an entry's median: what merge_reports, merge_process_reports and the reader share.
#pragma once

#include <memory>
#include <vector>

#include <kerntime/measurement_info.hpp>
#include <kerntime/statistics.hpp>

namespace kerntime::report {

/// Sets `info.throughput` to the rates of its work at `statistics.median` (none without
/// samples).
void refresh_throughput(MeasurementInfo& info, const Statistics& statistics);

/// One measurement for the runs `parts` (null: a run without one) of an entry whose merged
/// samples have `statistics`: the first run's settings (mode, batch, work, counters, peak), the
/// excluded samples summed, the L2 flush and the blocking kernel only if every run had them, the
/// floor, fixed cost and SM clock the median of the runs', the stop reason the least settled one
/// (timeout, max-samples, noise, stable, fixed-count; an unknown one is less settled than all),
/// and the rates at the merged median. Null when no run has one.
std::shared_ptr<const MeasurementInfo> merge_measurements(
    const std::vector<const MeasurementInfo*>& parts, const Statistics& statistics);

}  // namespace kerntime::report
