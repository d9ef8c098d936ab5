// SPDX-License-Identifier: Apache-2.0
// The library `kerntime run` injects into a program: CUDA calls InitializeInjection from cuInit
// (CUDA_INJECTION64_PATH), NVTX calls InitializeInjectionNvtx2 from a module's first NVTX call
// (NVTX_INJECTION64_PATH). It records through CUPTI into a RunRecorder and writes one report per
// process into KERNTIME_RUN_DIR: rewritten every few seconds while the program runs, last at
// exit or when a signal ends the process (signal_worker.hpp), so that a process killed without
// warning still leaves what it recorded, and one that aborts names the last kernel it launched.
//
// Everything here lives until the process ends on purpose: atexit handlers and static
// destructors run in an order this library does not control.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include <nvtx3/nvToolsExt.h>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/tracer.hpp>
#include <kerntime/version.hpp>

#include "cuda/device_sync.hpp"
#include "cupti/activity_session.hpp"
#include "cupti/cupti_api.hpp"
#include "cupti/other_client.hpp"
#include "inject/cost_phases.hpp"
#include "inject/cost_switches.hpp"
#include "inject/end_hooks.hpp"
#include "inject/end_of_process.hpp"
#include "inject/fault_report.hpp"
#include "inject/last_launch.hpp"
#include "inject/launch_names.hpp"
#include "inject/launch_ranges.hpp"
#include "inject/nvtx_hooks.hpp"
#include "inject/run_recorder.hpp"
#include "inject/run_settings.hpp"
#include "inject/shard_name.hpp"
#include "inject/signal_worker.hpp"
#include "trace/names.hpp"

