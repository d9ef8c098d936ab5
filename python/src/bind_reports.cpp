// SPDX-License-Identifier: Apache-2.0
// Statistics, the environment and the report model (report.hpp, report_json.hpp, format.hpp):
// plain values, read-only from Python; a Report is built from measurements or samples and
// written through the C++ writer, so `kerntime compare` reads it like any C++ report.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kerntime/duration.hpp>
#include <kerntime/environment.hpp>
#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/measurement.hpp>
#include <kerntime/report.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/statistics.hpp>

#include "bindings.hpp"

namespace kerntime::python {
namespace {

using namespace nb::literals;

std::string statistics_repr(const Statistics& s) {
  if (s.count == 0) return "<Statistics: no samples>";
  return "<Statistics: " + std::to_string(s.count) + " samples, median " +
         format_duration(s.median) + ", min " + format_duration(s.min) + ", max " +
         format_duration(s.max) + ">";
}

void bind_statistics(nb::module_& m) {
  nb::class_<Statistics>(m, "Statistics",
                         "Summary statistics of one set of samples, in the samples' unit (ns for "
                         "every kerntime timer). count == 0: nothing to summarize.")
      .def_ro("count", &Statistics::count)
      .def_ro("min", &Statistics::min)
      .def_ro("max", &Statistics::max)
      .def_ro("mean", &Statistics::mean)
      .def_ro("median", &Statistics::median)
      .def_ro("q1", &Statistics::q1, "25th percentile")
      .def_ro("q3", &Statistics::q3, "75th percentile")
      .def_ro("p95", &Statistics::p95)
      .def_ro("p99", &Statistics::p99)
      .def_ro("mad", &Statistics::mad, "median absolute deviation from the median (unscaled)")
      .def_ro("stddev", &Statistics::stddev, "sample standard deviation; None below 2 samples")
      .def_ro("relative_noise", &Statistics::relative_noise, "stddev / mean; None below 2 samples")
      .def_prop_ro(
          "median_ci",
          [](const Statistics& s) -> std::optional<std::pair<double, double>> {
            if (!s.median_ci) return std::nullopt;
            return std::make_pair(s.median_ci->low, s.median_ci->high);
          },
          "(low, high) confidence interval of the median at median_ci_level; None below 2 "
          "samples")
      .def_ro("median_ci_level", &Statistics::median_ci_level)
      .def_ro("median_ci_method", &Statistics::median_ci_method,
              "\"bootstrap\" or \"order-statistic\"")
      .def("__repr__", &statistics_repr);

  m.def(
      "compute_statistics",
      [](const std::vector<double>& samples, bool median_interval) {
        StatisticsOptions options;
        options.median_interval = median_interval;
        return compute_statistics(samples, options);
      },
      "samples"_a, "median_interval"_a = true,
      "Statistics of `samples` (quantiles interpolate linearly, NumPy's default). Raises "
      "kerntime.Error naming the first NaN or infinite sample.");
  m.def("format_duration", &format_duration, "nanoseconds"_a,
        "A duration in ns as people read it, 4 significant digits: 812 ns, 2.593 us, 1.006 ms.");
}

void bind_environment(nb::module_& m) {
  nb::class_<DeviceInfo>(m, "DeviceInfo", "What a report says about one GPU.")
      .def_ro("index", &DeviceInfo::index)
      .def_ro("name", &DeviceInfo::name)
      .def_prop_ro("compute_capability",
                   [](const DeviceInfo& d) {
                     return std::make_pair(d.compute_capability_major, d.compute_capability_minor);
                   })
      .def_ro("multiprocessor_count", &DeviceInfo::multiprocessor_count)
      .def_ro("total_memory_bytes", &DeviceInfo::total_memory_bytes)
      .def_ro("l2_cache_bytes", &DeviceInfo::l2_cache_bytes)
      .def_ro("sm_clock_khz", &DeviceInfo::sm_clock_khz, "peak SM clock")
      .def_ro("memory_clock_khz", &DeviceInfo::memory_clock_khz, "peak memory clock")
      .def_ro("memory_bus_width_bits", &DeviceInfo::memory_bus_width_bits)
      .def_ro("ecc_enabled", &DeviceInfo::ecc_enabled)
      .def_ro("pci_bus_id", &DeviceInfo::pci_bus_id)
      .def("__repr__", [](const DeviceInfo& d) {
        return "<DeviceInfo " + std::to_string(d.index) + ": " + d.name + ">";
      });

  nb::class_<Environment>(m, "Environment",
                          "Where and with what a report was measured. CUDA versions are "
                          "1000 * major + 10 * minor (13000 is 13.0); 0: unknown.")
      .def_ro("tool_version", &Environment::tool_version)
      .def_ro("created_utc", &Environment::created_utc)
      .def_ro("host_name", &Environment::host_name)
      .def_ro("driver_version", &Environment::driver_version)
      .def_ro("runtime_version", &Environment::runtime_version)
      .def_ro("devices", &Environment::devices);

  m.def("current_environment", &current_environment, "devices"_a = std::vector<int>{},
        "The environment of a report for the given devices (all visible ones when empty). "
        "Never raises: what cannot be known stays at its default.");
}

void bind_gpu_status(nb::module_& m) {
  nb::class_<GpuStatus>(m, "GpuStatus", "What the CUDA driver and runtime say about this machine.")
      .def_ro("driver_version", &GpuStatus::driver_version,
              "highest CUDA version the driver supports; 0 when no driver")
      .def_ro("driver_release", &GpuStatus::driver_release, "e.g. \"580.159.04\"; may be empty")
      .def_ro("runtime_version", &GpuStatus::runtime_version,
              "CUDA runtime kerntime was built with")
      .def_ro("device_count", &GpuStatus::device_count)
      .def_prop_ro("problem",
                   [](const GpuStatus& s) -> std::string {
                     switch (s.problem) {
                       case GpuProblem::none:
                         return "none";
                       case GpuProblem::no_driver:
                         return "no-driver";
                       case GpuProblem::driver_too_old:
                         return "driver-too-old";
                       case GpuProblem::no_device:
                         return "no-device";
                       case GpuProblem::initialization_failed:
                         return "initialization-failed";
                     }
                     return "unknown";
                   })
      .def_ro("message", &GpuStatus::message,
              "one line naming the cause and the fix; empty when usable")
      .def_prop_ro("usable", &GpuStatus::usable)
      .def("__repr__", [](const GpuStatus& s) {
        return s.usable() ? "<GpuStatus: " + std::to_string(s.device_count) + " device(s)>"
                          : "<GpuStatus: " + s.message + ">";
      });

  m.def("gpu_status", &query_gpu_status,
        "Probes the driver and runtime; never raises. Cheap after the first call.");
  m.def("require_gpu", &require_gpu,
        "Raises kerntime.Error with the reason when no GPU is usable.");
  m.def("devices", &query_devices, "Every visible device. Raises kerntime.Error without CUDA.");
  m.def(
      "device_synchronize",
      [] { check_cuda_call(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); },
      nb::call_guard<nb::gil_scoped_release>(),
      "Waits for all work on the current device; raises kerntime.Error naming a failure.");
}

Entry entry_of_samples(std::string name, std::vector<double> samples, std::string timer,
                       std::string unit, std::optional<int> device) {
  if (name.empty()) throw Error("Report.add_samples needs a name; it was given an empty one");
  if (samples.empty()) {
    throw Error("Report.add_samples(\"" + name + "\") was given no samples; an entry needs one");
  }
  Entry entry;
  entry.name = std::move(name);
  entry.unit = std::move(unit);
  entry.timer = std::move(timer);
  entry.device = device;
  entry.statistics = compute_statistics(samples);
  entry.samples = std::move(samples);
  return entry;
}

void bind_report(nb::module_& m) {
  nb::class_<SummaryOnly>(m, "SummaryOnly",
                          "What the measuring tool wrote in place of an entry's samples "
                          "(NVBench --json without --jsonbin).")
      .def_ro("count", &SummaryOnly::count, "samples the tool took")
      .def_ro("mean", &SummaryOnly::mean, "their mean, in the entry's unit")
      .def_ro("relative_stdev", &SummaryOnly::relative_stdev,
              "standard deviation over the mean; None when the tool wrote none");

  nb::class_<SampleColumn>(m, "SampleColumn",
                           "A figure the measuring tool recorded beside each sample (Google "
                           "Benchmark's cpu_time, iterations, counters).")
      .def_ro("name", &SampleColumn::name)
      .def_ro("values", &SampleColumn::values, "one per sample, in the samples' order");

  nb::class_<Entry>(m, "Entry",
                    "One measured region of a report: every raw sample, its statistics.")
      .def_ro("name", &Entry::name)
      .def_ro("unit", &Entry::unit)
      .def_ro("timer", &Entry::timer, "what produced the samples, e.g. \"cupti-kernel\"")
      .def_ro("device", &Entry::device)
      .def_ro("samples", &Entry::samples, "every run's samples, run after run (a copy)")
      .def_ro("statistics", &Entry::statistics)
      .def_ro("run_sizes", &Entry::run_sizes, "samples per run; empty: one run")
      .def_ro("sample_columns", &Entry::sample_columns,
              "figures recorded beside each sample (SampleColumn), e.g. Google Benchmark's "
              "cpu_time")
      .def_ro("summary_only", &Entry::summary_only,
              "what the tool wrote instead of samples, or None when the samples are its own")
      .def("__repr__", [](const Entry& e) {
        return "<Entry '" + e.name + "': " + std::to_string(e.samples.size()) +
               " samples, median " + format_duration(e.statistics.median) + " (" + e.timer + ")>";
      });

  nb::class_<Report>(m, "Report",
                     "The kerntime-report/1 model: environment, entries, warnings and an optional "
                     "trace section. `kerntime compare` gates two of them.")
      .def(
          "__init__",
          [](Report* self, bool environment, const std::vector<int>& devices) {
            new (self) Report();
            if (environment) self->environment = current_environment(devices);
          },
          "environment"_a = true, "devices"_a = std::vector<int>{},
          "An empty report; `environment` fills where it is measured (the given devices, all "
          "visible ones when empty; never raises).")
      .def_ro("schema", &Report::schema)
      .def_ro("environment", &Report::environment)
      .def_ro("entries", &Report::entries, "the entries in order (a copy)")
      .def_ro("warnings", &Report::warnings)
      .def_prop_ro("has_trace", [](const Report& r) { return r.trace.has_value(); })
      .def(
          "find",
          [](const Report& r, const std::string& name) -> std::optional<Entry> {
            const Entry* e = r.find(name);
            return e != nullptr ? std::optional<Entry>{*e} : std::nullopt;
          },
          "name"_a, "The entry called `name`, or None.")
      .def(
          "add", [](Report& r, const Measurement& measurement) { add_to_report(r, measurement); },
          "measurement"_a,
          "Appends a measurement: its headline entry, an entry NAME/events of the raw event times "
          "of the same samples, and its warnings. Raises kerntime.Error when the name is taken.")
      .def(
          "add_samples",
          [](Report& r, std::string name, std::vector<double> samples, std::string timer,
             std::string unit, std::optional<int> device) {
            if (r.find(name) != nullptr) {
              throw Error("the report already has an entry named '" + name +
                          "'; give each entry a unique name");
            }
            r.entries.push_back(entry_of_samples(std::move(name), std::move(samples),
                                                 std::move(timer), std::move(unit), device));
          },
          "name"_a, "samples"_a, "timer"_a = "python", "unit"_a = "ns", "device"_a = nb::none(),
          "Appends an entry of samples timed some other way (in `unit`, ns by default).")
      .def(
          "add_warning", [](Report& r, std::string warning) { r.warnings.push_back(warning); },
          "warning"_a)
      .def(
          "to_json", [](const Report& r) { return to_json(r); },
          "kerntime-report/1 JSON, pretty-printed, samples kept.")
      .def(
          "render",
          [](const Report& r, std::string_view format) { return render(r, parse_format(format)); },
          "format"_a = "table", "The report as \"table\", \"markdown\", \"csv\" or \"json\".")
      .def(
          "write", [](const Report& r, const std::string& path) { write_report_file(r, path); },
          "path"_a, nb::call_guard<nb::gil_scoped_release>(),
          "Writes the JSON to `path`, replacing it atomically; errors name the path.")
      .def("__repr__", [](const Report& r) {
        return "<Report: " + std::to_string(r.entries.size()) + " entries, " +
               std::to_string(r.warnings.size()) + " warnings" +
               (r.trace ? ", with a trace>" : ">");
      });

  m.def(
      "parse_report",
      [](std::string_view text, const std::string& source) {
        return parse_any_report(text, source);
      },
      "text"_a, "source"_a = "report",
      "Parses a report in kerntime's, Google Benchmark's or NVBench's JSON; errors name "
      "`source`, the entry and the field.");
  m.def(
      "read_report", [](const std::string& path) { return read_any_report_file(path); }, "path"_a,
      nb::call_guard<nb::gil_scoped_release>(),
      "Reads and parses a report file in kerntime's, Google Benchmark's or NVBench's JSON (at "
      "most 1 GiB; NVBench's sample files beside it), as the kerntime command does; errors name "
      "the path.");
  m.def(
      "merge_reports",
      [](const std::vector<Report>& reports, const std::vector<std::string>& sources) {
        return merge_reports(reports, sources);
      },
      "reports"_a, "sources"_a = std::vector<std::string>{},
      "Reports of repeated runs merged into one, each report a run of every entry it has.");
  m.def(
      "render_measurements",
      [](const std::vector<Measurement>& measurements, const Report& report,
         std::string_view format) { return render(measurements, report, parse_format(format)); },
      "measurements"_a, "report"_a, "format"_a = "table",
      "The engine's measurements with the benchmark runner's columns (headline and its timer, "
      "event time, spread, throughput, SM clock, stop reason); \"json\" renders `report`.");
}

}  // namespace

void bind_reports(nb::module_& m) {
  bind_statistics(m);
  bind_environment(m);
  bind_gpu_status(m);
  bind_report(m);
}

}  // namespace kerntime::python
