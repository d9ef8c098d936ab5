# SPDX-License-Identifier: Apache-2.0
"""kerntime.measure() and kerntime.do_bench(): the benchmark engine on a Python callable."""

from __future__ import annotations

import functools
import math
import numbers
import statistics
import threading
from typing import Any, Callable, Iterable, List, Optional, Sequence, Union

from . import _arguments, _kerntime, _process
from ._streams import StreamBinding, current_device

_measure_lock = threading.Lock()  # one measurement at a time; waiting releases the GIL
_local = threading.local()


def _name_of(fn: Any, fallback: str) -> str:
    while isinstance(fn, functools.partial):
        fn = fn.func
    name = getattr(fn, "__name__", None)
    if not isinstance(name, str) or not name or name.startswith("<"):
        return fallback
    return name


def measure(
    fn: Callable[[], Any],
    *,
    name: Optional[str] = None,
    mode: str = "cold",
    l2_flush: bool = True,
    device: Optional[int] = None,
    bytes: Optional[float] = None,
    flops: Optional[float] = None,
    elements: Optional[float] = None,
    min_samples: Optional[int] = None,
    max_samples: Optional[int] = None,
    fixed_samples: Optional[int] = None,
    min_time: Optional[float] = None,
    max_noise: Optional[float] = None,
    max_ci_half_width: Optional[float] = None,
    max_ci_half_width_ns: Optional[float] = None,
    timeout: Optional[float] = None,
    warmup_samples: Optional[int] = None,
    warmup_time: Optional[float] = None,
    batch_size: Optional[int] = None,
    batch_target: Optional[float] = None,
    blocking_timeout: Optional[float] = None,
    throttle_threshold: Optional[float] = None,
    throttle_recovery: Optional[float] = None,
    cupti: bool = True,
) -> _kerntime.Measurement:
    """Measures the GPU time of `fn` with kerntime's engine and returns a Measurement.

    `fn` takes no arguments and launches GPU work on the current stream without waiting for it
    (``lambda: a @ b``, a Triton kernel launch, a CuPy RawKernel call). For the length of the
    measurement the engine's stream is the current stream of PyTorch and CuPy (those already
    imported), so `fn` never handles a stream. The engine queues each sample behind a blocking
    kernel, so the timed window holds GPU execution only, and samples until the median is known
    to +-0.5 % (or 32 ns), or until `timeout` seconds. With CUPTI (the process's Tracer) the
    headline is each sample's CUPTI span, from the call's first kernel's start to its last
    kernel's end (the sum of their own durations is kept beside it: median_cupti_sum_ns);
    without it, the event time minus the calibrated launch floor plus the kernel fixed cost, and
    a warning says why.

    mode: "cold" (one call per sample, L2 flushed first when `l2_flush`), "hot" (a batch of
    back-to-back calls, caches warm) or "graph" (a captured CUDA graph of a batch; `fn` must not
    allocate or synchronize). device: the CUDA device (None: PyTorch's or CuPy's current one).
    bytes, flops, elements: the work of one call, for GB/s, TFLOP/s, % of peak bandwidth and
    items/s. The stopping
    and sampling options are those of the C++ MeasureOptions and StoppingCriteria, in seconds;
    None keeps the engine's default (min_samples 20, max_noise 0.005, max_ci_half_width 0.005,
    max_ci_half_width_ns 32, timeout 5 s, warmup_samples 2, warmup_time 0.01 s: more warm-up
    samples until that long has passed, blocking_timeout 1 s). cupti: False times with events
    only and starts no process Tracer; where no kernel fixed cost is remembered or cached, a cold
    measurement still uses CUPTI once per device to measure it, in this process or in a
    `kerntime calibrate` child process, and no argument prevents that (docs/python.md).

    A function that synchronizes (``.item()``, ``torch.cuda.synchronize()``) holds the blocking
    kernel until it gives up: that sample is invalid, the rest run without it, and a warning
    says so. Exceptions of `fn` propagate unchanged; CUDA failures and invalid options raise
    kerntime.Error.
    """
    if not callable(fn):
        raise TypeError(f"kerntime.measure needs a callable that launches GPU work, got {type(fn).__name__}")
    # The rules of the C++ engine's check (src/bench/validate.cpp), made here before any CUDA
    # call and in the words of these arguments; the engine checks them again.
    f = "kerntime.measure"
    whole, number = _arguments.integer, _arguments.real
    options = _kerntime.MeasureOptions()
    options.name = name if name is not None else _name_of(fn, "measure")
    options.mode = mode
    options.l2_flush = bool(l2_flush)
    chosen_device = None if device is None else whole(f, "device", device, 0, _arguments.INT_MAX)
    work = _kerntime.Work()
    work.bytes = 0.0 if bytes is None else number(f, "bytes", bytes, 0)
    work.flops = 0.0 if flops is None else number(f, "flops", flops, 0)
    work.elements = 0.0 if elements is None else number(f, "elements", elements, 0)
    options.work = work
    stopping = _kerntime.StoppingCriteria()
    for field, argument, value, check in (
        ("min_samples", "min_samples", min_samples, lambda a, v: whole(f, a, v, 1)),
        ("max_samples", "max_samples", max_samples, lambda a, v: whole(f, a, v, 1)),
        ("fixed_samples", "fixed_samples", fixed_samples, lambda a, v: whole(f, a, v, 0)),
        ("min_time_s", "min_time", min_time, lambda a, v: number(f, a, v, 0, unit=" of s")),
        ("max_noise", "max_noise", max_noise, lambda a, v: number(f, a, v, 0)),
        ("max_ci_half_width", "max_ci_half_width", max_ci_half_width, lambda a, v: number(f, a, v, 0)),
        ("max_ci_half_width_ns", "max_ci_half_width_ns", max_ci_half_width_ns,
         lambda a, v: number(f, a, v, 0, unit=" of ns")),
        ("timeout_s", "timeout", timeout, lambda a, v: number(f, a, v, 0, above=True, unit=" of s")),
    ):
        if value is not None:
            setattr(stopping, field, check(argument, value))
    if stopping.fixed_samples > stopping.max_samples:
        raise ValueError(f"{f}: fixed_samples must be at most max_samples ({stopping.max_samples}), "
                         f"got {stopping.fixed_samples}")
    options.stopping = stopping
    for field, argument, value, check in (
        ("warmup_samples", "warmup_samples", warmup_samples, lambda a, v: whole(f, a, v, 0)),
        ("warmup_min_time_s", "warmup_time", warmup_time,
         lambda a, v: number(f, a, v, 0, high=60, unit=" of s")),
        ("batch_size", "batch_size", batch_size, lambda a, v: whole(f, a, v, 0)),
        ("batch_target_s", "batch_target", batch_target,
         lambda a, v: number(f, a, v, 0, above=True, unit=" of s")),
        ("blocking_timeout_s", "blocking_timeout", blocking_timeout,
         lambda a, v: number(f, a, v, 0.001, high=600, unit=" of s")),
        ("throttle_threshold", "throttle_threshold", throttle_threshold,
         lambda a, v: number(f, a, v, 0, high=1, below=True)),
        ("throttle_recovery_s", "throttle_recovery", throttle_recovery,
         lambda a, v: number(f, a, v, 0, unit=" of s")),
    ):
        if value is not None:
            setattr(options, field, check(argument, value))
    options.device = current_device() if chosen_device is None else chosen_device
    return _measure_options(fn, options, cupti)


