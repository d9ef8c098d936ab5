# SPDX-License-Identifier: Apache-2.0
"""kerntime: GPU time, not enqueue time, for CUDA kernels launched from Python.

    import kerntime
    m = kerntime.measure(lambda: a @ b)         # the engine: CUPTI time of exactly that work
    print(m.median_ns, m.headline_timer, m.stop_reason)
    ms = kerntime.do_bench(fn)                  # triton.testing.do_bench's signature, in ms
    with kerntime.scope("step"):                # a ScopedTimer on the current stream
        model(x)
    with kerntime.Tracer() as tracer:           # every kernel, PyTorch's internals included
        model(x)
    print(tracer.kernel_table())
    kerntime.write_report("bench.json", [m])    # kerntime compare base.json bench.json

Importing needs no GPU; GPU calls without one raise kerntime.Error (a RuntimeError) with
kerntime's one-line reason. See docs/python.md.
"""

from ._kerntime import (
    CuptiAvailability,
    DeviceInfo,
    Entry,
    Environment,
    Error,
    GpuStatus,
    KernelSummary,
    Measurement,
    Region,
    Report,
    SampleColumn,
    SampleRecord,
    Scope,
    ScopeSummary,
    Session,
    Statistics,
    StreamSpan,
    SummaryOnly,
    Throughput,
    Trace,
    Work,
    __version__,
    attach_trace,
    compute_statistics,
    cupti_availability,
    current_environment,
    current_stream,
    default_session,
    device_synchronize,
    devices,
    format_duration,
    gpu_status,
    merge_reports,
    parse_report,
    read_report,
    render_measurements,
    require_gpu,
    scope,
)
from ._measure import do_bench, last_measurement, measure
from ._process import process_tracer, release_tracer
from ._reports import make_report, write_report
from ._tracing import Tracer

__all__ = [
    "CuptiAvailability",
    "DeviceInfo",
    "Entry",
    "Environment",
    "Error",
    "GpuStatus",
    "KernelSummary",
    "Measurement",
    "Region",
    "Report",
    "SampleColumn",
    "SampleRecord",
    "Scope",
    "ScopeSummary",
    "Session",
    "Statistics",
    "StreamSpan",
    "SummaryOnly",
    "Throughput",
    "Trace",
    "Tracer",
    "Work",
    "__version__",
    "attach_trace",
    "compute_statistics",
    "cupti_availability",
    "current_environment",
    "current_stream",
    "default_session",
    "device_synchronize",
    "devices",
    "do_bench",
    "format_duration",
    "gpu_status",
    "last_measurement",
    "make_report",
    "measure",
    "merge_reports",
    "parse_report",
    "process_tracer",
    "read_report",
    "release_tracer",
    "render_measurements",
    "require_gpu",
    "scope",
    "write_report",
]
