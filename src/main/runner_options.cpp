// SPDX-License-Identifier: Apache-2.0
#include "main/runner_options.hpp"

#include <exception>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <kerntime/error.hpp>

#include "main/processes.hpp"

namespace kerntime::bench {
namespace {

constexpr const char* kFooter =
    R"(Every benchmark runs over every combination of its axis values; each combination
is one configuration, named like saxpy/n=16777216/cold. With default settings a
configuration stops as soon as the 95% confidence interval of its median headline
time is within +-0.5% (or its noise is under --max-noise), else at --timeout.
The headline is the CUPTI GPU time of the launched work when CUPTI is available,
else the cold event time minus the device's calibrated launch floor.

Axis values: integers 4096, 2^12, ranges 1:8[:step]; powers of two 2^10:2^20;
floats 0.5; strings as written. Several values are separated by commas.

--output FILE takes its format from the extension (.json, .md, .csv; else table);
JSON is the kerntime-report/1 format that 'kerntime compare' reads.

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

Format format_for_path(const std::string& path) {
  auto ends = [&path](const std::string& suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends(".json")) return Format::json;
  if (ends(".md")) return Format::markdown;
  if (ends(".csv")) return Format::csv;
  return Format::table;
}

ParsedArguments parse_runner_arguments(int argc, const char* const* argv) {
  ParsedArguments result;
  RunnerOptions& o = result.options;
  const std::string program = program_name(argc, argv);
  CLI::App app{"Runs the registered kerntime benchmarks and reports their GPU time.", program};
  app.footer(kFooter);
  std::string format = "table";
  std::string mode = "cold";
  std::vector<std::string> axes;
  double max_noise_percent = 100.0 * o.stopping.max_noise;
  std::size_t samples = 0;
  app.add_flag("--list", o.list, "List the benchmarks, their axes and configurations, and exit");
  app.add_option("--filter", o.filter, "Run configurations whose name matches REGEX")
      ->type_name("REGEX");
  app.add_option("--axis,-a", axes, "Replace an axis's values, e.g. n=2^20,2^24 (repeatable)")
      ->type_name("NAME=VALUES");
  app.add_option("--format", format, "Standard output as table, md, csv or json (default table)")
      ->check(CLI::IsMember({"table", "md", "markdown", "csv", "json"}));
  app.add_option("--output,-o", o.outputs, "Also write the results to FILE (repeatable)")
      ->type_name("FILE");
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
  app.add_option("--device,-d", o.devices, "Run on CUDA device N (repeatable; default current)")
      ->check(CLI::NonNegativeNumber)
      ->type_name("N");
  app.add_flag("--all-devices", o.all_devices, "Run on every visible CUDA device");
  app.add_flag("--no-l2-flush", "Do not flush the L2 cache before cold samples");
  app.add_flag("--no-cupti", "Use events only, even where CUPTI is available");
  app.add_flag("--quiet,-q", o.quiet, "No progress line and no results on standard output");
  app.add_option("--processes", o.processes,
                 "Measure every configuration in N processes, one after another; the report "
                 "keeps each process's samples as a run (default 5; 1: in this process)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}))
      ->type_name("N");
  std::size_t worker = 0;
  // A child of --processes: hidden, and never typed by a user.
  app.add_option(kWorkerOption, worker)->group("");
  app.add_option(kWorkerOutputOption, o.worker_output)->group("");

  try {
    app.parse(argc, argv);
    o.format = parse_format(format);
    o.mode = parse_measure_mode(mode);
    o.stopping.max_noise = max_noise_percent / 100.0;
    if (samples > 0) {
      o.stopping.fixed_samples = samples;
      o.stopping.max_samples = std::max(o.stopping.max_samples, samples);
    }
    o.l2_flush = app.count("--no-l2-flush") == 0;
    o.cupti = app.count("--no-cupti") == 0;
    if (app.count(kWorkerOption) > 0) {
      if (o.worker_output.empty() || worker >= o.processes) {
        throw Error(std::string{kWorkerOption} + " is for the runner's own child processes");
      }
      o.worker = worker;
      // The time limit is per configuration over all processes, so each child gets its share.
      o.stopping.timeout_s /= static_cast<double>(o.processes);
    }
    for (const std::string& a : axes)
      o.axes.push_back(parse_axis_option(a));
    if (o.all_devices && !o.devices.empty()) {
      throw Error("--all-devices and --device exclude each other");
    }
  } catch (const CLI::CallForHelp&) {
    result.exit_status = 0;
    result.out = app.help();
  } catch (const CLI::ParseError& e) {
    result.exit_status = 2;
    result.err = fmt::format("{}: {}. Run '{} --help' for usage.\n", program, e.what(), program);
  } catch (const std::exception& e) {
    result.exit_status = 2;
    result.err = fmt::format("{}: {}\n", program, e.what());
  }
  return result;
}

}  // namespace kerntime::bench