namespace kerntime::inject {
namespace {

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

std::mutex setup_mutex;
Injection* g_injection = nullptr;  // leaked on purpose, see the top of the file
// Set in a child made by fork() alone: it shares nothing with CUPTI but its parent's memory.
std::atomic<bool> g_forked_child{false};

void say(const std::string& line) {
  std::fprintf(stderr, "kerntime run: %s\n", line.c_str());
}

// "resident R MiB, peak P MiB" from /proc/self/status (VmRSS, VmHWM).
std::string resident_memory() {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return "unknown";
  char line[256];
  long rss_kib = -1;
  long peak_kib = -1;
  while (std::fgets(line, sizeof line, status) != nullptr) {
    std::sscanf(line, "VmRSS: %ld", &rss_kib);
    std::sscanf(line, "VmHWM: %ld", &peak_kib);
  }
  std::fclose(status);
  return "resident " + std::to_string(rss_kib / 1024) + " MiB, peak " +
         std::to_string(peak_kib / 1024) + " MiB";
}

pid_t current_thread() {
  return static_cast<pid_t>(syscall(SYS_gettid));
}

std::string range_text(std::uint64_t path) {
  Injection* in = g_injection;
  return in != nullptr && path != 0 ? in->recorder->range_path_text(path) : std::string{};
}

std::uint64_t cupti_now() {
  Injection* in = g_injection;
  std::uint64_t now = 0;
  if (in == nullptr || in->api == nullptr || in->api->timestamp(now) != CUPTI_SUCCESS) return 0;
  return now;
}

// `sent_signal`: a signal the process is about to send itself (end_hooks.hpp), which no
// handler of kerntime's will see.
void write_report(Injection& in, ReportKind kind, int sent_signal = 0) {
  std::lock_guard lock{in.write_mutex};
  try {
    // A checkpoint carries the summary only: the records go into the final report, and building
    // them every few seconds would cost the program time and memory.
    Report report = in.recorder->report(kind != ReportKind::checkpoint);
    report.environment.tool_version = kVersion;
    report.environment.host_name = process_label();
    if (!in.problem.empty()) report.warnings.insert(report.warnings.begin(), in.problem);
    ProcessEnd end;
    end.kind = kind;
    end.signal = received_signal() != 0 ? received_signal() : sent_signal;
    end.fatal = received_fatal_signal();
    end.launch_sites_watched = in.watching_launch_sites;
    if (kind == ReportKind::crash) end.final_overdue_ms = in.final_overdue_ms.load();
    if (end.fatal && kind != ReportKind::checkpoint) {
      end.last_launch = in.launches.last();
      if (end.last_launch) {
        end.last_launch_thread = thread_name(end.last_launch->thread);
        end.last_launch->ranges = range_text(end.last_launch->range_path);
        // A context made before CUPTI could say its device: its kernel records name it.
        if (end.last_launch->device < 0) {
          end.last_launch->device = in.recorder->device_of_context(end.last_launch->context_id);
        }
      }
    }
    if (kind == ReportKind::final && in.session) {
      RecordAccount account;
      account.launches = in.api->launches_seen();
      account.kernel_records = in.recorder->kernels_received();
      account.dropped_records = report.trace ? report.trace->counts.dropped_records : 0;
      account.untimed_records = report.trace ? report.trace->counts.zero_timestamp_records : 0;
      account.crashed = end.fatal;
      account.gpu_fault = in.faults.claimed() || in.final_flush_failed;
      account.launches_before_final_flush = in.launches_before_final_flush;
      if (in.launches_before_final_flush) {
        account.in_flight = in_flight_launches(in.launches.recent(), in.newest_before_final_flush,
                                               &thread_name, &range_text);
      }
      end.records = account;
      end.other_client = cupti::describe_other_cupti_client();
    }
    add_end_warnings(report, end);
    // A GPU fault comes first, whatever else the report says: it is why the numbers stop.
    if (const GpuFault* fault = in.faults.fault()) {
      const std::vector<std::string> named = fault_warnings(*fault);
      report.warnings.insert(report.warnings.begin(), named.begin(), named.end());
    }
    write_report_file(report, in.path);
  } catch (const std::exception& error) {
    say("could not write " + in.path + ": " + error.what());
  }
}

// Flushes CUPTI, stops recording and writes the final report; once per process, whichever end
// comes first, and never in a child made by fork() alone (it inherited this state but not the
// parent's CUDA work).
void finish() {
  Injection* in = g_injection;
  if (in == nullptr || getpid() != in->pid || !begin_final_report()) return;
  // KERNTIME_RUN_MEMORY=1: where the process's resident memory goes at its end (docs/run.md).
  const bool memory = std::getenv("KERNTIME_RUN_MEMORY") != nullptr;
  if (memory) say("memory at the end: " + resident_memory());
  stop_report_worker();
  if (in->session) {
    // Everything launched before the synchronization has finished once it returns: its records
    // must come; launches after it may be in flight (missing_records.hpp).
    in->launches_before_final_flush = in->api->launches_seen();
    if (const std::optional<LastLaunch> newest = in->launches.last()) {
      in->newest_before_final_flush = newest->correlation_id;
    }
    in->final_flush_thread.store(current_thread());
    const std::string failure = in->session->stop();
    in->final_flush_failed = !failure.empty();
    if (!failure.empty()) in->problem = "the last records could not all be read: " + failure;
    if (memory) {
      say("memory after the last records: " + resident_memory() +
          "; CUPTI host buffers: " + std::to_string(in->session->host_buffers_peak()) + " at most");
    }
  }
  write_report(*in, ReportKind::final);
  final_report_written();
  if (memory) say("memory after the report: " + resident_memory());
}

// A complete report while recording goes on: before an exec, or a signal the process sends
// itself that only the default action will see.
void snapshot(int signal) {
  Injection* in = g_injection;
  if (in == nullptr || getpid() != in->pid || final_report_begun()) return;
  if (in->session) {
    const std::string failure = in->session->flush();
    if (!failure.empty()) in->problem = "the last records could not all be read: " + failure;
  }
  write_report(*in, ReportKind::final, signal);
}

void on_exit_handler() {
  finish();
}

// KERNTIME_RUN_COST_PHASES (cost_phases.hpp): the launch and fault watches do nothing while set.
std::atomic<bool> g_own_work_idle{false};

void on_launch_site(const cupti::CuptiApi::LaunchSite& site, void* context) {
  if (g_own_work_idle.load(std::memory_order_relaxed)) return;
  Injection& in = *static_cast<Injection*>(context);
  const std::uint64_t ranges = open_range_path();
  in.launches.publish(site.kernel_name, site.graph, site.device, site.context_id, site.stream,
                      site.per_thread_stream, site.correlation_id, ranges);
  in.launch_names.note(site.correlation_id, site.kernel_name);
  in.launch_ranges.note(site.correlation_id, ranges);
}

void keep_names_before_unload(void* context) {
  static_cast<LaunchNames*>(context)->keep_before_unload();
}

// Inside the call, on the program's thread: successful synchronizations mark what had finished;
// the first fault is described at once, while the slots still hold the kernels that were running
// and their names can be read.
void on_api_result(const cupti::CuptiApi::ApiResult& result, void*) {
  Injection* in = g_injection;
  if (in == nullptr || g_own_work_idle.load(std::memory_order_relaxed)) return;
  using Kind = cupti::CuptiApi::ApiResult::Kind;
  switch (result.kind) {
    case Kind::device_synchronized:
      in->faults.marks().device_synchronized(result.context_id, result.correlation_id);
      return;
    case Kind::stream_synchronized:
      in->faults.marks().stream_synchronized(result.context_id,
                                             reinterpret_cast<std::uintptr_t>(result.stream),
                                             result.per_thread_stream, result.correlation_id);
      return;
    case Kind::fault:
      break;
  }
  if (!in->faults.claim()) return;
  try {
    FaultSite site;
    site.error = result.error;
    const char* call = in->api->callback_name(result.domain, result.callback_id);
    site.call = call != nullptr ? std::string{trace::strip_version_suffix(call)}
                                : "CUDA call " + std::to_string(result.callback_id);
    site.thread = current_thread();
    site.in_final_synchronization = in->final_flush_thread.load() == site.thread;
    site.device = result.device;
    site.context_id = result.context_id;
    site.correlation_id = result.correlation_id;
    GpuFault fault =
        describe_fault(site, in->launches.recent(), in->faults.marks(), &range_text, &thread_name);
    fault.launches_watched = in->watching_launch_sites;
    in->faults.publish(std::move(fault));
  } catch (const std::exception&) {
    // Out of memory inside a CUDA call: the end-of-process synchronization still says it failed.
  }
}

void on_profiler_api(bool started, void*) {
  Injection* in = g_injection;
  if (in == nullptr) return;
  const std::uint64_t now = cupti_now();
  if (started) {
    in->recorder->windows().open(now);
  } else {
    in->recorder->windows().close(now);
  }
}

// Launches whose API records the timeline keeps, for its launch arrows and threads. Each API
// record costs the launching thread host time (docs/run.md, "The cost target"), and kernels
// find their NVTX ranges without them (LaunchRanges), so past these they are switched off.
constexpr std::size_t kApiRecordLaunches = 2'000;

void start_worker(Injection& in) {
  WorkerJobs jobs;
  jobs.checkpoint = [&in, last = std::optional<std::pair<std::uint64_t, bool>>{}]() mutable {
    if (!in.session || g_own_work_idle.load(std::memory_order_relaxed)) return;
    // Completed buffers only: nothing the GPU still runs is cut short.
    in.api->flush_all(0);
    // Nothing new since the last checkpoint (an idle or CPU-bound stretch): its file says it.
    const std::pair<std::uint64_t, bool> now{in.recorder->version(), in.faults.fault() != nullptr};
    if (now == last) return;
    last = now;
    write_report(in, ReportKind::checkpoint);
  };
  // Without the last launch, launches pay for CUPTI's callback only until the first kernel
  // record shows that records arrive (the watch for another client has its answer). API records
  // serve the timeline only (launch arrows, threads): they are switched off after its first
  // launches (kApiRecordLaunches), or once it is full when launches are not counted.
  const bool watch_records = in.session && !in.watching_launch_sites;
  if (watch_records || (in.session && in.api_records_for_timeline_only)) {
    jobs.tick = [&in, watching = watch_records]() mutable {
      if (watching) {
        in.api->flush_all(0);
        in.session->stop_watching_launches_if_records_arrive();
        watching = in.recorder->kernels_received() == 0;
      }
      const std::uint64_t launches = in.api->launches_seen();
      if (in.api_records_for_timeline_only &&
          (launches >= std::min(in.settings.timeline_records, kApiRecordLaunches) ||
           in.recorder->timeline_full())) {
        in.api_records_for_timeline_only = false;
        if (in.session->stop_api_records()) in.recorder->api_records_stopped(launches);
      }
      return watching || in.api_records_for_timeline_only;
    };
  }
  jobs.terminate = [](int) { finish(); };
  jobs.crash_report = [&in](int) { write_report(in, ReportKind::crash); };
  jobs.crash_final = [](int) { finish(); };
  jobs.leave = [] { finish(); };
  jobs.snapshot = [](int signal) { snapshot(signal); };
  WorkerLimits limits;
  jobs.terminate_overdue = [&in, limit = limits.terminate_final_ms](int signal) {
    in.final_overdue_ms.store(limit);
    say(std::string{"the report after "} + signal_name(signal) + " was not done after " +
        std::to_string(limit / 1000) +
        " s (a CUDA or CUPTI call did not return): the report is written from memory, and the "
        "process ends");
    write_report(in, ReportKind::crash);
  };
  limits.checkpoint_interval_ms = in.settings.checkpoint_interval_ms;
  if (!start_report_worker(std::move(jobs), limits)) {
    say("no worker thread: no checkpoints, and a signal ends the process without a report");
  }
}

// The process-wide state, made by whichever hook runs first. Returns nullptr when kerntime
// cannot record in this process (said once on standard error).
Injection* injection() {
  std::lock_guard lock{setup_mutex};
  if (g_injection != nullptr) return g_injection->recorder ? g_injection : nullptr;
  g_injection = new Injection;
  Injection& in = *g_injection;
  in.pid = getpid();
  try {
    in.settings = read_run_settings([](const char* name) { return std::getenv(name); });
  } catch (const Error& error) {
    say(error.what());
    return nullptr;
  }
  in.recorder = std::make_unique<RunRecorder>(in.settings);
  in.path = unused_report_path(in.settings.output_directory, shard_file_name(),
                               [](const std::string& path) {
                                 struct stat info {};
                                 return stat(path.c_str(), &info) == 0;
                               });
  in.api = cupti::load_cupti_api(in.problem);
  if (in.api == nullptr) in.problem = "CUPTI could not be loaded: " + in.problem;
  std::uint64_t origin = 0;
  if (in.api != nullptr && in.api->timestamp(origin) == CUPTI_SUCCESS) {
    std::optional<std::uint64_t> end;
    if (in.settings.duration_ns) end = origin + in.settings.delay_ns + *in.settings.duration_ns;
    in.recorder->windows().bound(origin + in.settings.delay_ns, end);
  }
  std::atexit(&on_exit_handler);
  pthread_atfork(nullptr, nullptr, [] { g_forked_child.store(true); });
  EndJobs ends;
  ends.finish = [] { finish(); };
  ends.snapshot = [](int signal) { snapshot(signal); };
  install_end_hooks(std::move(ends), EndLimits{});
  return g_injection;
}

bool scopes_off = false;  // KERNTIME_RUN_RECORD_OFF=scopes (cost_switches.hpp)

std::uint64_t sink_range_id(const char* domain, const char* name) {
  return g_injection->recorder->range_id(domain, name);
}
std::uint64_t sink_range_path(std::uint64_t parent, std::uint64_t range) {
  return g_injection->recorder->range_path(parent, range);
}
// Set once the launch callback notes each launch's ranges (LaunchRanges): no external ids then.
std::atomic<bool> tags_from_launches{false};

bool sink_push_tag(std::uint64_t id) {
  Injection* in = g_injection;
  return !scopes_off && !tags_from_launches.load(std::memory_order_relaxed) &&
         !g_forked_child.load(std::memory_order_relaxed) && in->session && in->session->running() &&
         in->api->push_external_id(id) == CUPTI_SUCCESS;
}
void sink_pop_tag() {
  if (g_forked_child.load(std::memory_order_relaxed)) return;
  std::uint64_t last = 0;
  g_injection->api->pop_external_id(last);
}
void sink_range(std::uint64_t id, std::uint64_t start, std::uint64_t end) {
  g_injection->recorder->add_range(id, start, end);
}
bool sink_is_capture_range(const char* name) {
  const RunSettings& s = g_injection->settings;
  return s.capture == CaptureRange::nvtx_range && s.capture_nvtx_name == name;
}
void sink_capture(bool open, std::uint64_t now) {
  if (open) {
    g_injection->recorder->windows().open(now);
  } else {
    g_injection->recorder->windows().close(now);
  }
}

// CUPTI writes a record for every API call while RUNTIME and DRIVER are on; a PyTorch operator
// makes several calls that enqueue nothing (cudaGetDevice, cudaGetLastError, ...), and each
// record costs the program host time. A CUPTI without per-function switches records them all.
void mute_calls_that_enqueue_nothing(kerntime::cupti::CuptiApi& api) {
  struct Api {
    CUpti_CallbackDomain domain;
    CUpti_ActivityKind kind;
    std::uint32_t functions;
  };
  const Api apis[] = {
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_SIZE},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_SIZE}};
  for (const auto& [domain, kind, functions] : apis) {
    for (std::uint32_t id = 1; id < functions; ++id) {
      const char* name = api.callback_name(domain, id);
      if (name == nullptr || enqueues_work(name)) continue;
      if (api.mute(kind, id) == CUPTI_ERROR_NOT_SUPPORTED) break;  // this CUPTI lacks the switch
    }
  }
}

