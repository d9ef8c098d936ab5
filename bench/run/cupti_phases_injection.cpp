// SPDX-License-Identifier: Apache-2.0
// Where CUPTI's host cost per launch goes, inside one process (docs/run.md, "The cost target"):
// processes of one program differ by 15 % and more in step time, more than the few percent the
// cost target is about, so arms in processes of their own cannot tell CUPTI's parts apart. This
// injection library switches CUPTI's configuration every KERNTIME_PHASE_MS (default 100) while
// the program runs, in cycles of the phases named by KERNTIME_PHASES (default
// "kernels,api,copies,callbacks"):
//
//   kernels    kernel records only (what the reference reader records)
//   copies     + copies, memsets and external correlation records (kerntime run's kinds once its
//              API records stop)
//   api        + runtime and driver API records (kerntime run's first launches, --all-api-calls)
//   callbacks  copies, and a callback on every launch API that does nothing (the floor of
//              kerntime run's launch watch)
//   watch      copies, and a callback that does nothing on every call kerntime run watches:
//              launches, synchronizations, event records and queries, copies and memsets, and
//              module unloads (src/cupti/watched_calls.cpp)
//   launch-api + runtime and driver API records muted to the calls that launch, copy or set
//              memory (what `kerntime run --timeline` asks for its first launches)
//   launch-runtime, launch-driver, launch-both
//              kernel records, and a callback that does nothing on kerntime run's launch calls
//              of the runtime API, of the driver API, or of both (no copies): what each domain's
//              launch callbacks cost
//
// A process of one phase alone (KERNTIME_PHASES=watch) is configured once and stays so: an arm
// of bench/scripts/step_cost.py (cupti-NAME). KERNTIME_PHASES_COUNT=1 makes the callback count
// the calls it sees, per domain, and print the counts at exit.
//
// KERNTIME_PHASES_ONCE=NAME@CYCLE runs phase NAME once, before cycle CYCLE (its row's cycle is
// CYCLE and its phase "NAME-once"), so that cycles before and after it, in one process, tell
// whether a configuration costs launches after it is switched off again (bench/scripts/
// cupti_phases.py --once).
//
// `copies` follows `api` in the default cycle, so it also tells whether switching API records off
// restores what they cost. Each phase counts the kernels that started on the GPU within it (in a
// launch-bound program, the launches); bench/scripts/cupti_phases.py turns the phases into host
// time per launch and compares each with `kernels` of the same cycle. One line per phase goes to
// KERNTIME_PHASES_OUT, {"cycle": C, "phase": NAME, "kernels": N, "seconds": S}, two cycles after
// the phase (its kernels' records have come by then) or at exit, so a process that crashes keeps
// what it measured; a fault prints its stack to stderr.
//
//   CUDA_INJECTION64_PATH=build/gpu/bench/run/libkerntime_cupti_phases_injection.so PROGRAM
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <execinfo.h>
#include <iterator>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include <cupti.h>

#include "../cupti_buffer_free_list.hpp"
#include "cupti/watched_calls.hpp"
#include "inject/enqueues_work.hpp"

namespace {

constexpr std::size_t kMaxPhases = 1 << 16;

kerntime_bench::CuptiBufferFreeList buffers;

// Phase boundaries in CUPTI's clock, written by the switching thread before the phase starts;
// kernels are binned by their GPU start at exit.
struct Phase {
  std::uint32_t cycle = 0;
  std::uint32_t kind = 0;  ///< index into kNames
  bool once = false;       ///< the KERNTIME_PHASES_ONCE phase
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};
std::vector<Phase> phases;  // reserved kMaxPhases at start, appended by the switching thread only
std::size_t phases_written = 0;  // under out_mutex
std::mutex out_mutex;
std::mutex starts_mutex;
std::vector<std::uint64_t> kernel_starts;  // appended on CUPTI's buffer thread
std::atomic<int> configuring{-1};          // the phase being configured, for a fault's report

const char* const kNames[] = {"kernels",        "copies",        "api",
                              "callbacks",      "watch",         "launch-api",
                              "launch-runtime", "launch-driver", "launch-both"};
constexpr std::uint32_t kLaunchRuntime = 6, kLaunchDriver = 7;  // launch-both: 8

constexpr CUpti_ActivityKind kCopyKinds[] = {
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET};
constexpr CUpti_ActivityKind kApiKinds[] = {CUPTI_ACTIVITY_KIND_RUNTIME,
                                            CUPTI_ACTIVITY_KIND_DRIVER};
// The launch APIs kerntime run's launch watch subscribes to (src/cupti/watched_calls.cpp).
constexpr CUpti_CallbackId kRuntimeLaunches[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000};
constexpr CUpti_CallbackId kDriverLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,   CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz};

