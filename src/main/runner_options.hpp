// SPDX-License-Identifier: Apache-2.0
// The benchmark runner's command line, parsed into plain options (tested without a GPU).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <kerntime/format.hpp>
#include <kerntime/measure.hpp>

#include "bench/axes.hpp"

namespace kerntime::bench {

/// The default of --processes: five runs per entry are what the per-process comparison needs
/// for its false-alarm rate (docs/ci.md, "Several processes per side").
inline constexpr std::size_t kDefaultProcesses = 5;

struct RunnerOptions {
  bool list = false;
  std::string filter;
  std::vector<AxisOverride> axes;
  Format format = Format::table;
  std::vector<std::string> outputs;
  MeasureMode mode = MeasureMode::cold;
  StoppingCriteria stopping;
  std::size_t warmup_samples = 2;
  std::vector<int> devices;  ///< empty: the current device
  bool all_devices = false;
  bool l2_flush = true;
  bool cupti = true;
  bool quiet = false;
  /// Child processes that each measure every configuration (--processes); 1: this process
  /// measures, as before. See docs/benchmarks.md for the default.
  std::size_t processes = kDefaultProcesses;
  std::optional<std::size_t> worker;  ///< set in a child: its 0-based process number
  std::string worker_output;          ///< a child's results file
};

/// The outcome of parsing: options to run with, or an exit status with what to print (help,
/// or the one-line reason for bad arguments).
struct ParsedArguments {
  RunnerOptions options;
  std::optional<int> exit_status;
  std::string out;
  std::string err;
};

/// Parses the runner's arguments (argv[0] names the program in messages). Never throws.
ParsedArguments parse_runner_arguments(int argc, const char* const* argv);

/// The program's file name without its directory, for messages.
std::string program_name(int argc, const char* const* argv);

/// The format a --output file gets from its extension: .json, .md, .csv; anything else: table.
Format format_for_path(const std::string& path);

}  // namespace kerntime::bench
