// SPDX-License-Identifier: Apache-2.0
#include "main/runner_options.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>

#include <CLI/CLI.hpp>
#include <cuda_runtime_api.h>
#include <fmt/core.h>

#include <kerntime/error.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/tracer.hpp>
#include <kerntime/version.hpp>

#include "main/processes.hpp"

namespace kerntime::main {
namespace {

constexpr const char* kFooter =
    R"(Every benchmark runs over every combination of its axis values; each combination
is one configuration, named like saxpy/n=16777216/cold. With default settings a
configuration stops as soon as the 95% confidence interval of its median headline
time is within +-0.5% (or its noise is under --max-noise), else at --timeout.
The headline is the CUPTI GPU time of the launched work when CUPTI is available,
else the cold event time minus the device's calibrated launch floor.

--filter REGEX is searched in each configuration's name (saxpy/n=1048576) and in
its name in the results (saxpy/n=1048576/cold), so a name copied from a report
matches. --benchmark (-b) NAME|INDEX picks benchmarks as --list numbers them; an
--axis after a --benchmark applies to that benchmark only.

Axis values: integers 4096, 2^12, ranges 1:8[:step]; powers of two 2^10:2^20;
floats 0.5, ranges 0.5:1:0.1; strings as written; types as --list names them.
Several values are separated by commas. NVBench's spellings work too: n=[1,2],
n=[2:10:2], and n[pow2]=[20:24] (exponents: 2^20 ... 2^24).

--format is the format of each --output FILE (default: the file's extension
names it: .json, .md, .csv, else table), or of standard output when there is no
--output; with --output, standard output shows the table (-o - writes the chosen
format there instead). JSON is the kerntime-report/1 format that 'kerntime
compare' reads.

--profile (or --run-once and --disable-blocking-kernel) is for running under
Nsight Compute or Nsight Systems: one sample per configuration, no warm-up, no
calibration, no kernel of kerntime's own, no CUPTI, one process.

--repetitions N measures each configuration N times per process (together one
run in the report); --random-interleaving shuffles the order of all those
measurements, from --seed (printed when not given), so that drift in time
spreads over every configuration. With --processes, each process shuffles with a
seed of its own derived from it.

--processes N (default 5) measures every configuration in N processes of this
program, one after another, each in its own rotated order of the configurations,
and keeps each process's samples as a run: the between-process spread that
'kerntime compare' needs. --timeout is the limit over all processes (each gets
its share). --processes 1 measures in this process.

Exit status: 0 success; 1 a benchmark or a process failed; 2 bad arguments or no
usable GPU.)";

}  // namespace

