// SPDX-License-Identifier: Apache-2.0
// The benchmark engine (measure.hpp, measurement.hpp, throughput.hpp) with a Python callable as
// the launcher. The engine waits for the GPU with the GIL released; each launcher call takes the
// GIL back, and nothing else: binding the engine's stream to PyTorch or CuPy happens once per
// measurement, in the Python callback `on_stream` (kerntime/_streams.py).
#include <cstdint>
#include <mutex>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kerntime/duration.hpp>
#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/measurement.hpp>
#include <kerntime/report.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/throughput.hpp>
#include <kerntime/tracer.hpp>

#include "bindings.hpp"

namespace kerntime::python {
namespace {

using namespace nb::literals;

/// One Engine for the process (per device it keeps its stream, events and flush buffer), with
/// the lock that lets one thread measure at a time. The lock is taken with the GIL released: a
/// second thread waiting for it must not hold the GIL the first one's launcher needs.
struct PyEngine {
  Engine engine;
  std::mutex mutex;
};

// A measured function that calls measure() again would wait for its own lock.
thread_local bool measuring_here = false;

/// The launcher the engine calls: takes the GIL, tells `on_stream` the first time it sees a
/// stream, calls the function. The handles are borrowed: the caller's frame keeps them alive for
/// the whole measurement, and the engine never copies the launcher.
struct PythonLauncher {
  PyObject* function;
  PyObject* on_stream;  // may be null
  cudaStream_t* bound;
  bool* have_bound;

