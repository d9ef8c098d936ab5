// SPDX-License-Identifier: Apache-2.0
// The library `kerntime run` injects into a program: CUDA calls InitializeInjection from cuInit
// (CUDA_INJECTION64_PATH), NVTX calls InitializeInjectionNvtx2 from a module's first NVTX call
// (NVTX_INJECTION64_PATH). It records through CUPTI into a RunRecorder and writes one report per
// process into KERNTIME_RUN_DIR: rewritten every few seconds while the program runs, last at
// exit or when a signal ends the process (signal_worker.hpp), so that a process killed without
// warning still leaves what it recorded, and one that aborts names the last kernel it launched.
//
// The state it shares with the hooks and the reports: injection_state.hpp.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

#include <nvtx3/nvToolsExt.h>

#include <kerntime/error.hpp>
#include <kerntime/tracer.hpp>

#include "cuda/device_sync.hpp"
#include "cupti/activity_session.hpp"
#include "cupti/cupti_api.hpp"
#include "cupti/cupti_versions.hpp"
#include "inject/cost_phases.hpp"
#include "inject/cost_switches.hpp"
#include "inject/end_hooks.hpp"
#include "inject/enqueues_work.hpp"
#include "inject/injection_state.hpp"
#include "inject/nvtx_hooks.hpp"
#include "inject/run_settings.hpp"
#include "inject/shard_name.hpp"

namespace kerntime::inject {

Injection* g_injection = nullptr;
std::atomic<bool> g_forked_child{false};

void say(const std::string& line) {
  std::fprintf(stderr, "kerntime run: %s\n", line.c_str());
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

namespace {

std::mutex setup_mutex;

void on_exit_handler() {
  finish();
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
  in.refused_subscribers = reinterpret_cast<kerntime_refused_cupti_subscribers_fn>(
      dlsym(RTLD_DEFAULT, kRefusedCuptiSubscribersSymbol));
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
  const bool ranges_recorded = options.scopes;
  // API records only where something reads them (RunSettings::launch_calls says why).
  const bool api_records_wanted = wants_api_records(in->settings, switches);
  apply_api_records(api_records_wanted, options);
  scopes_off = !options.scopes;  // no CUPTI tags pushed where nothing would write them
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
    if (switches.zeroing_as_before) {
      // The diagnostic: CUPTI zeroes each buffer it is lent again, as before the pool lent
      // zeroed ones (buffer_pool.hpp); no buffer has been asked for yet.
      (void)in->api->set_attribute(kerntime::cupti::kZeroedOutActivityBuffer, 0);
    }
    if (in->settings.capture == CaptureRange::profiler_api &&
        in->api->watch_profiler_api(&on_profiler_api, nullptr) != CUPTI_SUCCESS) {
      in->problem = "--capture-range=cudaProfilerApi: CUPTI could not watch cudaProfilerStart";
      say(in->problem);
    }
    in->watching_launch_sites = in->settings.last_launch &&
                                in->api->watch_launch_sites(&on_launch_site, in) == CUPTI_SUCCESS;
    // Set before the watch below starts, so that no hook reads it while it is written.
    in->flush_at_synchronization = in->watching_launch_sites && !switches.sync_flush_off;
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
    if (!in->settings.all_api_calls && options.runtime_api && options.driver_api) {
      mute_calls_that_enqueue_nothing(*in->api);
    }
    if (!api_records_wanted) in->recorder->api_records_off();
    if (!api_records_wanted && !in->watching_launch_sites && ranges_recorded) {
      // A CUPTI that refuses the launch callback: ranges would need CUPTI's tags, and those
      // come only with API records.
      in->recorder->add_warning(
          "CUPTI refused the launch callback, so kernels are not tied to the NVTX ranges they "
          "ran in (--all-api-calls ties them through CUPTI's API records)");
    }
    // --all-api-calls keeps CUPTI's tags too: every call then carries its ranges in the timeline.
    if (in->watching_launch_sites && !in->settings.all_api_calls && !switches.tags_as_before) {
      in->recorder->tag_from_launches(&in->launch_ranges);
      tags_from_launches.store(true);
    }
    // Kept all along where NVTX ranges need them (CUPTI's tags come with API records only).
    in->api_records_for_timeline_only = !in->settings.all_api_calls && !switches.api_as_before &&
                                        options.runtime_api && options.driver_api &&
                                        tags_from_launches.load();
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
