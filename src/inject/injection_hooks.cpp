// SPDX-License-Identifier: Apache-2.0
// What the injected library runs on the program's threads, inside CUDA calls (the launch sites,
// the results where a fault surfaces, cudaProfilerStart and Stop), and on its worker thread
// (checkpoints, the watches that end once records arrive, and the ends by signal).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "inject/end_hooks.hpp"
#include "inject/injection_state.hpp"
#include "inject/nvtx_hooks.hpp"
#include "inject/signal_worker.hpp"
#include "trace/names.hpp"

namespace kerntime::inject {

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

namespace {

std::uint64_t steady_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

// At the exit of a successful synchronization the records of what it saw finish are complete:
// handed to the recorder now, a fault after it cannot take them (sync_flush_pacer.hpp). Not once
// the final report has begun: that flushes everything itself; nor in a child made by fork()
// alone, whose CUPTI is its parent's memory only.
void flush_after_synchronization(Injection& in) {
  if (!in.flush_at_synchronization || !in.session || final_report_begun() ||
      g_forked_child.load(std::memory_order_relaxed)) {
    return;
  }
  const std::uint64_t began = steady_ns();
  if (!in.sync_flushes.begin(began, in.api->launches_seen())) return;
  in.api->flush_all(0);
  in.sync_flushes.done(began, steady_ns());
}

}  // namespace

// Inside the call, on the program's thread: successful synchronizations mark what had finished
// and flush CUPTI's completed buffers; the first fault is described at once, while the slots
// still hold the kernels that were running and their names can be read.
void on_api_result(const cupti::CuptiApi::ApiResult& result, void*) {
  Injection* in = g_injection;
  if (in == nullptr || g_own_work_idle.load(std::memory_order_relaxed)) return;
  using Kind = cupti::CuptiApi::ApiResult::Kind;
  switch (result.kind) {
    case Kind::device_synchronized:
      in->faults.marks().device_synchronized(result.context_id, result.correlation_id);
      flush_after_synchronization(*in);
      return;
    case Kind::stream_synchronized:
      in->faults.marks().stream_synchronized(result.context_id,
                                             reinterpret_cast<std::uintptr_t>(result.stream),
                                             result.per_thread_stream, result.correlation_id);
      flush_after_synchronization(*in);
      return;
    case Kind::copy_called:
      // Its record finds its ranges as a kernel's does (the timeline shows them).
      in->launch_ranges.note(result.correlation_id, open_range_path());
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

namespace {

// Launches whose API records the timeline keeps, for its launch arrows and threads. Each API
// record costs the launching thread host time (docs/run.md, "The cost target"), and kernels
// find their NVTX ranges without them (LaunchRanges), so past these they are switched off.
constexpr std::size_t kApiRecordLaunches = 2'000;

}  // namespace

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

}  // namespace kerntime::inject
