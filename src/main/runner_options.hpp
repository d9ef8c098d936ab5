// SPDX-License-Identifier: Apache-2.0
// The benchmark runner's command line, parsed into plain options (tested without a GPU).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kerntime/format.hpp>
#include <kerntime/measure.hpp>

#include "bench/axes.hpp"

namespace kerntime::main {

/// The default of --processes: five runs per entry are what the per-process comparison needs
/// for its false-alarm rate (docs/ci.md, "Several processes per side").
inline constexpr std::size_t kDefaultProcesses = 5;

struct RunnerOptions {
  bool list = false;
  /// --filter, --axis and --benchmark; the runner adds the name suffixes once it knows the
  /// devices.
  bench::Selection selection;
  /// --format when given: the format of every --output, else of standard output.
  std::optional<Format> format;
  std::vector<std::string> outputs;  ///< --output FILE (repeatable); "-" is standard output
  /// Files whose format their option names: NVBench's --json, --csv and --md FILE, Google
  /// Benchmark's --benchmark_out FILE (in --benchmark_out_format, default json).
  std::vector<std::pair<std::string, Format>> typed_outputs;
  MeasureMode mode = MeasureMode::cold;
  StoppingCriteria stopping;
  std::size_t warmup_samples = 2;
  std::vector<int> devices;  ///< empty: the current device
  bool all_devices = false;
  bool l2_flush = true;
  bool cupti = true;
  bool quiet = false;
  double throttle_threshold = 0.75;  ///< share of the peak SM clock; 0: no throttle check
  double throttle_recovery_s = 0.05;
  bool blocking_kernel = true;  ///< --disable-blocking-kernel, --profile: false
  bool run_once = false;        ///< --run-once, --profile
  /// Child processes that each measure every configuration (--processes); 1: this process
  /// measures, as before. See docs/benchmarks.md for the default.
  std::size_t processes = kDefaultProcesses;
  /// Measurements of each configuration per process (--repetitions); together one run.
  std::size_t repetitions = 1;
  bool random_interleaving = false;   ///< --random-interleaving: a shuffled order
  std::optional<std::uint64_t> seed;  ///< --seed, or the parent's seed in a child
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

/// Where the results go and in which format: `path` "-" is standard output.
struct Output {
  std::string path;
  Format format = Format::table;
};

/// The outputs of a run, by the rule every kerntime command follows: --format, when given, is
/// the format of each --output FILE, otherwise the file's extension names it; without --output
/// the results go to standard output in --format (default table); with --output FILE, standard
/// output still shows the table for the log (unless --quiet, or one output is '-').
std::vector<Output> outputs_of(const RunnerOptions& options);

}  // namespace kerntime::main
