// SPDX-License-Identifier: Apache-2.0
#include "cli/run_environment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <regex>

#include <kerntime/error.hpp>

#include "io/path_in_message.hpp"

namespace kerntime::cli {

namespace {

// Longer than any duration a person writes ("9223372036.854775807s" is 22 characters): a longer
// value is a mistake, and is not repeated in the message.
constexpr std::size_t kMaxDurationCharacters = 64;

// std::regex's ECMAScript grammar, matched breadth-first where the library offers it
// (libstdc++'s __polynomial): its default matcher recurses once per character of the name, and
// a PyTorch kernel's demangled name of 4,000 characters needs more than 1 MiB of stack. The
// price: no back-references. src/inject/run_settings.cpp compiles the filter alike.
std::regex::flag_type kernel_filter_syntax() {
#if defined(__GLIBCXX__)
  return std::regex::ECMAScript | std::regex_constants::__polynomial;
#else
  return std::regex::ECMAScript;
#endif
}

// The kernel filter is compiled here and in every process of the program, by std::regex, which
// recurses about once per character of the pattern: 100,000 characters overflow an 8 MiB
// stack, and 1,000 need less than 256 KiB. src/inject/run_settings.cpp holds the same limit.
constexpr std::size_t kMaxKernelFilterCharacters = 1000;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// A value as messages show it: in quotes, or escaped as JSON when it holds a line break or
// another control character, so that the message stays one line.
std::string quoted(const std::string& text) {
  const std::string shown = io::path_in_message(text);
  return shown == text ? "'" + text + "'" : shown;
}

}  // namespace

// By hand rather than by std::regex, whose matcher recursed once per character and overflowed
// the stack on a value of about 26,000 characters. The grammar is what the regex took:
// spaces, a decimal number (2, 2., 1.5, .5), spaces, an optional unit, spaces.
std::uint64_t parse_run_duration(const std::string& option, const std::string& text) {
  const char* const example = "write a number with a unit, such as 500ms, 2s or 1.5min";
  if (text.size() > kMaxDurationCharacters) {
    throw Error(option + " is " + std::to_string(text.size()) +
                " characters long, not a duration: " + example);
  }
  const auto not_a_duration = [&] {
    return Error(option + " " + quoted(text) + " is not a duration: " + example);
  };
  std::size_t at = 0;
  const auto skip_spaces = [&] {
    while (at < text.size() && is_space(text[at]))
      ++at;
  };
  skip_spaces();
  double value = 0;
  std::size_t digits = 0;
  for (; at < text.size() && is_digit(text[at]); ++at, ++digits)
    value = value * 10 + (text[at] - '0');
  if (at < text.size() && text[at] == '.') {
    double scale = 1;
    for (++at; at < text.size() && is_digit(text[at]); ++at, ++digits) {
      scale /= 10;
      value += (text[at] - '0') * scale;
    }
  }
  if (digits == 0) throw not_a_duration();
  skip_spaces();
  std::size_t unit_end = at;
  while (unit_end < text.size() && !is_space(text[unit_end]))
    ++unit_end;
  const std::string unit = text.substr(at, unit_end - at);
  at = unit_end;
  skip_spaces();
  const std::map<std::string, double> units{{"ns", 1.0}, {"us", 1e3},   {"ms", 1e6},
                                            {"s", 1e9},  {"min", 60e9}, {"", 1e9}};
  const auto scale = units.find(unit);
  if (scale == units.end() || at != text.size()) throw not_a_duration();
  const double ns = value * scale->second;
  if (!(ns < 9.2e18)) {
    throw Error(option + " " + quoted(text) + " is longer than kerntime can count");
  }
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
  const std::uint64_t checkpoint_ns = parse_run_duration("--checkpoint", o.checkpoint);
  // The library takes whole milliseconds up to a day (src/inject/run_settings.cpp): a shorter
  // interval than 1ms would silently be 0 (only at exit), a longer one refused in the program.
  if (checkpoint_ns != 0 && (checkpoint_ns < 1'000'000 || checkpoint_ns > 86'400'000'000'000)) {
    throw Error("--checkpoint must be 0 (only at exit) or from 1ms to 1440min (a day)");
  }
  if (o.kernel_filter.size() > kMaxKernelFilterCharacters) {
    throw Error("--kernel-filter is " + std::to_string(o.kernel_filter.size()) +
                " characters long; the limit is " + std::to_string(kMaxKernelFilterCharacters) +
                " characters");
  }
  if (!o.kernel_filter.empty()) {
    try {
      std::regex check{o.kernel_filter, kernel_filter_syntax()};
    } catch (const std::regex_error& error) {
      // The breadth-first matcher's one refusal, in words a user knows.
      const bool back_reference = error.code() == std::regex_constants::error_complexity;
      throw Error(
          "--kernel-filter " + quoted(o.kernel_filter) +
          " is not a regular expression kerntime can use (" +
          (back_reference ? "back-references such as \\1 are not supported" : error.what()) + ")");
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
  // Only a timeline draws the launch calls' records; asking CUPTI for them costs every later
  // launch (RunSettings::launch_calls).
  set["KERNTIME_RUN_LAUNCH_CALLS"] = o.timeline.empty() ? "0" : "1";
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
