// SPDX-License-Identifier: Apache-2.0
// What a process's report says about how the process ended and what may be missing from it:
// a checkpoint of a process that may be killed, a report written from memory after a fatal
// signal (naming the last kernel launched), the final report of a clean exit or of a signal,
// and records another CUPTI client took. Plain code, so the CPU tests check every sentence.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <kerntime/report.hpp>

#include "inject/last_launch.hpp"
#include "inject/missing_records.hpp"

namespace kerntime::inject {

/// Which report a write is: a checkpoint while the program runs, the report a fatal signal
/// leaves before anything touches CUDA again, or the final one.
enum class ReportKind { checkpoint, crash, final };

struct ProcessEnd {
  ReportKind kind = ReportKind::final;
  int signal = 0;      ///< the signal ending the process; 0: none
  bool fatal = false;  ///< an abort or a fault (SIGABRT, SIGSEGV, ...)
  bool launch_sites_watched = false;
  std::optional<LastLaunch> last_launch;
  std::string last_launch_thread;  ///< the launching thread's name
  /// Final reports of a running session: launches against kernel records.
  std::optional<RecordAccount> records;
  std::string other_client;  ///< who may have taken records (cupti/other_client.hpp)
  /// The program's cuptiSubscribe calls CUPTI refused (kerntime holds the one slot), and who
  /// made the first, in words (cupti::describe_cupti_caller).
  unsigned refused_subscribers = 0;
  std::string refused_client;
  /// A crash report written because the final report after a terminating signal was not done
  /// this long after it; 0: not that.
  int final_overdue_ms = 0;
};

/// Adds what `end` means for the reader to `report`'s warnings (its trace section's counts say
/// whether the process did any CUDA work).
void add_end_warnings(Report& report, const ProcessEnd& end);

}  // namespace kerntime::inject
