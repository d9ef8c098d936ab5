// SPDX-License-Identifier: Apache-2.0
// The library `kerntime run` injects into a program: CUDA calls InitializeInjection from cuInit
// (CUDA_INJECTION64_PATH), NVTX calls InitializeInjectionNvtx2 from a module's first NVTX call
// (NVTX_INJECTION64_PATH). It records through CUPTI into a RunRecorder and writes one report per
// process into KERNTIME_RUN_DIR: rewritten every few seconds while the program runs, and last at
// exit, so that a process killed without warning still leaves what it recorded.
//
// Everything here lives until the process ends on purpose: atexit handlers and static
// destructors run in an order this library does not control.
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <thread>
#include <unistd.h>

#include <nvtx3/nvToolsExt.h>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/tracer.hpp>
#include <kerntime/version.hpp>

#include "cuda/device_sync.hpp"
#include "cupti/activity_session.hpp"
#include "cupti/cupti_api.hpp"
#include "inject/nvtx_hooks.hpp"
#include "inject/run_recorder.hpp"
#include "inject/run_settings.hpp"
#include "inject/shard_name.hpp"

namespace kerntime::inject {
namespace {

class RecorderSink final : public cupti::ActivitySession::RecordSink {
 public:
  explicit RecorderSink(RunRecorder& recorder) : recorder_(recorder) {}
  void records(trace::RecordBatch batch) override { recorder_.append(std::move(batch)); }
  void dropped(std::uint64_t records) override { recorder_.add_dropped(records); }

 private:
  RunRecorder& recorder_;
};

struct Injection {
  RunSettings settings;
  std::unique_ptr<cupti::CuptiApi> api;  // loaded at the first hook, for timestamps and tags
  std::unique_ptr<RunRecorder> recorder;
  std::unique_ptr<RecorderSink> sink;
  std::unique_ptr<cupti::ActivitySession> session;  // started at cuInit
  std::string problem;                              // why nothing is recorded
  pid_t pid = 0;
  std::string path;  // this process's report
  int wake[2] = {-1, -1};
  int written[2] = {-1, -1};  // the worker's answer to a signal: the final report is written
  std::thread worker;
  std::atomic<bool> finished{false};
  std::atomic<int> signal_received{0};
  std::mutex write_mutex;
};

std::mutex setup_mutex;
Injection* g_injection = nullptr;  // leaked on purpose, see the top of the file

void say(const std::string& line) {
  std::fprintf(stderr, "kerntime run: %s\n", line.c_str());
}

std::uint64_t cupti_now() {
  Injection* in = g_injection;
  std::uint64_t now = 0;
  if (in == nullptr || in->api == nullptr || in->api->timestamp(now) != CUPTI_SUCCESS) return 0;
  return now;
}

void write_report(Injection& in, bool final_write) {
  std::lock_guard lock{in.write_mutex};
  try {
    // A checkpoint carries the summary only: the records go into the final report, and building
    // them every few seconds would cost the program time and memory.
    Report report = in.recorder->report(final_write);
    report.environment.tool_version = kVersion;
    report.environment.host_name = process_label();
    if (!in.problem.empty()) report.warnings.insert(report.warnings.begin(), in.problem);
    if (in.session) {
      const std::string starved = in.session->starved_reason();
      if (!starved.empty()) report.warnings.insert(report.warnings.begin(), starved);
    }
    if (!final_write) {
      report.warnings.push_back(
          "the process did not finish normally (killed, aborted, or left through _exit): this "
          "is its last checkpoint, without records for the timeline, and kernels after it are "
          "missing");
    } else if (const int signal = in.signal_received.load(); signal != 0) {
      report.warnings.push_back("the process was stopped by signal " + std::to_string(signal) +
                                "; what it recorded up to then is here");
    }
    write_report_file(report, in.path);
  } catch (const std::exception& error) {
    say("could not write " + in.path + ": " + error.what());
  }
}

// Flushes CUPTI, stops recording and writes the final report; once per process, and never in
// a child made by fork() alone (it inherited this state but not the parent's CUDA work).
void finish() {
  Injection* in = g_injection;
  if (in == nullptr || getpid() != in->pid || in->finished.exchange(true)) return;
  if (in->worker.joinable()) {
    const char byte = 'q';
    if (write(in->wake[1], &byte, 1) < 0) {
      // The worker wakes at its next checkpoint anyway.
    }
    if (in->worker.get_id() != std::this_thread::get_id()) in->worker.join();
  }
  if (in->session) {
    const std::string failure = in->session->stop();
    if (!failure.empty()) {
      in->problem = "the last records could not all be read: " + failure;
    }
  }
  write_report(*in, true);
}

void on_exit_handler() {
  finish();
}

// Runs on a program thread (the worker blocks these signals): it hands the writing to the
// worker, waits for it, then lets the signal end the process as it would have. Waiting here,
// instead of returning, keeps the program's interrupted call (a sleep, a read) from carrying on
// as if nothing happened. Only async-signal-safe calls.
void on_signal(int signal) {
  Injection* in = g_injection;
  if (in != nullptr) {
    in->signal_received.store(signal);
    const char byte = 's';
    if (!in->finished.load() && write(in->wake[1], &byte, 1) == 1) {
      char done = 0;
      while (read(in->written[0], &done, 1) < 0 && errno == EINTR) {
      }
    }
  }
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  raise(signal);  // delivered when this handler returns
}

// Terminating signals the program leaves at their default: kerntime writes what it recorded,
// then lets the signal end the process as it would have.
void catch_termination() {
  for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
    struct sigaction current {};
    if (sigaction(signal, nullptr, &current) != 0) continue;
    if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO) != 0) continue;
    struct sigaction handler {};
    handler.sa_handler = &on_signal;
    sigemptyset(&handler.sa_mask);
    sigaction(signal, &handler, nullptr);
  }
}