// KERNTIME_RUN_COST_PHASES=MS: a diagnostic for docs/run.md's cost target, not an option. Its
// rows go to KERNTIME_RUN_COST_PHASES_OUT (appended), and the report says it is incomplete.
void start_cost_phases_if_asked(Injection& in) {
  std::optional<CostPhaseSettings> settings;
  try {
    settings = parse_cost_phases(std::getenv("KERNTIME_RUN_COST_PHASES"));
  } catch (const Error& error) {
    say(error.what());
    return;
  }
  if (!settings) return;
  const char* path = std::getenv("KERNTIME_RUN_COST_PHASES_OUT");
  const int fd = path != nullptr ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
  if (fd < 0) {
    say("KERNTIME_RUN_COST_PHASES needs KERNTIME_RUN_COST_PHASES_OUT, a file it can write");
    return;
  }
  CostPhaseHooks hooks;
  hooks.launches = [&in] { return in.api->launches_seen(); };
  hooks.set_idle = [&in](bool idle) {
    g_own_work_idle.store(idle, std::memory_order_relaxed);
    set_nvtx_hooks_idle(idle);
    // kerntime's own threads too: the records wait and are all read in the next phase that
    // works, which so pays for both (an upper bound on the reader's share), and checkpoints
    // come only in working phases.
    in.session->hold_reading(idle);
  };
  // Never closed: the thread writes until the process ends.
  hooks.write_row = [fd](const std::string& row) {
    const std::string line = row + "\n";
    (void)!write(fd, line.data(), line.size());
  };
  if (start_cost_phases(*settings, std::move(hooks))) {
    in.problem =
        "KERNTIME_RUN_COST_PHASES: kerntime's launch watch, NVTX hooks, record reader and "
        "checkpoints were idle half the time (a cost diagnostic); ranges, last launches and "
        "faults are incomplete";
  }
}

}  // namespace
}  // namespace kerntime::inject

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  using namespace kerntime::inject;
  Injection* in = injection();
  if (in == nullptr) return 1;  // said why; the program runs unrecorded
  std::lock_guard lock{setup_mutex};
  if (in->session || in->api == nullptr) return 1;
  kerntime::TracerOptions options;
  options.synchronization = false;  // not summarized; every record costs the program time
  const CostSwitches switches = cost_switches_from_environment();
  apply_record_off(switches, options);
  scopes_off = !options.scopes;
  in->sink = std::make_unique<RecorderSink>(*in->recorder);
  in->session = std::make_unique<kerntime::cupti::ActivitySession>(
      *in->api, options, &kerntime::cuda::synchronize_active_devices);
  in->session->send_records_to(in->sink.get());
  // A kerntime::Tracer in the program then reads "CUPTI is held by CUPTI for kerntime run".
  in->session->set_subscriber_name("kerntime run");
  in->session->set_unavailable_consequence(": kerntime run records nothing in this process");
  // The session's reader thread must not run a terminating signal's handler either: the
  // handler waits for the final report, and writing it joins that thread.
  sigset_t terminating;
  sigset_t previous;
  sigemptyset(&terminating);
  for (const int signal : {SIGTERM, SIGINT, SIGHUP})
    sigaddset(&terminating, signal);
  pthread_sigmask(SIG_BLOCK, &terminating, &previous);
  const std::string problem = in->session->start();
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (!problem.empty()) {
    in->problem = problem;
    in->session.reset();
    say(problem);
  } else {
    if (in->settings.capture == CaptureRange::profiler_api &&
        in->api->watch_profiler_api(&on_profiler_api, nullptr) != CUPTI_SUCCESS) {
      in->problem = "--capture-range=cudaProfilerApi: CUPTI could not watch cudaProfilerStart";
      say(in->problem);
    }
    in->watching_launch_sites = in->settings.last_launch &&
                                in->api->watch_launch_sites(&on_launch_site, in) == CUPTI_SUCCESS;
    // The fault watch names kernels from the slots: it runs with them (--no-last-launch turns
    // both off; the end-of-process synchronization still reports a fault then).
    if (in->watching_launch_sites) in->api->watch_api_results(&on_api_result, nullptr);
    // Without the launch sites no names are noted, and records delivered after their module's
    // unload keep what CUPTI's pointer reads then.
    if (const std::atomic<std::uint64_t>* unloads = in->api->watch_unloads(
            in->watching_launch_sites ? &keep_names_before_unload : nullptr, &in->launch_names)) {
      in->recorder->trust_name_pointers(unloads);
      if (in->watching_launch_sites) in->recorder->restore_names_from(&in->launch_names);
    }
    if (!in->settings.all_api_calls) mute_calls_that_enqueue_nothing(*in->api);
    // --all-api-calls keeps CUPTI's tags too: every call then carries its ranges in the timeline.
    if (in->watching_launch_sites && !in->settings.all_api_calls && !switches.tags_as_before) {
      in->recorder->tag_from_launches(&in->launch_ranges);
      tags_from_launches.store(true);
    }
    in->api_records_for_timeline_only = !in->settings.all_api_calls && !switches.api_as_before &&
                                        options.runtime_api && options.driver_api;
  }
  start_worker(*in);
  if (in->session) start_cost_phases_if_asked(*in);
  return 1;
}

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_export_table) {
  using namespace kerntime::inject;
  if (injection() == nullptr) return 0;
  NvtxSink sink{&sink_range_id, &sink_range_path,       &cupti_now,   &sink_push_tag, &sink_pop_tag,
                &sink_range,    &sink_is_capture_range, &sink_capture};
  return install_nvtx_handlers(get_export_table, sink);
}
