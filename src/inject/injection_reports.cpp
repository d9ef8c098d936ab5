// SPDX-License-Identifier: Apache-2.0
// The injected library's reports: a checkpoint every few seconds (the summary only), the final
// report at whichever end comes first, and the crash report a fatal signal leaves.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include <cupti_result.h>

#include <kerntime/report_json.hpp>
#include <kerntime/version.hpp>

#include "cupti/other_client.hpp"
#include "inject/end_hook_abi.hpp"
#include "inject/end_hooks.hpp"
#include "inject/injection_state.hpp"
#include "inject/missing_records.hpp"
#include "inject/shard_name.hpp"
#include "inject/signal_worker.hpp"

namespace kerntime::inject {
namespace {

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

static_assert(kCuptiErrorNotInitialized == CUPTI_ERROR_NOT_INITIALIZED &&
                  kCuptiErrorMultipleSubscribers == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
              "the preload's CUPTI result codes");

// What libkerntime_preload.so saw of the program's own cuptiSubscribe calls (end_hook_abi.hpp);
// nothing without the preload.
void note_refused_subscribers(const Injection& in, ProcessEnd& end) {
  if (in.refused_subscribers == nullptr) return;
  const char* caller = nullptr;
  end.refused_subscribers = in.refused_subscribers(&caller);
  if (end.refused_subscribers > 0) {
    end.refused_client = cupti::describe_cupti_caller(caller != nullptr ? caller : "");
  }
}

}  // namespace

void write_report(Injection& in, ReportKind kind, int sent_signal) {
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
    note_refused_subscribers(in, end);
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

// Never in a child made by fork() alone: it inherited this state but not the parent's CUDA work.
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

void snapshot(int signal) {
  Injection* in = g_injection;
  if (in == nullptr || getpid() != in->pid || final_report_begun()) return;
  if (in->session) {
    const std::string failure = in->session->flush();
    if (!failure.empty()) in->problem = "the last records could not all be read: " + failure;
  }
  write_report(*in, ReportKind::final, signal);
}

}  // namespace kerntime::inject
