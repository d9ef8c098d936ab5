// SPDX-License-Identifier: Apache-2.0
// What kerntime's Google Benchmark JSON writer and reader agree on beyond Google Benchmark's own
// schema: the custom context key that marks a file kerntime wrote, and the run label that keeps
// an entry's timer, device and run ("timer=cuda-event device=0 run=2").
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace kerntime::report::gbench {

/// Present (with the kerntime-report schema as its value) in the context of files kerntime wrote.
inline constexpr const char* kMarkerKey = "kerntime_report";

/// In files kerntime wrote: the names of the runs' figures that are entries' sample columns
/// (comma-separated). Others (cpu_time equal to real_time, 1 iteration, rates of declared work)
/// are what the writer filled in, and the reader does not keep them as columns.
inline constexpr const char* kColumnsKey = "kerntime_sample_columns";

/// The kerntime fields of a run's label.
struct Label {
  std::string timer;
  std::optional<int> device;
  std::size_t run = 0;  ///< 1-based; 0: the entry has one run
};

/// Parses what the writer puts into a label: trailing "run=K" and "device=N" tokens, then
/// "timer=..." (read from the end, so a timer may hold spaces).
inline Label parse_label(std::string_view text) {
  Label label;
  const auto take = [&text](std::string_view key, auto& into) {
    const std::size_t space = text.rfind(' ');
    const std::size_t start = space == std::string_view::npos ? 0 : space + 1;
    const std::string_view token = text.substr(start);
    if (token.size() <= key.size() + 1 || token.substr(0, key.size()) != key ||
        token[key.size()] != '=') {
      return;
    }
    const std::string_view digits = token.substr(key.size() + 1);
    typename std::decay_t<decltype(into)>::value_type value{};
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size()) return;
    into = value;
    text = space == std::string_view::npos ? std::string_view{} : text.substr(0, space);
  };
  std::optional<std::size_t> run;
  take("run", run);
  take("device", label.device);
  label.run = run.value_or(0);
  constexpr std::string_view kTimer = "timer=";
  if (text.substr(0, kTimer.size()) == kTimer)
    label.timer = std::string{text.substr(kTimer.size())};
  return label;
}

}  // namespace kerntime::report::gbench