def _measure_options(fn: Callable[[], Any], options: _kerntime.MeasureOptions, cupti: bool) -> _kerntime.Measurement:
    if getattr(_local, "measuring", False):
        raise _kerntime.Error(
            "kerntime.measure was called from inside a function it is measuring; measure the "
            "inner work on its own instead")
    _kerntime.require_gpu()  # before CUPTI starts: without a GPU there is nothing to trace
    with _measure_lock:
        _local.measuring = True
        try:
            for attempt in (1, 2):
                with _process.lock:
                    tracer, note = _process.tracer_for_measurement(cupti)
                binding = StreamBinding()
                try:
                    result = _process.engine().measure(fn, options, binding, tracer)
                finally:
                    binding.close()
                with _process.lock:
                    again = _process.after_measurement(tracer, result)
                if not again or attempt == 2:
                    break
        finally:
            _local.measuring = False
    if note:
        result.warnings = result.warnings + [note]
    _local.last = result
    return result


def last_measurement() -> Optional[_kerntime.Measurement]:
    """The Measurement behind this thread's latest measure() or do_bench(), or None."""
    return getattr(_local, "last", None)


def _check_quantiles(qs: Sequence[float]) -> None:
    for q in qs:
        if isinstance(q, bool) or not isinstance(q, numbers.Real):
            raise TypeError(f"kerntime.do_bench: quantiles must be numbers, got {type(q).__name__}")
        if not 0 <= q <= 1:  # NaN too; Triton's words
            raise ValueError("Quantiles must be in the range [0, 1]")


