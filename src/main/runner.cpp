// SPDX-License-Identifier: Apache-2.0
// benchmark_main: the command line, the loop over devices and configurations, the outputs.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <unistd.h>

#include <fmt/core.h>

#include <kerntime/benchmark.hpp>
#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/tracer.hpp>

#include "bench/axes.hpp"
#include "io/file_writer.hpp"
#include "main/process_runs.hpp"
#include "main/processes.hpp"
#include "main/progress_line.hpp"
#include "main/repetitions.hpp"
#include "main/run_order.hpp"
#include "main/runner_options.hpp"
#include "main/worker_results.hpp"

namespace kerntime {
namespace {

using main::RunnerOptions;

// --list: each benchmark with its index (what --benchmark takes), the axis values that would
// run (after --axis and --filter), and the configurations.
std::string list_text(const BenchmarkRegistry& registry,
                      const std::vector<Configuration>& selected) {
  std::string out;
  const auto& benchmarks = registry.benchmarks();
  for (std::size_t index = 0; index < benchmarks.size(); ++index) {
    const Benchmark& b = *benchmarks[index];
    std::vector<const Configuration*> mine;
    for (const Configuration& c : selected) {
      if (c.benchmark == &b) mine.push_back(&c);
    }
    if (mine.empty()) continue;
    out += fmt::format("[{}] {} ({} configuration{})\n", index, b.name(), mine.size(),
                       mine.size() == 1 ? "" : "s");
    for (std::size_t a = 0; a < b.axes().size(); ++a) {
      std::vector<std::string> values;
      for (const Configuration* c : mine) {
        std::string v = format_axis_value(c->values[a]);
        if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
      }
      std::string joined;
      for (const std::string& v : values)
        joined += (joined.empty() ? "" : ",") + v;
      const Axis& axis = b.axes()[a];
      out += fmt::format("  {} [{}]: {}\n", axis.name, to_string(axis.kind), joined);
    }
  }
  out += "\nconfigurations:\n";
  for (const Configuration& c : selected)
    out += "  " + c.name() + "\n";
  return out;
}

// What the runner appends to a configuration's name in its results, so that --filter matches
// a name copied from a report.
std::vector<std::string> name_suffixes(MeasureMode mode, const std::vector<int>& devices) {
  const std::string mode_suffix = "/" + std::string{to_string(mode)};
  std::vector<std::string> suffixes{mode_suffix};
  if (devices.size() > 1) {
    for (int d : devices)
      suffixes.push_back(fmt::format("{}/device={}", mode_suffix, d));
  }
  return suffixes;
}

// The devices --list can know of without needing one: those named, or with --all-devices
// whatever CUDA reports (none without a driver).
std::vector<int> listed_devices(const main::RunnerOptions& o) {
  if (!o.all_devices) return o.devices;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  std::vector<int> devices;
  for (int d = 0; d < count; ++d)
    devices.push_back(d);
  return devices;
}

std::vector<int> chosen_devices(const main::RunnerOptions& o) {
  int count = 0;
  check_cuda_call(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  std::vector<int> devices = o.devices;
  if (o.all_devices) {
    for (int d = 0; d < count; ++d)
      devices.push_back(d);
  }
  if (devices.empty()) {
    int current = 0;
    check_cuda_call(cudaGetDevice(&current), "cudaGetDevice");
    devices.push_back(current);
  }
  for (int d : devices) {
    if (d >= count) {
      throw Error(fmt::format("--device {}: only {} CUDA device(s) are visible (0 to {})", d, count,
                              count - 1));
    }
  }
  return devices;
}

// One configuration on one device.
struct Task {
  const Configuration* configuration = nullptr;
  int device = 0;
  std::string name;  ///< the measurement's name: saxpy/n=1048576/cold[/device=1]
};

std::vector<Task> tasks_of(const main::RunnerOptions& o, const std::vector<Configuration>& selected,
                           const std::vector<int>& devices) {
  std::vector<Task> tasks;
  for (int device : devices) {
    for (const Configuration& c : selected) {
      std::string name = c.name() + "/" + std::string{to_string(o.mode)};
      if (devices.size() > 1) name += fmt::format("/device={}", device);
      tasks.push_back({&c, device, std::move(name)});
    }
  }
  return tasks;
}

// What measuring one task gave: a measurement, or a skip or failure in the warnings.
struct Outcome {
  std::optional<Measurement> measurement;
  std::vector<std::string> warnings;
  bool failed = false;
  bool skipped = false;
};

// The outcome of a configuration from those of its repetitions (in the order measured): the
// measurements combined into one run, each warning once, failed if any failed.
Outcome combine_outcomes(const std::vector<Outcome>& repetitions) {
  if (repetitions.size() == 1) return repetitions.front();
  Outcome combined;
  std::vector<Measurement> measurements;
  for (const Outcome& r : repetitions) {
    combined.failed = combined.failed || r.failed;
    combined.skipped = combined.skipped || r.skipped;
    for (const std::string& w : r.warnings) {
      if (std::find(combined.warnings.begin(), combined.warnings.end(), w) ==
          combined.warnings.end()) {
        combined.warnings.push_back(w);
      }
    }
    if (r.measurement) measurements.push_back(*r.measurement);
  }
  if (!measurements.empty()) combined.measurement = main::combine_repetitions(measurements);
  return combined;
}

// Whether the CUDA context of this thread is lost to a kernel fault (illegal address, assert,
// trap): such an error stays after cudaGetLastError() and comes back from every call, while any
// other error clears.
bool context_is_lost() {
  const cudaError_t first = cudaDeviceSynchronize();
  if (first == cudaSuccess) return false;
  (void)cudaGetLastError();
  return cudaDeviceSynchronize() == first;
}

// What one process keeps while it measures: the tracer, the engine, the environment.
class Measurer {
 public:
  Measurer(const main::RunnerOptions& o, const std::vector<int>& devices,
           std::string progress_prefix)
      : o_(o),
        progress_{stderr, main::ProgressLine::wanted(o.quiet, stderr), std::move(progress_prefix)} {
    header_.environment = current_environment(devices);
    if (o.cupti) {
      tracer_ = std::make_unique<Tracer>();  // before any warm-up (docs/benchmarks.md)
      if (!tracer_->active()) {
        header_.warnings.push_back(
            "CUPTI is unavailable (" + tracer_->unavailable_reason() +
            "): cold headlines are event times minus the launch floor, plus an empty kernel's "
            "GPU time where an earlier CUPTI calibration of the GPU is known");
      }
    }
  }

  // One measurement of `task`: run `index` of `total` in this process, repetition `repetition`.
  Outcome measure(const Task& task, std::size_t index, std::size_t total, std::size_t repetition) {
    Outcome outcome;
    if (!context_lost_by_.empty()) {
      // Every CUDA call would fail with the fault's error and blame this configuration.
      outcome.warnings.push_back(task.name + ": not measured: a kernel of " + context_lost_by_ +
                                 " faulted, and CUDA refuses every further call in this process");
      outcome.failed = true;
      std::fprintf(stderr, "%s\n", outcome.warnings.back().c_str());
      return outcome;
    }
    check_cuda_call(cudaSetDevice(task.device), fmt::format("cudaSetDevice({})", task.device));
    MeasureOptions options;
    options.name = task.name;
    options.mode = o_.mode;
    options.device = task.device;
    options.l2_flush = o_.l2_flush;
    options.stopping = o_.stopping;
    options.warmup_samples = o_.warmup_samples;
    options.throttle_threshold = o_.throttle_threshold;
    options.throttle_recovery_s = o_.throttle_recovery_s;
    options.blocking_kernel = o_.blocking_kernel;
    options.run_once = o_.run_once;
    options.borrow_cupti = o_.cupti;  // --no-cupti keeps CUPTI out of the process
    // An inactive Tracer would add its reason to every configuration; the header has it once.
    options.tracer = tracer_ && tracer_->active() ? tracer_.get() : nullptr;
    const std::string repetition_text =
        o_.repetitions > 1 ? fmt::format(" (repetition {}/{})", repetition + 1, o_.repetitions)
                           : std::string{};
    options.on_progress = [this, index, total, repetition_text](const MeasureProgress& p) {
      progress_.show(index, total, p, repetition_text);
    };
    State state{*task.configuration, engine_, options};
    try {
      task.configuration->benchmark->run(state);
      if (!state.skip_reason().empty()) {
        outcome.warnings.push_back(options.name + ": skipped: " + state.skip_reason());
        outcome.skipped = true;
      } else if (state.measurement() == nullptr) {
        outcome.warnings.push_back(options.name + ": the benchmark never called State::run");
        outcome.failed = true;
      } else {
        outcome.measurement = *state.measurement();
      }
    } catch (const std::exception& e) {
      outcome.warnings.push_back(options.name + ": failed: " + e.what());
      outcome.failed = true;
      // A failed configuration may leave an error behind; the next one must not inherit it.
      (void)cudaGetLastError();
      if (context_is_lost()) context_lost_by_ = options.name;
    }
    progress_.clear();
    if (outcome.failed) {
      // Named where it happened, also with --quiet, whatever is written afterwards.
      std::fprintf(stderr, "%s\n", outcome.warnings.back().c_str());
      std::fflush(stderr);
    }
    return outcome;
  }

  // The report of `outcomes` (in the order given) with this process's environment and warnings.
  Report report(const std::vector<const Outcome*>& outcomes) const {
    Report report = header_;
    for (const Outcome* outcome : outcomes) {
      report.warnings.insert(report.warnings.end(), outcome->warnings.begin(),
                             outcome->warnings.end());
      if (outcome->measurement) add_to_report(report, *outcome->measurement);
    }
    if (tracer_ && tracer_->active()) {
      report.warnings.insert(report.warnings.begin(),
                             "headlines are CUPTI GPU spans of each sample's work (timer "
                             "cupti-kernel); entries ending in /events hold the raw event times");
    }
    if (o_.random_interleaving && o_.seed) {
      report.warnings.push_back(fmt::format(
          "configurations and repetitions ran in a random order (--random-interleaving --seed "
          "{} repeats it)",
          *o_.seed));
    }
    if (o_.run_once || !o_.blocking_kernel) {
      report.warnings.push_back(
          std::string{o_.run_once ? "one sample per configuration (--run-once)" : ""} +
          (o_.run_once && !o_.blocking_kernel ? ", " : "") +
          (o_.blocking_kernel ? "" : "no blocking kernel: event times include launch gaps") +
          "; for a profiler, not for comparisons");
    }
    return report;
  }

 private:
  const main::RunnerOptions& o_;
  main::ProgressLine progress_;
  Report header_;
  std::unique_ptr<Tracer> tracer_;
  Engine engine_;
  std::string context_lost_by_;  // the configuration whose kernel faulted, if one did
};

// Measures `tasks` in this process's order (run_order), each --repetitions times, and calls
// `done` after each measurement with the outcomes so far, per task (empty: not measured yet).
// Returns 1 if any measurement failed, else 0.
int measure_in_order(const main::RunnerOptions& o, const std::vector<Task>& tasks,
                     Measurer& measurer, std::size_t process, std::size_t processes,
                     std::vector<std::vector<Outcome>>& outcomes,
                     const std::function<void(const std::string& next)>& before) {
  const std::vector<main::PlannedRun> order =
      main::run_order(tasks.size(), o.repetitions, process, processes,
                      o.random_interleaving ? o.seed : std::optional<std::uint64_t>{});
  outcomes.assign(tasks.size(), {});
  int status = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Task& task = tasks[order[i].task];
    before(task.name);
    Outcome outcome = measurer.measure(task, i + 1, order.size(), order[i].repetition);
    if (outcome.failed) status = 1;
    outcomes[order[i].task].push_back(std::move(outcome));
  }
  return status;
}

// --processes 1: every task in this process. Returns 1 if any failed, else 0.
int run_here(const main::RunnerOptions& o, const std::vector<Task>& tasks,
             const std::vector<int>& devices, std::vector<Measurement>& results, Report& report) {
  Measurer measurer{o, devices, ""};
  std::vector<std::vector<Outcome>> outcomes;
  const int status =
      measure_in_order(o, tasks, measurer, 0, 1, outcomes, [](const std::string&) {});
  std::vector<Outcome> combined;
  combined.reserve(tasks.size());
  for (const std::vector<Outcome>& repetitions : outcomes) {
    combined.push_back(combine_outcomes(repetitions));
    if (combined.back().measurement) results.push_back(*combined.back().measurement);
  }
  std::vector<const Outcome*> all;
  for (const Outcome& outcome : combined)
    all.push_back(&outcome);
  report = measurer.report(all);
  return status;
}

// A child of --processes: every task in its own order; before each measurement and at the end
// it rewrites its results file, so that the runner keeps what it finished and can name what it
// was measuring if it dies. Returns 1 if any measurement failed, else 0.
int run_as_worker(const main::RunnerOptions& o, const std::vector<Task>& tasks,
                  const std::vector<int>& devices) {
  const std::size_t process = *o.worker;
  Measurer measurer{o, devices, fmt::format("process {}/{} ", process + 1, o.processes)};
  std::vector<std::vector<Outcome>> outcomes;
  auto write = [&](const std::string& running) {
    main::WorkerResults results;
    std::vector<Outcome> combined;
    combined.reserve(outcomes.size());
    for (const std::vector<Outcome>& repetitions : outcomes) {
      if (!repetitions.empty()) combined.push_back(combine_outcomes(repetitions));
    }
    std::vector<const Outcome*> done;
    for (const Outcome& outcome : combined)
      done.push_back(&outcome);
    results.report = measurer.report(done);
    results.running = running;
    io::write_file_atomically(o.worker_output, main::worker_results_json(results));
  };
  const int status = measure_in_order(o, tasks, measurer, process, o.processes, outcomes, write);
  write("");
  return status;
}

// Writes the results where outputs_of() says.
void write_outputs(const main::RunnerOptions& o, const std::vector<Measurement>& results,
                   const Report& report) {
  for (const main::Output& output : main::outputs_of(o)) {
    const std::string text = render(results, report, output.format);
    if (output.path == "-") {
      io::write_standard_output(text);
    } else {
      io::write_file_atomically(output.path, text);
    }
  }
}

}  // namespace

int benchmark_main(int argc, const char* const* argv, const BenchmarkRegistry& registry) {
  main::ParsedArguments parsed = main::parse_runner_arguments(argc, argv);
  const std::string program = main::program_name(argc, argv);
  if (parsed.exit_status) {
    std::fputs(parsed.out.c_str(), stdout);
    std::fputs(parsed.err.c_str(), stderr);
    return *parsed.exit_status;
  }
  main::RunnerOptions o = parsed.options;
  try {
    auto select = [&](const std::vector<int>& devices) {
      o.selection.name_suffixes = name_suffixes(o.mode, devices);
      std::vector<Configuration> selected = bench::select_configurations(registry, o.selection);
      if (selected.empty()) {
        throw Error("no configuration matches --filter '" + o.selection.filter +
                    "'; --list shows them");
      }
      return selected;
    };
    // --list and a run select alike: the same names match, and nothing matching is an error
    // in both.
    std::vector<Configuration> selected = select(o.list ? listed_devices(o) : o.devices);
    if (o.list) {
      io::write_standard_output(list_text(registry, selected));
      return 0;
    }
    const GpuStatus gpu = query_gpu_status();
    if (!gpu.usable()) {
      std::fprintf(stderr, "%s: %s\n", program.c_str(), gpu.message.c_str());
      return kNoGpuExitStatus;
    }
    const std::vector<int> devices = chosen_devices(o);
    if (devices != o.devices) selected = select(devices);
    const std::vector<Task> tasks = tasks_of(o, selected, devices);
    if (o.worker) return run_as_worker(o, tasks, devices);
    if (o.random_interleaving && !o.seed) o.seed = main::random_seed();
    if (o.random_interleaving && !o.quiet) {
      std::fprintf(stderr, "%s: random interleaving with seed %llu (--seed %llu repeats it)\n",
                   program.c_str(), static_cast<unsigned long long>(*o.seed),
                   static_cast<unsigned long long>(*o.seed));
    }
    std::vector<Measurement> results;
    Report report;
    int status = 0;
    if (o.processes > 1) {
      std::vector<std::string> extra;
      if (o.random_interleaving) {
        extra.push_back(fmt::format("{}={}", main::kWorkerSeedOption, *o.seed));
      }
      main::ProcessRuns runs =
          main::run_processes(main::kOwnExecutable, argc, argv, o.processes, program, extra);
      results = std::move(runs.measurements);
      report = std::move(runs.report);
      status = runs.status;
    } else {
      status = run_here(o, tasks, devices, results, report);
    }
    write_outputs(o, results, report);
    return status;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), e.what());
    return 2;
  }
}

int benchmark_main(int argc, const char* const* argv) {
  return benchmark_main(argc, argv, benchmark_registry());
}

namespace detail {
const int link_kerntime_main_to_use_KERNTIME_BENCHMARK_MAIN = 0;
}  // namespace detail

}  // namespace kerntime
