// SPDX-License-Identifier: Apache-2.0
// Whether the kernel records cover the launches, and if not, why. The launch callback counts
// launches all along; after the last flush, fewer kernel records than launches has three
// causes, told apart by what kerntime knows rather than guessed:
// - the GPU faulted, or a fatal signal ended the process: work after the fault never finished;
// - launches made after the final synchronization began (a thread still launching at exit, or
//   after a SIGTERM stopped another thread): they were in flight when the last records were
//   read; the synchronization waited for everything launched before it, so at least that many
//   records must have come;
// - fewer records than even the launches before the final synchronization, with no fault: their
//   work had finished, so their records went to another CUPTI client. CUPTI hands activity
//   records to one client per process (the last to register its buffers): a profiler the
//   program starts (torch.profiler) takes every record from then on.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

#include "inject/last_launch.hpp"

namespace kerntime::inject {

struct RecordAccount {
  std::uint64_t launches = 0;        ///< kernel and graph launches that ran (not captured)
  std::uint64_t kernel_records = 0;  ///< kernel records CUPTI delivered to kerntime
  std::uint64_t dropped_records = 0;
  bool crashed = false;  ///< the process is ending on a fatal signal: work may be unfinished
  /// Launches counted when the final synchronization began; nullopt: not known (then missing
  /// records are put down to another client, as before this was counted).
  std::optional<std::uint64_t> launches_before_final_flush;
  bool gpu_fault = false;  ///< the GPU faulted: work after the fault never finished
  /// The launches made after the final synchronization began, in words ("" when not known).
  std::string in_flight;
  /// Records CUPTI delivered without timestamps (TraceLosses::zero_timestamp_records): work
  /// still running when the last records were read, when every launch has its record.
  std::uint64_t untimed_records = 0;
};

/// The warning when the records do not cover the launches (a graph launch runs one kernel or
/// more, every other launch exactly one), saying which of the causes above it is, and naming
/// `other_client` as the likely taker only for the last; "" when they do. Only meaningful after
/// a synchronized, forced flush.
std::string missing_records_warning(const RecordAccount& account, const std::string& other_client);

/// RecordAccount::in_flight: the last launch of each thread that launched after correlation id
/// `after` (the newest launch when the final synchronization began), newest first, with its
/// thread's name and NVTX ranges; "" when none did.
std::string in_flight_launches(const std::vector<RecentLaunch>& recent, std::uint32_t after,
                               const std::function<std::string(pid_t)>& thread_name,
                               const std::function<std::string(std::uint64_t)>& ranges);

}  // namespace kerntime::inject