  void operator()(cudaStream_t stream) const {
    nb::gil_scoped_acquire gil;
    if (on_stream != nullptr && (!*have_bound || *bound != stream)) {
      int device = 0;
      check_cuda_call(cudaGetDevice(&device), "cudaGetDevice (binding the engine's stream)");
      nb::handle{on_stream}(reinterpret_cast<std::uintptr_t>(stream), device);
      *bound = stream;
      *have_bound = true;
    }
    nb::handle{function}();
  }
};

Measurement measure_with(PyEngine& self, nb::callable function, const MeasureOptions& options,
                         nb::object on_stream, Tracer* tracer) {
  if (measuring_here) {
    throw Error(
        "kerntime.measure was called from inside a function it is measuring; measure the inner "
        "work on its own instead");
  }
  MeasureOptions chosen = options;
  chosen.tracer = tracer;
  cudaStream_t bound = nullptr;
  bool have_bound = false;
  const PythonLauncher call{function.ptr(), on_stream.is_none() ? nullptr : on_stream.ptr(), &bound,
                            &have_bound};
  const Launcher launcher = call;
  struct Flag {
    Flag() { measuring_here = true; }
    ~Flag() { measuring_here = false; }
  } flag;
  nb::gil_scoped_release released;
  std::lock_guard lock{self.mutex};
  return self.engine.measure(launcher, chosen);
}

std::string measurement_repr(const Measurement& m) {
  return "<Measurement '" + m.name + "': median " + format_duration(m.headline.median) + " (" +
         m.headline_timer + "), " + std::to_string(m.headline.count) + " samples, " +
         m.info.stop_reason +
         (m.warnings.empty() ? ">" : ", " + std::to_string(m.warnings.size()) + " warnings>");
}

Report report_of(const Measurement& m) {
  Report report;
  report.environment = current_environment({m.device});
  add_to_report(report, m);
  return report;
}

void bind_options(nb::module_& m) {
  nb::class_<Work>(m, "Work",
                   "Declared work of one launcher call: bytes read + written, flops, elements.")
      .def(nb::init<>())
      .def_rw("bytes", &Work::bytes)
      .def_rw("flops", &Work::flops)
      .def_rw("elements", &Work::elements);

  nb::class_<StoppingCriteria>(m, "StoppingCriteria",
                               "When sampling stops; the first rule met ends the measurement "
                               "(C++ kerntime::StoppingCriteria).")
      .def(nb::init<>())
      .def_rw("min_samples", &StoppingCriteria::min_samples)
      .def_rw("min_time_s", &StoppingCriteria::min_time_s)
      .def_rw("max_noise", &StoppingCriteria::max_noise)
      .def_rw("max_ci_half_width", &StoppingCriteria::max_ci_half_width)
      .def_rw("max_ci_half_width_ns", &StoppingCriteria::max_ci_half_width_ns)
      .def_rw("timeout_s", &StoppingCriteria::timeout_s)
      .def_rw("fixed_samples", &StoppingCriteria::fixed_samples)
      .def_rw("max_samples", &StoppingCriteria::max_samples);

  nb::class_<MeasureOptions>(m, "MeasureOptions",
                             "Options of one measurement (C++ kerntime::MeasureOptions; "
                             "kerntime.measure() fills them from its keyword arguments).")
      .def(nb::init<>())
      .def_rw("name", &MeasureOptions::name)
      .def_prop_rw(
          "mode", [](const MeasureOptions& o) { return std::string{to_string(o.mode)}; },
          [](MeasureOptions& o, std::string_view mode) { o.mode = parse_measure_mode(mode); },
          "\"cold\", \"hot\" or \"graph\"")
      .def_rw("device", &MeasureOptions::device)
      .def_rw("l2_flush", &MeasureOptions::l2_flush)
      .def_rw("stopping", &MeasureOptions::stopping)
      .def_rw("warmup_samples", &MeasureOptions::warmup_samples)
      .def_rw("warmup_min_time_s", &MeasureOptions::warmup_min_time_s)
      .def_rw("work", &MeasureOptions::work)
      .def_rw("blocking_timeout_s", &MeasureOptions::blocking_timeout_s)
      .def_rw("throttle_threshold", &MeasureOptions::throttle_threshold)
      .def_rw("throttle_recovery_s", &MeasureOptions::throttle_recovery_s)
      .def_rw("batch_size", &MeasureOptions::batch_size)
      .def_rw("batch_target_s", &MeasureOptions::batch_target_s);
}

void bind_measurement(nb::module_& m) {
  nb::class_<Throughput>(m, "Throughput", "Rates of the declared work at the headline median.")
      .def_ro("gb_per_s", &Throughput::gb_per_s, "10^9 bytes per second")
      .def_ro("tflop_per_s", &Throughput::tflop_per_s, "10^12 floating-point operations per second")
      .def_ro("peak_bandwidth_percent", &Throughput::peak_bandwidth_percent,
              "gb_per_s as a share of the device's peak DRAM bandwidth")
      .def_ro("elements_per_s", &Throughput::elements_per_s, "declared elements per second");

  nb::class_<SampleRecord>(m, "SampleRecord",
                           "One sample as the engine took it, per launcher call.")
      .def_ro("event_ns", &SampleRecord::event_ns, "the cudaEvent pair around the sample")
      .def_ro("cupti_sum_ns", &SampleRecord::cupti_sum_ns,
              "sum of the sample's kernel, copy and memset durations, per call")
      .def_ro("cupti_ns", &SampleRecord::cupti_ns,
              "GPU span of the sample's kernels, copies and memsets; None without CUPTI")
      .def_ro("sm_clock_mhz", &SampleRecord::sm_clock_mhz)
      .def_ro("clock_event_reasons", &SampleRecord::clock_event_reasons,
              "NVML's clocks event reasons bitmask as the sample completed (0x4: software power "
              "cap); None without NVML")
      .def_ro("power_w", &SampleRecord::power_w, "NVML's power draw then; None without NVML")
      .def_ro("valid", &SampleRecord::valid)
      .def_ro("throttled", &SampleRecord::throttled)
      .def_ro("host_overhead_ns", &SampleRecord::host_overhead_ns);

  nb::class_<Measurement>(m, "Measurement",
                          "The result of kerntime.measure(): every sample, the statistics of "
                          "those that count, why sampling stopped, the rates of declared work "
                          "(C++ kerntime::Measurement). Times are ns per launcher call.")
      .def_ro("name", &Measurement::name)
      .def_prop_ro("mode", [](const Measurement& x) { return x.info.mode; })
      .def_ro("device", &Measurement::device)
      .def_ro("headline_timer", &Measurement::headline_timer,
              "\"cupti-kernel\", \"cuda-event-corrected\" (cold event time minus the launch "
              "floor) or \"cuda-event-batch\"")
      .def_ro("headline_ns", &Measurement::headline_ns,
              "the headline time of every counted sample, in order (a copy)")
      .def_ro("headline", &Measurement::headline, "statistics of headline_ns")
      .def_prop_ro(
          "median_ns", [](const Measurement& x) { return x.headline.median; },
          "the headline median in ns")
      .def_prop_ro(
          "median_ms", [](const Measurement& x) { return x.headline.median / 1e6; },
          "the headline median in ms (triton.testing.do_bench's unit)")
      .def_ro("events", &Measurement::events, "raw cudaEvent time of the counted samples")
      .def_ro("cupti", &Measurement::cupti,
              "CUPTI span (first start to last end) of the counted samples; None without it")
      .def_ro("cupti_sum", &Measurement::cupti_sum,
              "CUPTI sum of each counted sample's activity durations (gaps left out); None "
              "without it")
      .def_prop_ro(
          "median_cupti_sum_ns", [](const Measurement& x) { return x.info.median_cupti_sum_ns; },
          "median sum of a call's kernel, copy and memset durations; None without CUPTI")
      .def_prop_ro(
          "activities_per_call", [](const Measurement& x) { return x.info.activities_per_call; },
          "median kernels, copies and memsets per call; None without CUPTI")
      .def_ro("samples", &Measurement::samples, "every sample in order, excluded ones included")
      .def_prop_ro("warmup_samples", [](const Measurement& x) { return x.info.warmup_samples; })
      .def_prop_ro(
          "batch_size", [](const Measurement& x) { return x.info.batch_size; },
          "launcher calls per sample")
      .def_prop_ro("invalid_samples", [](const Measurement& x) { return x.info.invalid_samples; })
      .def_prop_ro("throttled_samples",
                   [](const Measurement& x) { return x.info.throttled_samples; })
      .def_prop_ro("blocking_kernel", [](const Measurement& x) { return x.info.blocking_kernel; })
      .def_prop_ro("l2_flushed", [](const Measurement& x) { return x.info.l2_flushed; })
      .def_prop_ro("event_floor_ns", [](const Measurement& x) { return x.info.event_floor_ns; })
      .def_prop_ro("normal_sm_clock_mhz",
                   [](const Measurement& x) { return x.info.normal_sm_clock_mhz; })
      .def_prop_ro("median_sm_clock_mhz",
                   [](const Measurement& x) { return x.info.median_sm_clock_mhz; })
      .def_prop_ro(
          "slowed_samples", [](const Measurement& x) { return x.info.slowed_samples; },
          "counted samples during which NVML said a power or thermal cap held the clock down")
      .def_prop_ro(
          "clock_event_reasons", [](const Measurement& x) { return x.info.clock_event_reasons; },
          "those samples' reasons, e.g. \"sw-power-cap\"; \"\" when none")
      .def_prop_ro("median_power_w", [](const Measurement& x) { return x.info.median_power_w; })
      .def_prop_ro(
          "stop_reason", [](const Measurement& x) { return x.info.stop_reason; },
          "\"fixed-count\", \"stable\", \"noise\", \"max-samples\" or \"timeout\"")
      .def_prop_ro("stop_detail", [](const Measurement& x) { return x.info.stop_detail; })
      .def_ro("median_ci_half_width", &Measurement::median_ci_half_width)
      .def_prop_ro(
          "wall_time_s", [](const Measurement& x) { return x.info.wall_time_s; },
          "warm-up and sampling")
      .def_prop_ro("host_overhead_ns", [](const Measurement& x) { return x.info.host_overhead_ns; })
      .def_prop_ro("work", [](const Measurement& x) { return x.info.work; })
      .def_prop_ro("throughput", [](const Measurement& x) { return x.info.throughput; })
      .def_rw("warnings", &Measurement::warnings,
              "what a reader must know before trusting the numbers (kerntime.measure adds its own)")
      .def("to_report", &report_of,
           "A report of this measurement (environment of its device, its two entries).")
      .def(
          "to_json", [](const Measurement& x) { return to_json(report_of(x)); },
          "to_report() as kerntime-report/1 JSON.")
      .def(
          "render",
          [](const Measurement& x, std::string_view format) {
            return render(std::vector<Measurement>{x}, report_of(x), parse_format(format));
          },
          "format"_a = "table", "The benchmark runner's table of this measurement.")
      .def("__repr__", &measurement_repr);
}

}  // namespace

void bind_engine(nb::module_& m) {
  bind_options(m);
  bind_measurement(m);

  nb::class_<PyEngine>(m, "Engine",
                       "The benchmark engine (C++ kerntime::Engine): per device a stream, event "
                       "pairs, the blocking kernel's control block, the L2 flush buffer and the "
                       "calibrated launch floor, made once. kerntime.measure() keeps one per "
                       "process; one thread measures at a time.")
      .def(nb::init<>())
      .def("measure", &measure_with, "function"_a, "options"_a, "on_stream"_a = nb::none(),
           "tracer"_a.none() = nb::none(),
           "Measures `function` (no arguments; it launches GPU work on the current stream) "
           "until a stopping rule is met. `on_stream(handle, device)` is called once, before the "
           "first call, with the engine's stream. The function's own exceptions propagate "
           "unchanged; CUDA failures raise kerntime.Error.");
}

}  // namespace kerntime::python
