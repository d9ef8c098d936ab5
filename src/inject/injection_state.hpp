// SPDX-License-Identifier: Apache-2.0
// The process-wide state of `kerntime run`'s injected library, and what its three files share:
// injection.cpp makes the state and starts recording (the entry points CUDA and NVTX call),
// injection_hooks.cpp runs on the program's threads and on kerntime's worker, and
// injection_reports.cpp writes the process's reports. Only in the shared library.
//
// Everything here lives until the process ends on purpose: atexit handlers and static
// destructors run in an order this library does not control.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>

#include "cupti/activity_session.hpp"
#include "cupti/cupti_api.hpp"
#include "inject/end_hook_abi.hpp"
#include "inject/end_of_process.hpp"
#include "inject/fault_report.hpp"
#include "inject/last_launch.hpp"
#include "inject/launch_names.hpp"
#include "inject/launch_ranges.hpp"
#include "inject/run_recorder.hpp"
#include "inject/run_settings.hpp"
#include "inject/sync_flush_pacer.hpp"

namespace kerntime::inject {

class RecorderSink final : public cupti::ActivitySession::RecordSink {
 public:
  explicit RecorderSink(RunRecorder& recorder) : recorder_(recorder) {}
  void records(trace::RecordBatch&& batch) override { recorder_.append(std::move(batch)); }
  void dropped(std::uint64_t records) override { recorder_.add_dropped(records); }
  bool counts_only() const override { return recorder_.timeline_full(); }

 private:
  RunRecorder& recorder_;
};

struct Injection {
  RunSettings settings;
  std::unique_ptr<cupti::CuptiApi> api;  // loaded at the first hook, for timestamps and tags
  std::unique_ptr<RunRecorder> recorder;
  std::unique_ptr<RecorderSink> sink;
  std::unique_ptr<cupti::ActivitySession> session;  // started at cuInit
  LaunchSlots launches;                             // the last launches of each thread
  LaunchNames launch_names;    // names at launch, for records delivered after an unload
  LaunchRanges launch_ranges;  // NVTX ranges at launch, instead of external correlation ids
  // API records serve the timeline only: the worker switches them off after its first launches.
  bool api_records_for_timeline_only = false;
  bool watching_launch_sites = false;
  FaultWatch faults;  // the first GPU fault, and the synchronizations before it
  // A successful synchronization flushes CUPTI's completed buffers, paced (sync_flush_pacer.hpp);
  // KERNTIME_RUN_RECORD_OFF=sync-flush turns that off (cost_switches.hpp).
  bool flush_at_synchronization = false;
  SyncFlushPacer sync_flushes;
  // The preload's count of the program's refused cuptiSubscribe calls (end_hook_abi.hpp),
  // looked up once at the start: never inside the dynamic linker while a report is written.
  kerntime_refused_cupti_subscribers_fn refused_subscribers = nullptr;
  // When the final synchronization began: the launches counted, the newest launch's
  // correlation id, the thread running it (set before it starts, read after it ends).
  std::optional<std::uint64_t> launches_before_final_flush;
  std::uint32_t newest_before_final_flush = 0;
  std::atomic<pid_t> final_flush_thread{0};
  bool final_flush_failed = false;
  // The final report after a terminating signal was not done this long after it.
  std::atomic<int> final_overdue_ms{0};
  std::string problem;  // why nothing is recorded
  pid_t pid = 0;
  std::string path;  // this process's report
  std::mutex write_mutex;
};

/// The state, made by whichever hook runs first (injection.cpp) and leaked on purpose; nullptr
/// before, and when kerntime cannot record in this process.
extern Injection* g_injection;
/// Set in a child made by fork() alone: it shares nothing with CUPTI but its parent's memory.
extern std::atomic<bool> g_forked_child;
/// KERNTIME_RUN_COST_PHASES (cost_phases.hpp): the launch and fault watches do nothing while set.
extern std::atomic<bool> g_own_work_idle;

/// One line on standard error, "kerntime run: LINE".
void say(const std::string& line);
pid_t current_thread();
/// The NVTX ranges of a range path, as the report writes them ("" for none).
std::string range_text(std::uint64_t path);
/// CUPTI's clock now, or 0 without CUPTI.
std::uint64_t cupti_now();

// The reports (injection_reports.cpp).

/// Writes this process's report of `kind`. `sent_signal`: a signal the process is about to send
/// itself (end_hooks.hpp), which no handler of kerntime's will see.
void write_report(Injection& in, ReportKind kind, int sent_signal = 0);
/// Flushes CUPTI, stops recording and writes the final report; once per process, whichever end
/// comes first, and never in a child made by fork() alone.
void finish();
/// A complete report while recording goes on: before an exec, or a signal the process sends
/// itself that only the default action will see.
void snapshot(int signal);

// The hooks (injection_hooks.cpp).

void on_launch_site(const cupti::CuptiApi::LaunchSite& site, void* context);
void keep_names_before_unload(void* context);
void on_api_result(const cupti::CuptiApi::ApiResult& result, void*);
void on_profiler_api(bool started, void*);
/// Starts the worker thread: checkpoints, the watches that end, and the ends by signal.
void start_worker(Injection& in);

}  // namespace kerntime::inject