CUpti_SubscriberHandle subscriber = nullptr;
std::atomic<bool> stopping{false};
std::thread switcher;

void CUPTIAPI requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  buffers.take(buffer, size, max_records);
}

void CUPTIAPI completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                        std::size_t valid) {
  std::vector<std::uint64_t> starts;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
        record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      // `start` sits where it did in every kernel record version (src/cupti/kernel_record.hpp).
      starts.push_back(reinterpret_cast<const CUpti_ActivityKernel4*>(record)->start);
    }
  }
  {
    std::lock_guard lock{starts_mutex};
    kernel_starts.insert(kernel_starts.end(), starts.begin(), starts.end());
  }
  buffers.give_back(buffer);
}

void CUPTIAPI no_callback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

// KERNTIME_PHASES_COUNT=1: the calls each domain's callbacks saw (entries), for the count of
// callbacks a launch makes.
std::atomic<std::uint64_t> runtime_calls{0};
std::atomic<std::uint64_t> driver_calls{0};
std::atomic<std::uint64_t> other_calls{0};

void CUPTIAPI counting_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId,
                                const void* data) {
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    if (call->callbackSite != CUPTI_API_ENTER) return;
    (domain == CUPTI_CB_DOMAIN_RUNTIME_API ? runtime_calls : driver_calls)
        .fetch_add(1, std::memory_order_relaxed);
    return;
  }
  other_calls.fetch_add(1, std::memory_order_relaxed);
}

void set_kinds(const CUpti_ActivityKind* kinds, std::size_t count, bool on) {
  for (std::size_t i = 0; i < count; ++i) {
    if (on) {
      cuptiActivityEnable(kinds[i]);
    } else {
      cuptiActivityDisable(kinds[i]);
    }
  }
}

