// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <kerntime/tracer.hpp>

#include "inject/run_settings.hpp"

namespace kerntime::inject {

/// The diagnostics that switch parts of `kerntime run` off, or back to how they were before the
/// cost target's changes, so that docs/run.md's cost breakdown can tell what each part costs the
/// program (bench/scripts/step_cost.py's breakdown arms). Diagnostics, not options: a report
/// without API records cannot tie kernels to threads.
struct CostSwitches {
  // KERNTIME_RUN_RECORD_OFF=api,scopes,copies,sync-flush
  bool api_off = false;         ///< no runtime or driver API records
  bool scopes_off = false;      ///< no NVTX ranges
  bool copies_off = false;      ///< no copy or memset records
  bool sync_flush_off = false;  ///< no flush at a synchronization (sync_flush_pacer.hpp)
  // KERNTIME_RUN_AS_BEFORE=tags,api,zeroing
  bool tags_as_before = false;  ///< CUPTI's external correlation ids for the NVTX ranges
  bool api_as_before = false;   ///< API records all along, not only for the timeline's start
  /// CUPTI zeroes every buffer it is lent itself (kZeroedOutActivityBuffer not said)
  bool zeroing_as_before = false;
};

/// Whether the comma-separated `list` (nullptr: none) names `part`.
bool listed(const char* list, const char* part);

/// The switches from the two variables' values (nullptr: unset). Unknown parts are ignored.
CostSwitches parse_cost_switches(const char* record_off, const char* as_before);

/// parse_cost_switches on KERNTIME_RUN_RECORD_OFF and KERNTIME_RUN_AS_BEFORE.
CostSwitches cost_switches_from_environment();

/// `options` with the record kinds that `switches` turns off turned off.
void apply_record_off(const CostSwitches& switches, TracerOptions& options);

/// Whether `kerntime run` asks CUPTI for API records at all (RunSettings::launch_calls says what
/// they cost): for the timeline's launch calls, for every call (--all-api-calls or the
/// diagnostic that keeps them), or because kernels find their NVTX ranges through CUPTI's
/// external correlation records, which CUPTI writes only beside API records: without the launch
/// callback (--no-last-launch) or with the ranges' tags as before.
bool wants_api_records(const RunSettings& settings, const CostSwitches& switches);

/// `options` without API records where none are `wanted`, and then without CUPTI's external
/// correlation kind too: CUPTI tags API records only (kerntime::Tracer refuses scopes without
/// them for that reason), so the kind can write nothing; what it costs CUPTI to keep it on is not
/// measured. NVTX ranges do not depend on it: kernels take theirs from the launch callback.
void apply_api_records(bool wanted, TracerOptions& options);

}  // namespace kerntime::inject
