// SPDX-License-Identifier: Apache-2.0
// benchmark_main: the command line, the loop over devices and configurations, the outputs.
#include <cstdio>
#include <exception>
#include <memory>
#include <unistd.h>

#include <fmt/core.h>

#include <kerntime/benchmark.hpp>
#include <kerntime/error.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/tracer.hpp>

#include "bench/axes.hpp"
#include "cuda/cuda_check.hpp"
#include "format/bench/results_render.hpp"
#include "io/file_writer.hpp"
#include "main/runner_options.hpp"

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
  detail::check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  std::vector<int> devices = o.devices;
  if (o.all_devices) {
    for (int d = 0; d < count; ++d)
      devices.push_back(d);
  }
  if (devices.empty()) {
    int current = 0;
    detail::check_cuda(cudaGetDevice(&current), "cudaGetDevice");
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

class Progress {
 public:
  explicit Progress(bool on) : on_(on) {}
  void show(std::size_t index, std::size_t total, const MeasureProgress& p) {
    if (!on_) return;
    std::fprintf(stderr, "\r\033[K[%zu/%zu] %s: %zu samples, %.1f s", index, total, p.name->c_str(),
                 p.samples, p.elapsed_s);
    std::fflush(stderr);
  }
  void clear() {
    if (!on_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }

 private:
  bool on_;
};

// Runs every configuration on every device; returns 1 if any failed, else 0.
int run_all(const RunnerOptions& o, const std::vector<Configuration>& selected,
            std::vector<Measurement>& results, Report& report) {
  const std::vector<int> devices = chosen_devices(o);
  report.environment = current_environment(devices);
  std::unique_ptr<Tracer> tracer;
  if (o.cupti) {
    tracer = std::make_unique<Tracer>();  // before any warm-up (docs/benchmarks.md)
    if (!tracer->active()) {
      report.warnings.push_back("CUPTI is unavailable (" + tracer->unavailable_reason() +
                                "): headlines are event times minus the launch floor");
    }
  }
  Progress progress{!o.quiet && isatty(fileno(stderr)) == 1};
  Engine engine;
  int status = 0;
  const std::size_t total = selected.size() * devices.size();
  std::size_t index = 0;
  for (int device : devices) {
    detail::check_cuda(cudaSetDevice(device), fmt::format("cudaSetDevice({})", device));
    for (const Configuration& c : selected) {
      ++index;
      MeasureOptions options;
      options.name = c.name() + "/" + std::string{to_string(o.mode)};
      if (devices.size() > 1) options.name += fmt::format("/device={}", device);
      options.mode = o.mode;
      options.device = device;
      options.l2_flush = o.l2_flush;
      options.stopping = o.stopping;
      options.warmup_samples = o.warmup_samples;
      options.tracer = tracer.get();
      options.on_progress = [&progress, index, total](const MeasureProgress& p) {
        progress.show(index, total, p);
      };
      State state{c, engine, options};
      try {
        c.benchmark->body()(state);
        if (!state.skip_reason().empty()) {
          report.warnings.push_back(options.name + ": skipped: " + state.skip_reason());
        } else if (state.measurement() == nullptr) {
          report.warnings.push_back(options.name + ": the benchmark never called State::run");
          status = 1;
        } else {
          add_to_report(report, *state.measurement());
          results.push_back(*state.measurement());
        }
      } catch (const std::exception& e) {
        report.warnings.push_back(options.name + ": failed: " + e.what());
        status = 1;
        // A failed configuration may leave an error behind; the next one must not inherit it.
        (void)cudaGetLastError();
      }
      progress.clear();
    }
  }
  if (tracer && tracer->active()) {
    report.warnings.insert(report.warnings.begin(),
                           "headlines are CUPTI GPU spans of each sample's work (timer "
                           "cupti-kernel); entries ending in /events hold the raw event times");
  }
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
    if (!gpu.usable()) throw Error(gpu.message);
    std::vector<Measurement> results;
    Report report;
    const int status = run_all(o, selected, results, report);
    if (!o.quiet) io::write_standard_output(bench::render_results(results, report, o.format));
    for (const std::string& path : o.outputs) {
      io::write_file_atomically(
          path, bench::render_results(results, report, bench::format_for_path(path)));
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