void set_callbacks(bool on) {
  for (const CUpti_CallbackId id : kRuntimeLaunches)
    cuptiEnableCallback(on ? 1 : 0, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
  for (const CUpti_CallbackId id : kDriverLaunches)
    cuptiEnableCallback(on ? 1 : 0, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
}

// kerntime run's launch callbacks (src/cupti/watched_calls.cpp) of one domain or both.
void set_launch_watch(bool runtime, bool driver) {
  std::size_t count = 0;
  const kerntime::cupti::WatchedCallback* callbacks = kerntime::cupti::launch_callbacks(count);
  for (std::size_t i = 0; i < count; ++i) {
    const bool on = callbacks[i].domain == CUPTI_CB_DOMAIN_RUNTIME_API ? runtime : driver;
    cuptiEnableCallback(on ? 1 : 0, subscriber, callbacks[i].domain, callbacks[i].id);
  }
}

// Every callback kerntime run enables (launch_watch.hpp's watch, with the result watch on).
void set_watch(bool on) {
  const std::uint32_t enable = on ? 1 : 0;
  for (const auto list : {&kerntime::cupti::launch_callbacks, &kerntime::cupti::result_callbacks}) {
    std::size_t count = 0;
    const kerntime::cupti::WatchedCallback* callbacks = list(count);
    for (std::size_t i = 0; i < count; ++i)
      cuptiEnableCallback(enable, subscriber, callbacks[i].domain, callbacks[i].id);
  }
  for (const CUpti_CallbackId id :
       {CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING})
    cuptiEnableCallback(enable, subscriber, CUPTI_CB_DOMAIN_RESOURCE, id);
}

// Whether API records of calls that enqueue no work are muted (the launch-api phase), as
// `kerntime run` mutes them (src/inject/injection.cpp, mute_calls_that_enqueue_nothing).
bool muted = false;

void set_muted(bool on) {
  if (on == muted) return;
  struct Api {
    CUpti_CallbackDomain domain;
    CUpti_CallbackId functions;
    CUptiResult (*record)(CUpti_CallbackId, std::uint8_t);
  };
  const Api apis[] = {
      {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE, &cuptiActivityEnableRuntimeApi},
      {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE, &cuptiActivityEnableDriverApi}};
  for (const auto& [domain, functions, record] : apis) {
    for (CUpti_CallbackId id = 1; id < functions; ++id) {
      const char* name = nullptr;
      if (cuptiGetCallbackName(domain, id, &name) == CUPTI_SUCCESS && name != nullptr &&
          !kerntime::inject::enqueues_work(name)) {
        record(id, on ? 0 : 1);
      }
    }
  }
  muted = on;
}

// Brings CUPTI to phase `kind`'s configuration.
void configure(std::uint32_t kind) {
  set_kinds(kCopyKinds, std::size(kCopyKinds), kind != 0 && kind < kLaunchRuntime);
  // API records off before their functions are unmuted, so that no moment records them all.
  const bool api = kind == 2 || kind == 5;
  if (!api) set_kinds(kApiKinds, std::size(kApiKinds), false);
  set_muted(kind == 5);
  if (api) set_kinds(kApiKinds, std::size(kApiKinds), true);
  // The watch's list holds the launch callbacks too: off first, then each phase's own on.
  if (kind == 4) {
    set_callbacks(false);
    set_watch(true);
  } else if (kind >= kLaunchRuntime) {
    set_watch(false);
    set_callbacks(false);
    set_launch_watch(kind != kLaunchDriver, kind != kLaunchRuntime);
  } else {
    set_watch(false);
    set_callbacks(kind == 3);
  }
}

// The index of the phase `name` into kNames; std::size(kNames) for none.
std::uint32_t phase_named(const std::string& name) {
  for (std::uint32_t k = 0; k < std::size(kNames); ++k) {
    if (name == kNames[k]) return k;
  }
  return static_cast<std::uint32_t>(std::size(kNames));
}

std::vector<std::uint32_t> phase_order() {
  const char* text = std::getenv("KERNTIME_PHASES");
  std::istringstream list{text != nullptr && *text != '\0' ? text : "kernels,api,copies,callbacks"};
  std::vector<std::uint32_t> order;
  for (std::string name; std::getline(list, name, ',');) {
    for (std::uint32_t k = 0; k < std::size(kNames); ++k) {
      if (name == kNames[k]) order.push_back(k);
    }
  }
  if (order.empty()) order.push_back(0);
  return order;
}

// Writes the phases before `settled` (an index into `phases`), and forgets the kernels that
// started before the last of them ended.
void write_phases(std::size_t settled) {
  std::lock_guard out_lock{out_mutex};
  if (settled <= phases_written) return;
  const char* path = std::getenv("KERNTIME_PHASES_OUT");
  std::FILE* out = path != nullptr ? std::fopen(path, "a") : stderr;
  if (out == nullptr) return;
  std::lock_guard lock{starts_mutex};
  for (std::size_t i = phases_written; i < settled; ++i) {
    const Phase& p = phases[i];
    std::size_t kernels = 0;
    for (const std::uint64_t start : kernel_starts)
      kernels += start >= p.begin && start < p.end ? 1 : 0;
    std::fprintf(out, "{\"cycle\": %u, \"phase\": \"%s%s\", \"kernels\": %zu, \"seconds\": %.9f}\n",
                 p.cycle, kNames[p.kind], p.once ? "-once" : "", kernels,
                 static_cast<double>(p.end - p.begin) * 1e-9);
  }
  const std::uint64_t before = phases[settled - 1].end;
  kernel_starts.erase(std::remove_if(kernel_starts.begin(), kernel_starts.end(),
                                     [before](std::uint64_t start) { return start < before; }),
                      kernel_starts.end());
  phases_written = settled;
  if (out != stderr) std::fclose(out);
}

void switch_phases() {
  const char* ms_text = std::getenv("KERNTIME_PHASE_MS");
  const int ms = ms_text != nullptr && std::atoi(ms_text) > 0 ? std::atoi(ms_text) : 100;
  const std::vector<std::uint32_t> order = phase_order();
  // KERNTIME_PHASES_ONCE=NAME@CYCLE
  const char* once_text = std::getenv("KERNTIME_PHASES_ONCE");
  const std::string once{once_text != nullptr ? once_text : ""};
  const std::size_t at = once.find('@');
  const std::uint32_t once_kind =
      at != std::string::npos ? phase_named(once.substr(0, at)) : std::size(kNames);
  const bool has_once = once_kind < std::size(kNames);
  if (!once.empty() && !has_once) {
    std::fprintf(stderr, "cupti_phases: KERNTIME_PHASES_ONCE=%s names no phase (NAME@CYCLE)\n",
                 once.c_str());
  }
  const std::uint32_t once_cycle =
      has_once ? static_cast<std::uint32_t>(std::atoi(once.c_str() + at + 1)) : 0;
  int configured = -1;
  for (std::uint32_t cycle = 0; !stopping.load(); ++cycle) {
    std::vector<std::pair<std::uint32_t, bool>> this_cycle;
    if (has_once && cycle == once_cycle) this_cycle.emplace_back(once_kind, true);
    for (const std::uint32_t kind : order)
      this_cycle.emplace_back(kind, false);
    for (const auto& [kind, is_once] : this_cycle) {
      if (stopping.load() || phases.size() == kMaxPhases) return;
      // A process of one phase is configured once: switching a callback off and on again
      // would lose the launches in between, and is not what the arm measures.
      if (static_cast<int>(kind) != configured) {
        configuring.store(static_cast<int>(kind));
        configure(kind);
        configuring.store(-1);
        configured = static_cast<int>(kind);
      }
      Phase p;
      p.cycle = cycle;
      p.kind = kind;
      p.once = is_once;
      cuptiGetTimestamp(&p.begin);
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
      cuptiGetTimestamp(&p.end);
      phases.push_back(p);
    }
    // The phases of two cycles ago: their kernels' records have come by now.
    cuptiActivityFlushAll(0);
    if (phases.size() > 2 * order.size() + 1) write_phases(phases.size() - 2 * order.size() - 1);
  }
}

bool counting = false;

void at_exit() {
  stopping.store(true);
  if (switcher.joinable()) switcher.join();
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  write_phases(phases.size());
  if (counting) {
    std::fprintf(stderr, "cupti_phases: callbacks runtime %llu driver %llu other %llu\n",
                 static_cast<unsigned long long>(runtime_calls.load()),
                 static_cast<unsigned long long>(driver_calls.load()),
                 static_cast<unsigned long long>(other_calls.load()));
  }
}

// Where a fault came from, and whether the switching thread was configuring CUPTI then.
void on_fault(int signal) {
  char line[96];
  const int n =
      std::snprintf(line, sizeof line, "cupti_phases: signal %d while configuring phase %d\n",
                    signal, configuring.load());
  if (n > 0) (void)!write(STDERR_FILENO, line, static_cast<std::size_t>(n));
  void* frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  const char* count = std::getenv("KERNTIME_PHASES_COUNT");
  counting = count != nullptr && std::strcmp(count, "1") == 0;
  if (cuptiSubscribe(&subscriber, counting ? &counting_callback : &no_callback, nullptr) !=
      CUPTI_SUCCESS) {
    return 1;
  }
  if (cuptiActivityRegisterCallbacks(&requested, &completed) != CUPTI_SUCCESS) return 1;
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  phases.reserve(kMaxPhases);
  for (const int signal : {SIGSEGV, SIGBUS, SIGABRT, SIGILL})
    std::signal(signal, &on_fault);
  std::atexit(&at_exit);
  switcher = std::thread(&switch_phases);
  return 1;
}
