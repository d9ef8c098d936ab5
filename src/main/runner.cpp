// SPDX-License-Identifier: Apache-2.0
// benchmark_main: the command line, the loop over devices and configurations, the outputs.
#include <cstdio>
#include <exception>
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
#include "main/runner_options.hpp"
#include "main/worker_results.hpp"

namespace kerntime {
namespace {

using bench::RunnerOptions;

std::string list_text(const BenchmarkRegistry& registry,
                      const std::vector<Configuration>& selected) {
  std::string out;
  for (const auto& b : registry.benchmarks()) {
    std::size_t count = 0;
    for (const Configuration& c : selected)
      count += c.benchmark == b.get() ? 1 : 0;
    if (count == 0) continue;
    out += fmt::format("{} ({} configuration{})\n", b->name(), count, count == 1 ? "" : "s");
    for (const Axis& axis : b->axes()) {
      std::string values;
      for (const AxisValue& v : axis.values)
        values += (values.empty() ? "" : ",") + format_axis_value(v);
      out += fmt::format("  {} [{}]: {}\n", axis.name, to_string(axis.kind), values);
    }
  }
  out += "\nconfigurations:\n";
  for (const Configuration& c : selected)
    out += "  " + c.name() + "\n";
  return out;
}

std::vector<int> chosen_devices(const RunnerOptions& o) {
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

std::vector<Task> tasks_of(const RunnerOptions& o, const std::vector<Configuration>& selected,
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
};

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
  Measurer(const RunnerOptions& o, const std::vector<int>& devices, std::string progress_prefix)
      : o_(o),
        progress_{stderr, bench::ProgressLine::wanted(o.quiet, stderr),
                  std::move(progress_prefix)} {
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

  Outcome measure(const Task& task, std::size_t index, std::size_t total) {
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
    options.borrow_cupti = o_.cupti;  // --no-cupti keeps CUPTI out of the process
    // An inactive Tracer would add its reason to every configuration; the header has it once.
    options.tracer = tracer_ && tracer_->active() ? tracer_.get() : nullptr;
    options.on_progress = [this, index, total](const MeasureProgress& p) {
      progress_.show(index, total, p);
    };
    State state{*task.configuration, engine_, options};
    try {
      task.configuration->benchmark->body()(state);
      if (!state.skip_reason().empty()) {
        outcome.warnings.push_back(options.name + ": skipped: " + state.skip_reason());
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
    return report;
  }

 private:
  const RunnerOptions& o_;
  bench::ProgressLine progress_;
  Report header_;
  std::unique_ptr<Tracer> tracer_;
  Engine engine_;
  std::string context_lost_by_;  // the configuration whose kernel faulted, if one did
};

// --processes 1: every task in this process, in order. Returns 1 if any failed, else 0.
int run_here(const RunnerOptions& o, const std::vector<Task>& tasks,
             const std::vector<int>& devices, std::vector<Measurement>& results, Report& report) {
  Measurer measurer{o, devices, ""};
  std::vector<Outcome> outcomes;
  outcomes.reserve(tasks.size());
  int status = 0;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    outcomes.push_back(measurer.measure(tasks[i], i + 1, tasks.size()));
    if (outcomes.back().failed) status = 1;
    if (outcomes.back().measurement) results.push_back(*outcomes.back().measurement);
  }
  std::vector<const Outcome*> all;
  for (const Outcome& outcome : outcomes)
    all.push_back(&outcome);
  report = measurer.report(all);
  return status;
}

// A child of --processes: every task in its rotated order; before each task and at the end it
// rewrites its results file, so that the runner keeps what it finished and can name what it
// was measuring if it dies. Returns 1 if any task failed, else 0.
int run_as_worker(const RunnerOptions& o, const std::vector<Task>& tasks,
                  const std::vector<int>& devices) {
  const std::size_t process = *o.worker;
  Measurer measurer{o, devices, fmt::format("process {}/{} ", process + 1, o.processes)};
  std::vector<std::optional<Outcome>> outcomes(tasks.size());
  auto write = [&](const std::string& running) {
    bench::WorkerResults results;
    std::vector<const Outcome*> done;
    for (const std::optional<Outcome>& outcome : outcomes) {
      if (!outcome) continue;
      done.push_back(&*outcome);
      if (outcome->measurement) {
        Measurement summary = *outcome->measurement;
        summary.headline_ns.clear();
        summary.samples.clear();
        results.measurements.push_back(std::move(summary));
      }
    }
    results.report = measurer.report(done);
    results.running = running;
    io::write_file_atomically(o.worker_output, bench::worker_results_json(results));
  };
  const std::vector<std::size_t> order = bench::process_order(tasks.size(), process, o.processes);
  int status = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Task& task = tasks[order[i]];
    write(task.name);
    outcomes[order[i]] = measurer.measure(task, i + 1, tasks.size());
    if (outcomes[order[i]]->failed) status = 1;
  }
  write("");
  return status;
}

}  // namespace

int benchmark_main(int argc, const char* const* argv, const BenchmarkRegistry& registry) {
  bench::ParsedArguments parsed = bench::parse_runner_arguments(argc, argv);
  const std::string program = bench::program_name(argc, argv);
  if (parsed.exit_status) {
    std::fputs(parsed.out.c_str(), stdout);
    std::fputs(parsed.err.c_str(), stderr);
    return *parsed.exit_status;
  }
  const RunnerOptions& o = parsed.options;
  try {
    const std::vector<Configuration> selected =
        bench::select_configurations(registry, o.filter, o.axes);
    if (o.list) {
      io::write_standard_output(list_text(registry, selected));
      return 0;
    }
    if (selected.empty()) {
      throw Error("no configuration matches --filter '" + o.filter + "'; --list shows them");
    }
    const GpuStatus gpu = query_gpu_status();
    if (!gpu.usable()) {
      std::fprintf(stderr, "%s: %s\n", program.c_str(), gpu.message.c_str());
      return kNoGpuExitStatus;
    }
    const std::vector<int> devices = chosen_devices(o);
    const std::vector<Task> tasks = tasks_of(o, selected, devices);
    if (o.worker) return run_as_worker(o, tasks, devices);
    std::vector<Measurement> results;
    Report report;
    int status = 0;
    if (o.processes > 1) {
      bench::ProcessRuns runs =
          bench::run_processes(bench::kOwnExecutable, argc, argv, o.processes, program);
      results = std::move(runs.measurements);
      report = std::move(runs.report);
      status = runs.status;
    } else {
      status = run_here(o, tasks, devices, results, report);
    }
    if (!o.quiet) io::write_standard_output(render(results, report, o.format));
    for (const std::string& path : o.outputs) {
      io::write_file_atomically(path, render(results, report, bench::format_for_path(path)));
    }
    return status;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), e.what());
    return 2;
  }
}

int benchmark_main(int argc, const char* const* argv) {
  return benchmark_main(argc, argv, benchmark_registry());
}

}  // namespace kerntime
