// SPDX-License-Identifier: Apache-2.0
// CUPTI tracing (tracer.hpp, trace.hpp, trace_format.hpp): the Tracer, its Trace, the
// per-kernel and per-scope summaries as Python data and as the C++ API's tables. The records of a
// Trace point into text the Trace owns, so they reach Python as dicts of copied values.
#include <cstdint>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/report.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/trace.hpp>
#include <kerntime/trace_format.hpp>
#include <kerntime/tracer.hpp>

#include "bindings.hpp"

namespace kerntime::python {
namespace {

using namespace nb::literals;

std::tuple<std::uint32_t, std::uint32_t, std::uint32_t> dims(const Dim3& d) {
  return {d.x, d.y, d.z};
}

std::string status_name(TracerStatus status) {
  switch (status) {
    case TracerStatus::active:
      return "active";
    case TracerStatus::unavailable:
      return "unavailable";
    case TracerStatus::stopped:
      return "stopped";
    case TracerStatus::starved:
      return "starved";
  }
  return "unknown";
}

void put_span(nb::dict& d, const GpuSpan& s) {
  d["device"] = s.device;
  d["context"] = s.context;
  d["stream"] = s.stream;
  d["start_ns"] = s.start_ns;
  d["end_ns"] = s.end_ns;
  d["duration_ns"] = s.duration_ns();
  d["correlation_id"] = s.correlation_id;
  d["graph_id"] = s.graph_id;
  d["graph_node_id"] = s.graph_node_id;
}

void put_attribution(nb::dict& d, const Attribution& a) {
  d["scope_id"] = a.scope_id;
  d["scope"] = std::string{a.scope_name};
  if (a.launch) {
    d["launch"] = std::string{a.launch->name};
    d["enqueue_ns"] = a.launch->enqueue_ns();
    d["thread_id"] = a.launch->thread_id;
  } else {
    d["launch"] = nb::none();
  }
}

nb::list kernel_records(const Trace& trace) {
  nb::list out;
  for (const KernelActivity& k : trace.kernels) {
    nb::dict d;
    d["name"] = std::string{k.name};
    d["mangled_name"] = std::string{k.mangled_name};
    put_span(d, k);
    d["grid"] = dims(k.grid);
    d["block"] = dims(k.block);
    d["registers_per_thread"] = k.registers_per_thread;
    d["static_shared_memory_bytes"] = k.static_shared_memory_bytes;
    d["dynamic_shared_memory_bytes"] = k.dynamic_shared_memory_bytes;
    put_attribution(d, k);
    d["queue_delay_ns"] = k.queue_delay_ns();
    out.append(d);
  }
  return out;
}

nb::list memcpy_records(const Trace& trace) {
  nb::list out;
  for (const MemcpyActivity& c : trace.memcpys) {
    nb::dict d;
    d["kind"] = std::string{to_string(c.kind)};
    put_span(d, c);
    d["bytes"] = c.bytes;
    d["source"] = std::string{to_string(c.source_kind)};
    d["destination"] = std::string{to_string(c.destination_kind)};
    d["bandwidth_gb_per_s"] = c.bandwidth_gb_per_s();
    put_attribution(d, c);
    out.append(d);
  }
  return out;
}

nb::list memset_records(const Trace& trace) {
  nb::list out;
  for (const MemsetActivity& s : trace.memsets) {
    nb::dict d;
    put_span(d, s);
    d["value"] = s.value;
    d["bytes"] = s.bytes;
    d["memory"] = std::string{to_string(s.memory_kind)};
    d["bandwidth_gb_per_s"] = s.bandwidth_gb_per_s();
    put_attribution(d, s);
    out.append(d);
  }
  return out;
}

nb::dict losses(const TraceLosses& t) {
  nb::dict d;
  d["dropped_records"] = t.dropped_records;
  d["zero_timestamp_records"] = t.zero_timestamp_records;
  d["inverted_timestamp_records"] = t.inverted_timestamp_records;
  d["unattributed_kernels"] = t.unattributed_kernels;
  d["kernels_before_launch"] = t.kernels_before_launch;
  d["unknown_records"] = t.unknown_records;
  return d;
}

KernelSummaryOptions summary_options(bool by_launch_config) {
  KernelSummaryOptions options;
  options.by_launch_config = by_launch_config;
  return options;
}

void bind_summaries(nb::module_& m) {
  nb::class_<KernelSummary>(m, "KernelSummary",
                            "One row of the per-kernel summary (the columns of nsys stats "
                            "cuda_gpu_kern_sum); times in ns.")
      .def_ro("name", &KernelSummary::name)
      .def_ro("instances", &KernelSummary::instances)
      .def_ro("total_ns", &KernelSummary::total_ns)
      .def_ro("time_percent", &KernelSummary::time_percent)
      .def_ro("average_ns", &KernelSummary::average_ns)
      .def_ro("median_ns", &KernelSummary::median_ns)
      .def_ro("min_ns", &KernelSummary::min_ns)
      .def_ro("max_ns", &KernelSummary::max_ns)
      .def_ro("stddev_ns", &KernelSummary::stddev_ns)
      .def_prop_ro("grid", [](const KernelSummary& k) { return dims(k.grid); })
      .def_prop_ro("block", [](const KernelSummary& k) { return dims(k.block); })
      .def_ro("mixed_launch_config", &KernelSummary::mixed_launch_config)
      .def("__repr__", [](const KernelSummary& k) {
        return "<KernelSummary '" + k.name + "': " + std::to_string(k.instances) +
               " instances, median " + std::to_string(k.median_ns) + " ns>";
      });

  nb::class_<StreamSpan>(m, "StreamSpan", "GPU activity of a scope on one stream.")
      .def_ro("device", &StreamSpan::device)
      .def_ro("stream", &StreamSpan::stream)
      .def_ro("kernels", &StreamSpan::kernels)
      .def_ro("kernel_time_ns", &StreamSpan::kernel_time_ns)
      .def_ro("span_ns", &StreamSpan::span_ns);

  nb::class_<ScopeSummary>(m, "ScopeSummary",
                           "One row of the per-scope summary: every opening of one scope name. "
                           "Counts include nested scopes' kernels; self_* exclude them.")
      .def_ro("name", &ScopeSummary::name)
      .def_ro("instances", &ScopeSummary::instances)
      .def_ro("kernels", &ScopeSummary::kernels)
      .def_ro("kernel_time_ns", &ScopeSummary::kernel_time_ns)
      .def_ro("self_kernels", &ScopeSummary::self_kernels)
      .def_ro("self_kernel_time_ns", &ScopeSummary::self_kernel_time_ns)
      .def_ro("streams", &ScopeSummary::streams)
      .def_ro("instance_span_ns", &ScopeSummary::instance_span_ns,
              "per opening that launched kernels: first kernel start to last kernel end")
      .def_ro("instance_kernel_time_ns", &ScopeSummary::instance_kernel_time_ns);
}

void bind_trace_model(nb::module_& m) {
  nb::class_<Trace>(m, "Trace",
                    "Everything a Tracer recorded, correlated and attributed to scopes. Times are "
                    "ns on CUPTI's clock; compare durations and differences.")
      .def_prop_ro("kernels", &kernel_records, "every kernel as a dict, by start time")
      .def_prop_ro("memcpys", &memcpy_records)
      .def_prop_ro("memsets", &memset_records)
      .def_prop_ro("kernel_count", [](const Trace& t) { return t.kernels.size(); })
      .def_prop_ro("api_call_count", [](const Trace& t) { return t.api_calls.size(); })
      .def_prop_ro("scopes",
                   [](const Trace& t) {
                     nb::list out;
                     for (const TraceScope& s : t.scopes) {
                       nb::dict d;
                       d["id"] = s.id;
                       d["parent_id"] = s.parent_id;
                       d["name"] = std::string{s.name};
                       d["thread_id"] = s.thread_id;
                       out.append(d);
                     }
                     return out;
                   })
      .def_ro("warnings", &Trace::warnings, "what a reader must know before trusting numbers")
      .def_prop_ro(
          "losses", [](const Trace& t) { return losses(t); },
          "dropped, excluded and unattributed record counts")
      .def(
          "kernel_summary",
          [](const Trace& t, bool by_launch_config) {
            return summarize_kernels(t, summary_options(by_launch_config));
          },
          "by_launch_config"_a = false,
          "Per-kernel-name rows, largest total first (per name, grid and block when "
          "by_launch_config).")
      .def("scope_summary", &summarize_scopes, "Per-scope-name rows, in order of first opening.")
      .def(
          "kernel_table",
          [](const Trace& t, std::string_view format, bool by_launch_config) {
            return render_kernel_summary(t, parse_format(format),
                                         summary_options(by_launch_config));
          },
          "format"_a = "table", "by_launch_config"_a = false,
          "The per-kernel table (\"table\", \"markdown\", \"csv\" or \"json\").")
      .def(
          "scope_table",
          [](const Trace& t, std::string_view format, const Report* events) {
            return render_scope_summary(t, parse_format(format), events);
          },
          "format"_a = "table", "events"_a.none() = nb::none(),
          "The per-scope table; with `events` (a Session's report) each scope's median "
          "cudaEvent time beside its GPU span.")
      .def("to_chrome_trace", &to_chrome_trace,
           "Chrome trace JSON for ui.perfetto.dev (one track per stream and host thread).")
      .def("write_chrome_trace", &write_chrome_trace, "path"_a,
           nb::call_guard<nb::gil_scoped_release>(), "Writes to_chrome_trace() to `path`.")
      .def("__repr__", [](const Trace& t) {
        return "<Trace: " + std::to_string(t.kernels.size()) + " kernels, " +
               std::to_string(t.memcpys.size()) + " copies, " + std::to_string(t.memsets.size()) +
               " memsets, " + std::to_string(t.scopes.size()) + " scopes>";
      });

  m.def(
      "attach_trace",
      [](Report& report, const Trace& trace, std::size_t max_records_per_kind,
         bool by_launch_config) {
        TraceReportOptions options;
        options.max_records_per_kind = max_records_per_kind;
        options.summary = summary_options(by_launch_config);
        attach_trace(report, trace, options);
      },
      "report"_a, "trace"_a, "max_records_per_kind"_a = 100'000, "by_launch_config"_a = false,
      "Puts the trace's per-kernel summary, records (up to the limit) and loss counts into "
      "`report`, and its warnings among the report's.");
}

void bind_tracer(nb::module_& m) {
  nb::class_<CuptiAvailability>(m, "CuptiAvailability", "Whether CUPTI loads, and which library.")
      .def_ro("loads", &CuptiAvailability::loads)
      .def_ro("path", &CuptiAvailability::path)
      .def_ro("api_version", &CuptiAvailability::api_version)
      .def_ro("problem", &CuptiAvailability::problem);
  m.def("cupti_availability", &cupti_availability,
        "Loads libcupti once (KERNTIME_CUPTI_LIBRARY, beside the loaded libcudart, the loader's "
        "path) and says how that went; starts no tracing, never raises.");

  nb::class_<Tracer>(m, "Tracer", nb::is_weak_referenceable(),
                     "A CUPTI tracing session (C++ kerntime::Tracer): every kernel, copy, memset "
                     "and launch call of the process, PyTorch's and cuBLAS's included, attributed "
                     "to the kerntime scopes open at launch. Without CUPTI, or with another tool "
                     "holding it, status is \"unavailable\" and unavailable_reason says why; "
                     "nothing raises. One Tracer is active per process at a time.")
      .def(
          "__init__",
          [](Tracer* self, bool runtime_api, bool driver_api, bool memcpy, bool memset,
             bool synchronization, bool scopes, std::size_t buffer_bytes,
             std::size_t preallocated_buffers, std::size_t max_buffers, bool background_reading) {
            TracerOptions options;
            options.runtime_api = runtime_api;
            options.driver_api = driver_api;
            options.memcpy = memcpy;
            options.memset = memset;
            options.synchronization = synchronization;
            options.scopes = scopes;
            options.buffer_bytes = buffer_bytes;
            options.preallocated_buffers = preallocated_buffers;
            options.max_buffers = max_buffers;
            options.background_reading = background_reading;
            nb::gil_scoped_release released;
            new (self) Tracer(options);
          },
          "runtime_api"_a = true, "driver_api"_a = true, "memcpy"_a = true, "memset"_a = true,
          "synchronization"_a = true, "scopes"_a = true, "buffer_bytes"_a = std::size_t{8} << 20,
          "preallocated_buffers"_a = 4, "max_buffers"_a = 64, "background_reading"_a = true,
          "Starts tracing (C++ kerntime::TracerOptions). Raises kerntime.Error only for invalid "
          "options.")
      .def_prop_ro(
          "status", [](const Tracer& t) { return status_name(t.status()); },
          "\"active\", \"unavailable\", \"stopped\" or \"starved\" (another CUPTI client "
          "receives the records)")
      .def_prop_ro("active", &Tracer::active)
      .def_prop_ro("unavailable_reason", &Tracer::unavailable_reason)
      .def_prop_ro("cupti_version", &Tracer::cupti_version)
      .def("flush", &Tracer::flush, nb::call_guard<nb::gil_scoped_release>(),
           "Synchronizes every device, then has CUPTI hand over every record, and reads them.")
      .def("trace", &Tracer::trace, nb::call_guard<nb::gil_scoped_release>(),
           "Everything read so far; flush() first to include the latest work.")
      .def("clear", &Tracer::clear, nb::call_guard<nb::gil_scoped_release>(),
           "Forgets the records read so far; scopes stay known.")
      .def("stop", &Tracer::stop, nb::call_guard<nb::gil_scoped_release>(),
           "flush(), then stops recording and releases CUPTI; records are kept. Idempotent.");
}

}  // namespace

void bind_trace(nb::module_& m) {
  bind_summaries(m);
  bind_trace_model(m);
  bind_tracer(m);
}

}  // namespace kerntime::python
