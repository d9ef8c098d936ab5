// SPDX-License-Identifier: Apache-2.0
// `kerntime run`'s options and the environment it gives the program: the injection variables
// and the KERNTIME_RUN_* settings the injection library reads (src/inject/run_settings.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kerntime::cli {

struct RunOptions {
  std::vector<std::string> command;
  std::string output;
  std::string timeline;
  std::string html;  ///< --html: the run's report page
  std::string format = "table";
  std::string capture_range;
  std::string delay;
  std::string duration;
  std::string kernel_filter;
  std::uint64_t samples_per_kernel = 10'000;
  std::uint64_t timeline_records = 20'000;
  std::string checkpoint = "2s";
  std::string process_reports;
  bool no_last_launch = false;
  bool all_api_calls = false;
};

/// "2s", "500ms", "1.5min", "0": nanoseconds. Throws kerntime::Error naming `option`.
std::uint64_t parse_run_duration(const std::string& option, const std::string& text);

/// Throws kerntime::Error (exit status 2) for an option the library would refuse.
void check_run_options(const RunOptions& options);

/// The program's environment: `current` (NAME=VALUE strings, as `environ`) with the injection
/// variables and the settings set, and `preload` (libkerntime_preload.so; "": none) first in
/// LD_PRELOAD, so that processes leaving through _exit or exec still write their report. Throws
/// kerntime::Error when another CUDA tool is already injected (CUDA_INJECTION64_PATH names
/// another library): CUPTI serves one of them.
std::vector<std::string> run_environment(char** current, const std::string& library,
                                         const std::string& directory, const RunOptions& options,
                                         const std::string& preload = "");

}  // namespace kerntime::cli
