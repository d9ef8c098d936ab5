# SPDX-License-Identifier: Apache-2.0
"""Reports of Python measurements in kerntime-report/1, written by the C++ writer."""

from __future__ import annotations

from typing import Iterable, Optional, Union

from . import _kerntime

Results = Union[_kerntime.Measurement, _kerntime.Report, Iterable[_kerntime.Measurement]]


def make_report(results: Results, *, trace: Optional[Union[_kerntime.Trace, _kerntime.Tracer]] = None) -> _kerntime.Report:
    """A Report of `results`: one Measurement, several, or a Report as is; each measurement
    adds its headline entry, NAME/events and its warnings, and the environment is that of the
    measured devices. `trace` (a Trace or a Tracer) adds the per-kernel summary and records."""
    if isinstance(results, _kerntime.Report):
        report = results
    else:
        measurements = [results] if isinstance(results, _kerntime.Measurement) else list(results)
        for item in measurements:
            if not isinstance(item, _kerntime.Measurement):
                raise TypeError(f"a report is made of kerntime.Measurement objects, got {type(item).__name__}")
        report = _kerntime.Report(devices=sorted({m.device for m in measurements}))
        for m in measurements:
            report.add(m)
    if trace is not None:
        if isinstance(trace, _kerntime.Tracer):
            trace.flush()
            trace = trace.trace()
        _kerntime.attach_trace(report, trace)
    return report


def write_report(path: str, results: Results, *,
                 trace: Optional[Union[_kerntime.Trace, _kerntime.Tracer]] = None) -> _kerntime.Report:
    """Writes make_report(results, trace=trace) to `path` as kerntime-report/1 JSON (atomically:
    a reader sees the old file or the new one), so `kerntime compare base.json path` gates it
    exactly like a report of the C++ runner. Returns the report."""
    report = make_report(results, trace=trace)
    report.write(path)
    return report