def _quantiles(times: List[float], qs: Sequence[float]) -> List[float]:
    # Linear interpolation between order statistics, as triton.testing._quantile.
    _check_quantiles(qs)
    ordered = sorted(times)
    out = []
    for q in qs:
        point = q * (len(ordered) - 1)
        lower, upper = math.floor(point), math.ceil(point)
        t = point - lower
        out.append((1 - t) * ordered[lower] + t * ordered[upper])
    return out


_RETURN_MODES = ("min", "max", "mean", "median", "all")


def do_bench(
    fn: Callable[[], Any],
    warmup: float = 25,
    rep: float = 100,
    grad_to_none: Optional[Iterable[Any]] = None,
    quantiles: Optional[Sequence[float]] = None,
    return_mode: str = "mean",
) -> Union[float, List[float]]:
    """triton.testing.do_bench on kerntime's engine: the same signature, the same returns, in ms.

    Returns the `return_mode` ("min", "max", "mean", "median" or "all": every sample) of the
    per-sample GPU times in milliseconds (each the call's span, from its first kernel's start to
    its last kernel's end), or with `quantiles` the list of those quantiles
    (a single float for one), like Triton 3.x. Each sample is one cold call of `fn` behind the
    blocking kernel with L2 flushed, timed by CUPTI when available (kerntime.measure), so the
    times are the kernels', not the launch's. `grad_to_none`: tensors whose .grad is set to None
    before every call. `warmup` + `rep` (ms) is the time budget of the sampling (the engine's
    timeout); it stops sooner, once the median is known to +-0.5 %. Like Triton it calls `fn`
    once first and waits for it, outside the budget (compilation, module loading).

    To tune with it: ``triton.autotune(configs, key, do_bench=kerntime.do_bench)``.
    kerntime.last_measurement() holds the full Measurement, warnings included.
    """
    if return_mode not in _RETURN_MODES:
        raise ValueError(f"return_mode must be one of {', '.join(_RETURN_MODES)}; got {return_mode!r}")
    # Before any CUDA call: warmup=-1 made a budget of 99 ms out of nonsense, and a bad quantile
    # was found only after the whole measurement.
    if not callable(fn):
        raise TypeError(f"kerntime.do_bench needs a callable that launches GPU work, got {type(fn).__name__}")
    warmup = _arguments.real("kerntime.do_bench", "warmup", warmup, 0, unit=" of ms")
    rep = _arguments.real("kerntime.do_bench", "rep", rep, 0, unit=" of ms")
    if quantiles is not None:
        quantiles = list(quantiles)
        _check_quantiles(quantiles)
    _kerntime.require_gpu()
    call = fn
    if grad_to_none is not None:
        tensors = list(grad_to_none)

        def call() -> None:
            for x in tensors:
                x.grad = None
            fn()

    call()
    _kerntime.device_synchronize()
    m = measure(call, name=_name_of(fn, "do_bench"), mode="cold", l2_flush=True,
                timeout=max((warmup + rep) / 1e3, 1e-3))
    times = [t / 1e6 for t in m.headline_ns]
    if not times:
        raise _kerntime.Error(f"do_bench: no sample of {m.name} counted ({'; '.join(m.warnings) or m.stop_detail})")
    return _summarize(times, quantiles, return_mode)


def _summarize(times: List[float], quantiles: Optional[Sequence[float]], return_mode: str) -> Union[float, List[float]]:
    # As triton.testing._summarize_statistics: quantiles first, a single one as a float.
    if quantiles is not None:
        ret = _quantiles(times, quantiles)
        return ret[0] if len(ret) == 1 else ret
    if return_mode == "all":
        return times
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "mean":
        return statistics.mean(times)
    return statistics.median(times)