// Checkpoints, and the work a signal handler cannot do.
void work(Injection* in) {
  const int timeout = in->settings.checkpoint_interval_ms == 0
                          ? -1
                          : static_cast<int>(in->settings.checkpoint_interval_ms);
  for (;;) {
    pollfd wake{in->wake[0], POLLIN, 0};
    const int ready = poll(&wake, 1, timeout);
    if (in->finished.load()) {
      const char done = 'w';  // a handler may be waiting: the report is written already
      if (write(in->written[1], &done, 1) < 0) {
      }
      return;
    }
    if (ready > 0) {
      char byte = 0;
      if (read(in->wake[0], &byte, 1) == 1 && byte == 'q') return;
      if (in->signal_received.load() != 0) {
        finish();
        const char done = 'w';
        if (write(in->written[1], &done, 1) < 0) {
          // The handler then waits for nothing more: it reads end-of-file when we exit.
        }
        return;
      }
      continue;
    }
    if (ready == 0 && in->session) {
      in->api->flush_all(0);  // completed buffers only: nothing the GPU still runs is cut short
      write_report(*in, false);
    }
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
  in.path = in.settings.output_directory + "/" + shard_file_name();
  in.api = cupti::load_cupti_api(in.problem);
  if (in.api == nullptr) in.problem = "CUPTI could not be loaded: " + in.problem;
  std::uint64_t origin = 0;
  if (in.api != nullptr && in.api->timestamp(origin) == CUPTI_SUCCESS) {
    std::optional<std::uint64_t> end;
    if (in.settings.duration_ns) end = origin + in.settings.delay_ns + *in.settings.duration_ns;
    in.recorder->windows().bound(origin + in.settings.delay_ns, end);
  }
  pthread_atfork(nullptr, nullptr, [] {
    // The child of fork() alone: its copy of this state belongs to the parent (finish() checks
    // the pid), and it must not write into the parent's pipe.
  });
  std::atexit(&on_exit_handler);
  return g_injection;
}

std::uint64_t sink_range_id(const char* domain, const char* name) {
  return g_injection->recorder->range_id(domain, name);
}
bool sink_push_tag(std::uint64_t id) {
  Injection* in = g_injection;
  return in->session && in->session->running() && in->api->push_external_id(id) == CUPTI_SUCCESS;
}
void sink_pop_tag() {
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
  in->sink = std::make_unique<RecorderSink>(*in->recorder);
  in->session = std::make_unique<kerntime::cupti::ActivitySession>(
      *in->api, options, &kerntime::detail::synchronize_active_devices);
  in->session->send_records_to(in->sink.get());
  const std::string problem = in->session->start();
  if (!problem.empty()) {
    in->problem = problem;
    in->session.reset();
    say(problem);
  } else if (in->settings.capture == CaptureRange::profiler_api &&
             in->api->watch_profiler_api(&on_profiler_api, nullptr) != CUPTI_SUCCESS) {
    in->problem = "--capture-range=cudaProfilerApi: CUPTI could not watch cudaProfilerStart";
    say(in->problem);
  }
  if (pipe(in->wake) == 0 && pipe(in->written) == 0) {
    // The worker must never run the handler: the handler waits for the worker.
    sigset_t termination, previous;
    sigemptyset(&termination);
    for (const int signal : {SIGTERM, SIGINT, SIGHUP})
      sigaddset(&termination, signal);
    pthread_sigmask(SIG_BLOCK, &termination, &previous);
    in->worker = std::thread{&work, in};
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    catch_termination();
  }
  return 1;
}

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_export_table) {
  using namespace kerntime::inject;
  if (injection() == nullptr) return 0;
  NvtxSink sink{&sink_range_id,         &cupti_now,   &sink_push_tag, &sink_pop_tag, &sink_range,
                &sink_is_capture_range, &sink_capture};
  return install_nvtx_handlers(get_export_table, sink);
}
