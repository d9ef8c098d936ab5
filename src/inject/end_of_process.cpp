// SPDX-License-Identifier: Apache-2.0
#include "inject/end_of_process.hpp"

#include "inject/signal_worker.hpp"

namespace kerntime::inject {
namespace {

std::string signal_text(int signal) {
  return "signal " + std::to_string(signal) + " (" + signal_name(signal) + ")";
}

void add_crash_warnings(Report& report, const ProcessEnd& end) {
  report.warnings.push_back(
      "the process was ended by " + signal_text(end.signal) +
      ", an abort or a fault, before it finished: " +
      (end.kind == ReportKind::crash
           ? "this report was written from memory right after the signal, without calling "
             "CUDA or CUPTI, so records CUPTI still held may be missing"
           : "CUPTI was asked for its last records after the signal, but those of kernels "
             "still running then may be missing"));
  if (end.last_launch) {
    report.warnings.push_back("the last kernel it launched: " +
                              describe_last_launch(*end.last_launch, end.last_launch_thread));
  } else if (end.launch_sites_watched) {
    report.warnings.push_back("it had launched no kernel");
  } else {
    report.warnings.push_back(
        "the last kernel it launched is not known: CUPTI's launch callbacks were off "
        "(--no-last-launch, or a CUPTI that cannot call them)");
  }
}

}  // namespace

void add_end_warnings(Report& report, const ProcessEnd& end) {
  if (end.kind == ReportKind::final && end.records) {
    const std::string missing = missing_records_warning(*end.records, end.other_client);
    if (!missing.empty()) report.warnings.insert(report.warnings.begin(), missing);
    const bool copies =
        report.trace && (report.trace->counts.memcpys > 0 || report.trace->counts.memsets > 0);
    if (end.records->launches == 0 && end.records->kernel_records == 0 && !copies) {
      report.warnings.push_back(
          "no CUDA work was recorded: the process started CUDA but launched no kernel, copy or "
          "memset");
    }
  }
  if (end.fatal && end.kind != ReportKind::checkpoint) {
    add_crash_warnings(report, end);
  } else if (end.kind == ReportKind::checkpoint) {
    report.warnings.push_back(
        "the process did not finish normally (SIGKILL, or an end kerntime could not see: _exit or "
        "exec without libkerntime_preload.so): this is its last "
        "checkpoint, without records for the timeline, and kernels after it are missing");
  } else if (end.signal != 0) {
    report.warnings.push_back("the process was stopped by " + signal_text(end.signal) +
                              "; what it recorded up to then is here");
  }
  if (end.refused_subscribers > 0) {
    const std::string client = end.refused_client.empty() ? "a CUPTI client" : end.refused_client;
    report.warnings.push_back(
        client + " in this process asked CUPTI for its subscriber slot and was refused" +
        (end.refused_subscribers > 1 ? " (" + std::to_string(end.refused_subscribers) + " calls)"
                                     : std::string{}) +
        ": `kerntime run` holds that one slot from the start of CUDA, so that client recorded "
        "no GPU activity, while this report has every kernel; to profile with it instead, run "
        "the program without `kerntime run`");
  }
  if (end.final_overdue_ms > 0 && end.kind == ReportKind::crash) {
    report.warnings.push_back(
        "the report after the signal was not done " + std::to_string(end.final_overdue_ms / 1000) +
        " s later (a CUDA or CUPTI call did not return: a kernel that never ends, or a lock "
        "inside CUPTI): this report was written from memory, without the records CUPTI still "
        "held");
  }
}

}  // namespace kerntime::inject
