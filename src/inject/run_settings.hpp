// SPDX-License-Identifier: Apache-2.0
// What `kerntime run` asks of its injection library. The command passes it through the
// environment (the only channel into a program it does not control, and inherited by the
// program's own children), so parsing it is strict: a bad value is a bug in the command, and the
// library says so instead of guessing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

namespace kerntime::inject {

/// Which part of the program's life is recorded (Nsight Systems' --capture-range).
enum class CaptureRange {
  whole_run,     ///< everything
  profiler_api,  ///< between cudaProfilerStart and cudaProfilerStop (any number of times)
  nvtx_range,    ///< inside every NVTX range of one name
};

struct RunSettings {
  std::string output_directory;  ///< where each process writes its report (one file per process)
  /// The `kerntime run` this process belongs to (16 lowercase hex digits), in its report's file
  /// name and label, so that the command merges only its own reports; empty when not set.
  std::string run_id;
  CaptureRange capture = CaptureRange::whole_run;
  std::string capture_nvtx_name;  ///< for CaptureRange::nvtx_range
  std::uint64_t delay_ns = 0;     ///< nothing recorded before this long after CUDA starts
  std::optional<std::uint64_t> duration_ns;  ///< nothing recorded after delay + duration
  std::string kernel_filter;                 ///< ECMAScript regex on demangled names; empty: all
  /// Durations kept per kernel name for the report's samples; beyond it a uniform sample.
  std::size_t samples_per_kernel = 10'000;
  /// Kernel, copy, memset and API records kept for the timeline; the rest are counted.
  std::size_t timeline_records = 20'000;
  /// How often a process rewrites its report while it runs, so that a process killed without
  /// warning (SIGKILL, abort, os._exit) leaves what it recorded up to then. 0: only at exit.
  std::uint64_t checkpoint_interval_ms = 2'000;
  /// Keep the last kernel each thread launched (a CUPTI callback on every launch), so that a
  /// process that aborts or faults names it. Off (--no-last-launch) saves that callback.
  bool last_launch = true;
  /// Record every CUDA runtime and driver API call for the whole run, with CUPTI's external
  /// correlation tags (--all-api-calls). Off by default: only the calls that enqueue work
  /// (launches, copies, memsets) get records, and only for the first launches, which is all the
  /// timeline draws: a program that makes many other calls (PyTorch asks the current device
  /// many times per operator) does not pay CUPTI for each of them, and kernels find their NVTX
  /// ranges through the launch callback (LaunchRanges).
  bool all_api_calls = false;
  /// Keep the API records of the calls that enqueue work for the program's first launches
  /// (--timeline): the timeline's launch arrows and threads are drawn from them. Off, no API
  /// activity kind is ever enabled (unless NVTX ranges need CUPTI's tags: wants_api_records):
  /// on an H200, 100 ms of every API record left a PyTorch step's later launches 10 to 25 %
  /// slower after they were switched off (docs/run.md, "The cost target"; how much of that the
  /// launch calls alone leave is not measured), so a run that draws no timeline does not ask.
  bool launch_calls = false;
};

/// The environment variables the command sets and the library reads.
namespace env {
inline constexpr const char* kOutputDirectory = "KERNTIME_RUN_DIR";
inline constexpr const char* kRunId = "KERNTIME_RUN_ID";         // 16 lowercase hex digits
inline constexpr const char* kCapture = "KERNTIME_RUN_CAPTURE";  // "", cudaProfilerApi, nvtx:NAME
inline constexpr const char* kDelayNs = "KERNTIME_RUN_DELAY_NS";
inline constexpr const char* kDurationNs = "KERNTIME_RUN_DURATION_NS";
inline constexpr const char* kKernelFilter = "KERNTIME_RUN_KERNEL_FILTER";
inline constexpr const char* kSamplesPerKernel = "KERNTIME_RUN_SAMPLES_PER_KERNEL";
inline constexpr const char* kTimelineRecords = "KERNTIME_RUN_TIMELINE_RECORDS";
inline constexpr const char* kCheckpointMs = "KERNTIME_RUN_CHECKPOINT_MS";
inline constexpr const char* kLastLaunch = "KERNTIME_RUN_LAST_LAUNCH";     // "1" (default) or "0"
inline constexpr const char* kAllApiCalls = "KERNTIME_RUN_ALL_API_CALLS";  // "0" (default) or "1"
inline constexpr const char* kLaunchCalls = "KERNTIME_RUN_LAUNCH_CALLS";   // "0" (default) or "1"
}  // namespace env

/// The longest kernel filter accepted. std::regex compiles a pattern by recursion, about once
/// per character: 100,000 characters overflow an 8 MiB stack, 1,000 need less than 256 KiB.
/// `kerntime run --kernel-filter` (src/cli/run_environment.cpp) holds the same limit.
inline constexpr std::size_t kMaxKernelFilterCharacters = 1000;

/// The kernel filter `pattern` (ECMAScript) as the recorder matches it, with std::regex_match:
/// checked on its own, then compiled as `[\s\S]*(?:pattern)[\s\S]*`, which matches a whole name
/// exactly when `pattern` matches somewhere in it (as std::regex_search would: `^` and `$` still
/// mean the name's ends). Breadth-first where the standard library offers it (libstdc++'s
/// __polynomial): the default matcher recursed once per character of the name (a PyTorch name
/// of 4,000 characters needed more than 1 MiB of stack), while this one takes stack in
/// proportion to the pattern; and one pass over the name, where regex_search would start a pass
/// at every character. Back-references are refused. Throws std::regex_error.
std::regex compile_kernel_filter(const std::string& pattern);

/// Reads the settings through `lookup` (std::getenv in the library, a map in tests). Throws
/// kerntime::Error naming the variable and the value when one is malformed, or when
/// KERNTIME_RUN_DIR is missing.
RunSettings read_run_settings(const std::function<const char*(const char*)>& lookup);

/// Whether `text` is a run id as `kerntime run` makes them: 16 lowercase hexadecimal digits.
bool is_run_id(std::string_view text);

/// The text of a capture range as `kerntime run --capture-range` takes it and the environment
/// carries it: "none", "cudaProfilerApi" or "nvtx:NAME". Throws kerntime::Error otherwise.
void parse_capture_range(const std::string& text, RunSettings& settings);

}  // namespace kerntime::inject
