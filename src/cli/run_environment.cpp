// SPDX-License-Identifier: Apache-2.0
#include "cli/run_environment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>

#include <kerntime/error.hpp>

namespace kerntime::cli {

std::uint64_t parse_run_duration(const std::string& option, const std::string& text) {
  static const std::regex pattern{R"(\s*([0-9]+(\.[0-9]*)?|\.[0-9]+)\s*(ns|us|ms|s|min)?\s*)"};
  std::smatch match;
  if (!std::regex_match(text, match, pattern)) {
    throw Error(option + " '" + text +
                "' is not a duration: write a number with a unit, such as "
                "500ms, 2s or 1.5min");
  }
  const std::map<std::string, double> units{{"ns", 1.0}, {"us", 1e3},   {"ms", 1e6},
                                            {"s", 1e9},  {"min", 60e9}, {"", 1e9}};
  const double ns = std::stod(match[1].str()) * units.at(match[3].str());
  if (!(ns < 9.2e18)) throw Error(option + " '" + text + "' is longer than kerntime can count");
  return static_cast<std::uint64_t>(std::llround(ns));
}

void check_run_options(const RunOptions& o) {
  if (!o.capture_range.empty() && o.capture_range != "none" &&
      o.capture_range != "cudaProfilerApi" &&
      !(o.capture_range.rfind("nvtx:", 0) == 0 && o.capture_range.size() > 5)) {
    throw Error("--capture-range '" + o.capture_range +
                "' is not one of none, cudaProfilerApi or nvtx:NAME");
  }
  if (!o.delay.empty()) parse_run_duration("--delay", o.delay);
  if (!o.duration.empty() && parse_run_duration("--duration", o.duration) == 0) {
    throw Error("--duration must be longer than 0");
  }
  parse_run_duration("--checkpoint", o.checkpoint);
  if (!o.kernel_filter.empty()) {
    try {
      std::regex check{o.kernel_filter};
    } catch (const std::regex_error& error) {
      throw Error("--kernel-filter '" + o.kernel_filter + "' is not a regular expression (" +
                  error.what() + ")");
    }
  }
  if (o.samples_per_kernel < 1 || o.samples_per_kernel > 100'000'000) {
    throw Error("--samples-per-kernel must be from 1 to 100000000");
  }
  if (o.timeline_records > 100'000'000) throw Error("--timeline-records must be at most 100000000");
}

std::vector<std::string> run_environment(char** current, const std::string& library,
                                         const std::string& directory, const RunOptions& o,
                                         const std::string& preload) {
  std::map<std::string, std::string> set;
  set["CUDA_INJECTION64_PATH"] = library;
  set["NVTX_INJECTION64_PATH"] = library;
  set["KERNTIME_RUN_DIR"] = directory;
  set["KERNTIME_RUN_CAPTURE"] = o.capture_range;
  set["KERNTIME_RUN_KERNEL_FILTER"] = o.kernel_filter;
  set["KERNTIME_RUN_DELAY_NS"] =
      o.delay.empty() ? "0" : std::to_string(parse_run_duration("--delay", o.delay));
  set["KERNTIME_RUN_SAMPLES_PER_KERNEL"] = std::to_string(o.samples_per_kernel);
  set["KERNTIME_RUN_TIMELINE_RECORDS"] = std::to_string(o.timeline_records);
  set["KERNTIME_RUN_CHECKPOINT_MS"] =
      std::to_string(parse_run_duration("--checkpoint", o.checkpoint) / 1'000'000);
  set["KERNTIME_RUN_LAST_LAUNCH"] = o.no_last_launch ? "0" : "1";
  set["KERNTIME_RUN_ALL_API_CALLS"] = o.all_api_calls ? "1" : "0";
  const bool bounded = !o.duration.empty();
  std::string preloads = preload;
  std::vector<std::string> env;
  for (char** entry = current; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const std::string name = text.substr(0, text.find('='));
    const std::string value =
        text.find('=') == std::string::npos ? "" : text.substr(text.find('=') + 1);
    if (name == "CUDA_INJECTION64_PATH" && !value.empty() && value != "none" && value != library) {
      throw Error("CUDA_INJECTION64_PATH already names another CUDA tool (" + value +
                  "); CUPTI serves one tool per process, so unset it to use kerntime run");
    }
    if (name == "LD_PRELOAD" && !preload.empty()) {
      // The program's own preloads stay, after kerntime's (ld.so takes ':' or ' ' between).
      std::size_t begin = 0;
      while (begin <= value.size()) {
        const std::size_t end = std::min(value.find_first_of(": ", begin), value.size());
        const std::string item = value.substr(begin, end - begin);
        if (!item.empty() && item != preload) preloads += ":" + item;
        begin = end + 1;
      }
      continue;
    }
    if (set.count(name) != 0 || name == "KERNTIME_RUN_DURATION_NS") continue;
    env.push_back(text);
  }
  for (const auto& [name, value] : set) {
    if (name == "KERNTIME_RUN_CAPTURE" && value.empty()) continue;
    if (name == "KERNTIME_RUN_KERNEL_FILTER" && value.empty()) continue;
    env.push_back(name + "=" + value);
  }
  if (!preloads.empty()) env.push_back("LD_PRELOAD=" + preloads);
  if (bounded) {
    env.push_back("KERNTIME_RUN_DURATION_NS=" +
                  std::to_string(parse_run_duration("--duration", o.duration)));
  }
  return env;
}

}  // namespace kerntime::cli
