// SPDX-License-Identifier: Apache-2.0
#include "inject/run_settings.hpp"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <regex>

#include <kerntime/error.hpp>

#include "io/path_in_message.hpp"

namespace kerntime::inject {
namespace {

std::uint64_t unsigned_value(const char* name, const char* text, std::uint64_t low,
                             std::uint64_t high) {
  const std::string value = text;
  const bool digits = !value.empty() && value.size() <= 20 &&
                      value.find_first_not_of("0123456789") == std::string::npos;
  errno = 0;
  const unsigned long long parsed = digits ? std::strtoull(value.c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE || parsed < low || parsed > high) {
    throw Error(std::string{name} + "=" + value + " is not a whole number from " +
                std::to_string(low) + " to " + std::to_string(high) +
                "; it is set by kerntime run, which should not happen: please report it");
  }
  return parsed;
}

}  // namespace

std::regex compile_kernel_filter(const std::string& pattern) {
#if defined(__GLIBCXX__)
  constexpr auto syntax = std::regex::ECMAScript | std::regex_constants::__polynomial;
#else
  constexpr auto syntax = std::regex::ECMAScript;
#endif
  // On its own first: a pattern with a stray parenthesis ("a)|(b") must not pass as part of
  // the wrapped one.
  std::regex check{pattern, syntax};
  return std::regex{"[\\s\\S]*(?:" + pattern + ")[\\s\\S]*", syntax};
}

void parse_capture_range(const std::string& text, RunSettings& settings) {
  const std::string nvtx = "nvtx:";
  if (text.empty() || text == "none") {
    settings.capture = CaptureRange::whole_run;
  } else if (text == "cudaProfilerApi") {
    settings.capture = CaptureRange::profiler_api;
  } else if (text.compare(0, nvtx.size(), nvtx) == 0 && text.size() > nvtx.size()) {
    settings.capture = CaptureRange::nvtx_range;
    settings.capture_nvtx_name = text.substr(nvtx.size());
  } else {
    throw Error("capture range '" + text +
                "' is not one of none, cudaProfilerApi or nvtx:NAME (NAME: an NVTX range name)");
  }
}

RunSettings read_run_settings(const std::function<const char*(const char*)>& lookup) {
  RunSettings settings;
  const char* directory = lookup(env::kOutputDirectory);
  if (directory == nullptr || *directory == '\0') {
    throw Error(std::string{env::kOutputDirectory} +
                " is not set: the kerntime injection library runs under `kerntime run`, which "
                "sets it; start the program with `kerntime run -- PROGRAM`");
  }
  settings.output_directory = directory;
  if (const char* id = lookup(env::kRunId)) {
    if (!is_run_id(id)) {
      throw Error(std::string{env::kRunId} + "=" + id +
                  " is not 16 lowercase hexadecimal digits; it is set by kerntime run, which "
                  "should not happen: please report it");
    }
    settings.run_id = id;
  }
  if (const char* capture = lookup(env::kCapture)) parse_capture_range(capture, settings);
  constexpr std::uint64_t kMax = std::numeric_limits<std::int64_t>::max();
  if (const char* v = lookup(env::kDelayNs))
    settings.delay_ns = unsigned_value(env::kDelayNs, v, 0, kMax);
  if (const char* v = lookup(env::kDurationNs)) {
    settings.duration_ns = unsigned_value(env::kDurationNs, v, 1, kMax);
  }
  if (const char* v = lookup(env::kKernelFilter)) {
    settings.kernel_filter = v;
    if (settings.kernel_filter.size() > kMaxKernelFilterCharacters) {
      throw Error(
          std::string{env::kKernelFilter} + " is " + std::to_string(settings.kernel_filter.size()) +
          " characters long; the limit is " + std::to_string(kMaxKernelFilterCharacters) +
          " characters; it is set by kerntime run, which should not happen: please report it");
    }
    try {
      compile_kernel_filter(settings.kernel_filter);
    } catch (const std::regex_error& error) {
      throw Error(std::string{env::kKernelFilter} + "=" +
                  io::path_in_message(settings.kernel_filter) +
                  " is not a regular expression kerntime can use (" + error.what() + ")");
    }
  }
  if (const char* v = lookup(env::kSamplesPerKernel)) {
    settings.samples_per_kernel = unsigned_value(env::kSamplesPerKernel, v, 1, 100'000'000);
  }
  if (const char* v = lookup(env::kTimelineRecords)) {
    settings.timeline_records = unsigned_value(env::kTimelineRecords, v, 0, 100'000'000);
  }
  if (const char* v = lookup(env::kCheckpointMs)) {
    settings.checkpoint_interval_ms = unsigned_value(env::kCheckpointMs, v, 0, 86'400'000);
  }
  if (const char* v = lookup(env::kLastLaunch)) {
    settings.last_launch = unsigned_value(env::kLastLaunch, v, 0, 1) == 1;
  }
  if (const char* v = lookup(env::kAllApiCalls)) {
    settings.all_api_calls = unsigned_value(env::kAllApiCalls, v, 0, 1) == 1;
  }
  if (const char* v = lookup(env::kLaunchCalls)) {
    settings.launch_calls = unsigned_value(env::kLaunchCalls, v, 0, 1) == 1;
  }
  return settings;
}

bool is_run_id(std::string_view text) {
  return text.size() == 16 && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace kerntime::inject