std::string program_name(int argc, const char* const* argv) {
  if (argc < 1 || argv[0] == nullptr) return "benchmarks";
  std::string name = argv[0];
  const std::size_t slash = name.find_last_of('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

namespace {

// --device values: "0", "0,1", "all"; each a device number from 0. CLI11's own number check
// would print the largest double as the upper bound.
void add_devices(const std::string& text, RunnerOptions& o) {
  std::size_t begin = 0;
  for (;;) {
    const std::size_t comma = text.find(',', begin);
    const std::string item = text.substr(begin, comma == std::string::npos ? comma : comma - begin);
    if (item == "all") {
      o.all_devices = true;
    } else {
      const bool digits = !item.empty() && item.size() <= 6 &&
                          item.find_first_not_of("0123456789") == std::string::npos;
      if (!digits) {
        throw Error("--device '" + text + "': '" + item +
                    "' is not a device number (give 0, 1, ..., several separated by commas, or "
                    "all)");
      }
      o.devices.push_back(std::stoi(item));
    }
    if (comma == std::string::npos) return;
    begin = comma + 1;
  }
}

// Each --axis belongs to the --benchmark before it (NVBench's rule), or to every benchmark
// when it comes first: the parse order says which.
void assign_axes(const CLI::App& app, const CLI::Option* benchmark_option,
                 const CLI::Option* axis_option, const std::vector<std::string>& benchmarks,
                 const std::vector<std::string>& axes, bench::Selection& selection) {
  std::size_t b = 0;
  std::size_t a = 0;
  for (const CLI::Option* option : app.parse_order()) {
    if (option == benchmark_option && b < benchmarks.size()) {
      selection.benchmarks.push_back({benchmarks[b++], {}});
    } else if (option == axis_option && a < axes.size()) {
      bench::AxisOverride o = bench::parse_axis_option(axes[a++]);
      if (selection.benchmarks.empty()) {
        selection.axes.push_back(std::move(o));
      } else {
        selection.benchmarks.back().axes.push_back(std::move(o));
      }
    }
  }
}

}  // namespace

std::vector<Output> outputs_of(const RunnerOptions& o) {
  std::vector<Output> outputs;
  bool to_stdout = false;
  for (const std::string& path : o.outputs) {
    const bool is_stdout = path == "-";
    to_stdout = to_stdout || is_stdout;
    outputs.push_back({path, o.format    ? *o.format
                             : is_stdout ? Format::table
                                         : format_for_path(path)});
  }
  for (const auto& [path, format] : o.typed_outputs) {
    to_stdout = to_stdout || path == "-";
    outputs.push_back({path, format});
  }
  if (o.outputs.empty() && o.typed_outputs.empty()) {
    if (!o.quiet) outputs.push_back({"-", o.format ? *o.format : Format::table});
  } else if (!to_stdout && !o.quiet) {
    outputs.insert(outputs.begin(), Output{"-", Format::table});
  }
  return outputs;
}

ParsedArguments parse_runner_arguments(int argc, const char* const* argv) {
  ParsedArguments result;
  RunnerOptions& o = result.options;
  const std::string program = program_name(argc, argv);
  CLI::App app{"Runs the registered kerntime benchmarks and reports their GPU time.", program};
  app.footer(kFooter);
  app.set_version_flag("--version", std::string{kVersion});
  std::string format;
  std::string mode = "cold";
  std::vector<std::string> axes;
  std::vector<std::string> benchmarks;
  std::vector<std::string> devices;
  double max_noise_percent = 100.0 * o.stopping.max_noise;
  double throttle_percent = 100.0 * o.throttle_threshold;
  std::size_t samples = 0;
  std::uint64_t seed = 0;
  app.add_flag("--list,-l,--benchmark_list_tests", o.list,
               "List the benchmarks, their axes and configurations, and exit");
  app.add_option("--filter,--benchmark_filter", o.selection.filter,
                 "Run configurations whose name matches REGEX")
      ->type_name("REGEX");
  CLI::Option* benchmark_option =
      app.add_option("--benchmark,-b", benchmarks,
                     "Run this benchmark (its name or index in --list; repeatable)")
          ->type_name("NAME|INDEX");
  CLI::Option* axis_option =
      app.add_option("--axis,-a", axes,
                     "Replace an axis's values, e.g. n=2^20,2^24, n=[1,2] or n[pow2]=[20:24] "
                     "(repeatable; after --benchmark: for that one)")
          ->type_name("NAME=VALUES");
  app.add_option("--format,--benchmark_format", format,
                 "Format of the --output files, or of standard output without --output: table "
                 "(or console), md, csv or json")
      ->check(CLI::IsMember({"table", "console", "md", "markdown", "csv", "json"}));
  app.add_option("--output,-o", o.outputs,
                 "Write the results to FILE (- for standard output; repeatable)")
      ->type_name("FILE");
  // The output flags of NVBench and Google Benchmark, for their users' scripts.
  std::vector<std::string> json_files;
  std::vector<std::string> csv_files;
  std::vector<std::string> md_files;
  std::vector<std::string> gbench_files;
  std::string gbench_out_format = "json";
  std::string gbench_min_time;
  app.add_option("--json", json_files, "Write JSON to FILE, as NVBench's --json (repeatable)")
      ->type_name("FILE");
  app.add_option("--csv", csv_files, "Write CSV to FILE, as NVBench's --csv (repeatable)")
      ->type_name("FILE");
  app.add_option("--md,--markdown", md_files,
                 "Write Markdown to FILE, as NVBench's --md (repeatable)")
      ->type_name("FILE");
  app.add_option("--benchmark_out", gbench_files,
                 "Write to FILE in --benchmark_out_format, as Google Benchmark does")
      ->type_name("FILE");
  app.add_option("--benchmark_out_format", gbench_out_format,
                 "json (default), console or csv: the format of --benchmark_out")
      ->check(CLI::IsMember({"json", "console", "csv"}));
  app.add_option("--benchmark_min_time", gbench_min_time,
                 "Google Benchmark's: '0.5s' is --min-time 0.5, '100x' is --samples 100")
      ->type_name("Ns|Nx");
  app.add_option("--mode", mode, "cold (default), hot or graph")
      ->check(CLI::IsMember({"cold", "hot", "graph"}));
  app.add_option("--min-samples", o.stopping.min_samples, "Never stop before N samples")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
  app.add_option("--max-noise", max_noise_percent,
                 "Stop when the relative noise is under PCT percent; 0: off (default 0.5)")
      ->check(CLI::Range(0.0, 100.0))
      ->type_name("PCT");
  app.add_option("--min-time", o.stopping.min_time_s,
                 "Never stop before the samples add up to S seconds of GPU time (default 0)")
      ->check(CLI::Range(0.0, 3600.0))
      ->type_name("S");
  app.add_option("--timeout", o.stopping.timeout_s,
                 "Stop a configuration after S seconds anyway (default 5)")
      ->check(CLI::Range(0.001, 86400.0))
      ->type_name("S");
  app.add_option("--samples", samples, "Take exactly N samples per configuration")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
  app.add_option("--warmup", o.warmup_samples, "Warm-up samples per configuration (default 2)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{100'000}));
  app.add_option("--device,--devices,-d", devices,
                 "Run on these CUDA devices: N, N,M or all (repeatable; default current)")
      ->type_name("N[,M...]|all");
  app.add_flag("--all-devices", o.all_devices, "Run on every visible CUDA device");
  app.add_flag("--no-l2-flush", "Do not flush the L2 cache before cold samples");
  app.add_flag("--no-cupti", "Use events only, even where CUPTI is available");
  app.add_option("--throttle-threshold", throttle_percent,
                 "Leave out samples whose SM clock is under PCT percent of the peak clock; 0: no "
                 "check (default 75)")
      ->type_name("PCT");
  app.add_option("--throttle-recovery-delay", o.throttle_recovery_s,
                 "Pause S seconds after a round with throttled samples (default 0.05)")
      ->check(CLI::Range(0.0, 60.0))
      ->type_name("S");
  app.add_flag("--disable-blocking-kernel",
               "Queue samples without the blocking kernel (launch gaps are then timed)");
  app.add_flag("--run-once", "One sample per configuration: no warm-up, no calibration");
  app.add_flag("--profile",
               "For a profiler: --run-once, --disable-blocking-kernel, --no-cupti, --processes 1");
  app.add_flag("--quiet,-q", o.quiet, "No progress line and no results on standard output");
  CLI::Option* processes_option =
      app.add_option("--processes", o.processes,
                     "Measure every configuration in N processes, one after another; the report "
                     "keeps each process's samples as a run (default 5; 1: in this process)")
          ->check(CLI::Range(std::size_t{1}, std::size_t{1000}))
          ->type_name("N");
  app.add_option("--repetitions,--benchmark_repetitions", o.repetitions,
                 "Measure each configuration N times per process, one run together (default 1)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}))
      ->type_name("N");
  app.add_flag("--random-interleaving,--benchmark_enable_random_interleaving",
               o.random_interleaving,
               "Measure the configurations and their repetitions in a random order");
  CLI::Option* seed_option =
      app.add_option("--seed", seed, "Seed of --random-interleaving (default: random, printed)")
          ->type_name("N");
  std::size_t worker = 0;
  std::uint64_t worker_seed = 0;
  // A child of --processes: hidden, and never typed by a user.
  app.add_option(kWorkerOption, worker)->group("");
  app.add_option(kWorkerOutputOption, o.worker_output)->group("");
  app.add_option(kWorkerSeedOption, worker_seed)->group("");

  try {
    app.parse(argc, argv);
    if (!format.empty()) o.format = parse_format(format == "console" ? "table" : format);
    for (const std::string& f : json_files)
      o.typed_outputs.emplace_back(f, Format::json);
    for (const std::string& f : csv_files)
      o.typed_outputs.emplace_back(f, Format::csv);
    for (const std::string& f : md_files)
      o.typed_outputs.emplace_back(f, Format::markdown);
    for (const std::string& f : gbench_files) {
      o.typed_outputs.emplace_back(
          f, parse_format(gbench_out_format == "console" ? "table" : gbench_out_format));
    }
    if (!gbench_min_time.empty()) {
      const char last = gbench_min_time.back();
      const std::string number = gbench_min_time.substr(0, gbench_min_time.size() - 1);
      char* end = nullptr;
      const double value = std::strtod(number.c_str(), &end);
      const bool whole = end != number.c_str() && *end == '\0' && value >= 1.0 && value <= 1e8 &&
                         value == static_cast<double>(static_cast<long>(value));
      if (last == 's' && end != number.c_str() && *end == '\0' && value >= 0.0 && value <= 3600.0) {
        o.stopping.min_time_s = value;
      } else if (last == 'x' && whole) {
        samples = static_cast<std::size_t>(value);
      } else {
        throw Error("--benchmark_min_time " + gbench_min_time +
                    ": give seconds ('0.5s', at most 3600) or a sample count ('100x')");
      }
    }
    o.mode = parse_measure_mode(mode);
    o.stopping.max_noise = max_noise_percent / 100.0;
    if (samples > 0) {
      o.stopping.fixed_samples = samples;
      o.stopping.max_samples = std::max(o.stopping.max_samples, samples);
    }
    if (!(throttle_percent >= 0.0 && throttle_percent < 100.0)) {
      throw Error(fmt::format(
          "--throttle-threshold {:g}: give a percentage of the peak SM clock from 0 to under 100 "
          "(0 turns the throttle check off)",
          throttle_percent));
    }
    o.throttle_threshold = throttle_percent / 100.0;
    o.l2_flush = app.count("--no-l2-flush") == 0;
    o.cupti = app.count("--no-cupti") == 0;
    const bool profile = app.count("--profile") > 0;
    o.run_once = profile || app.count("--run-once") > 0;
    o.blocking_kernel = !profile && app.count("--disable-blocking-kernel") == 0;
    if (profile) o.cupti = false;  // a profiler is the CUPTI client
    // One sample is meant for a profiler watching one process, unless --processes says else.
    if (o.run_once && processes_option->count() == 0) o.processes = 1;
    for (const std::string& d : devices)
      add_devices(d, o);
    if (o.all_devices && !o.devices.empty()) {
      throw Error("--all-devices (or --device all) and a device number exclude each other");
    }
    if (seed_option->count() > 0) {
      if (!o.random_interleaving) {
        throw Error("--seed is the seed of --random-interleaving; give that option too");
      }
      o.seed = seed;
    }
    if (app.count(kWorkerOption) > 0) {
      if (o.worker_output.empty() || worker >= o.processes) {
        throw Error(std::string{kWorkerOption} + " is for the runner's own child processes");
      }
      o.worker = worker;
      if (app.count(kWorkerSeedOption) > 0) o.seed = worker_seed;
      // The time limit is per configuration over all processes, so each child gets its share.
      o.stopping.timeout_s /= static_cast<double>(o.processes);
    }
    // ... and over its repetitions.
    o.stopping.timeout_s /= static_cast<double>(o.repetitions);
    assign_axes(app, benchmark_option, axis_option, benchmarks, axes, o.selection);
  } catch (const CLI::CallForHelp&) {
    result.exit_status = 0;
    result.out = app.help();
  } catch (const CLI::CallForVersion&) {
    const CuptiAvailability cupti = cupti_availability();
    result.exit_status = 0;
    result.out = fmt::format(
        "{} (the kerntime {} benchmark runner)\nCUDA runtime {} (built with {})\nCUPTI {}\n",
        program, kVersion, cuda_version_string(query_gpu_status().runtime_version),
        cuda_version_string(CUDART_VERSION),
        cupti.loads ? fmt::format("API version {} ({})", cupti.api_version, cupti.path)
                    : "does not load: " + cupti.problem);
  } catch (const CLI::ParseError& e) {
    result.exit_status = 2;
    result.err = fmt::format("{}: {}. Run '{} --help' for usage.\n", program, e.what(), program);
  } catch (const std::exception& e) {
    result.exit_status = 2;
    result.err = fmt::format("{}: {}\n", program, e.what());
  }
  return result;
}

}  // namespace kerntime::main
