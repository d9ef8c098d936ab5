# SPDX-License-Identifier: Apache-2.0
"""What the benchmark scripts share: kernels of known length, the CUPTI reference, the machine."""

from __future__ import annotations

import statistics
import time
from typing import Callable, Dict, List

import torch
import triton
import triton.language as tl

import kerntime
import profiler_calls

try:
    from triton.language.extra.cuda import globaltimer
except ImportError:  # older Triton: CuPy's RawKernel below
    globaltimer = None

if globaltimer is not None:

    @triton.jit
    def kerntime_bench_spin(ns):
        start = globaltimer()
        while globaltimer() - start < ns:
            pass


@triton.jit
def kerntime_bench_copy(src, dst, n, BLOCK: tl.constexpr):
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    tl.store(dst + i, tl.load(src + i, mask=mask), mask=mask)


_CUPY_SPIN = r"""
extern "C" __global__ void kerntime_bench_spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now)); } while (now - start < ns);
}
"""


def spin(ns: int) -> Callable[[], None]:
    """One launch of a kernel that busy-waits `ns` on %globaltimer (Triton, else CuPy)."""
    if globaltimer is not None:
        launch = lambda: kerntime_bench_spin[(1,)](ns, num_warps=1)
        try:
            launch()
            torch.cuda.synchronize()
            return launch
        except Exception as error:  # a Triton that cannot compile the loop: CuPy's kernel
            print(f"note: the Triton spin does not compile here ({error}); using CuPy's RawKernel")
    import cupy

    kernel = cupy.RawKernel(_CUPY_SPIN, "kerntime_bench_spin")
    arg = cupy.uint64(ns)
    return lambda: kernel((1,), (1,), (arg,))


def copy(nbytes: int) -> Callable[[], None]:
    """A bandwidth-bound copy of `nbytes` (Triton, 16-byte accesses)."""
    n = nbytes // 4
    src = torch.randn(n, device="cuda")
    dst = torch.empty_like(src)
    block = 4096
    grid = (triton.cdiv(n, block),)
    return lambda: kerntime_bench_copy[grid](src, dst, n, BLOCK=block)


class Flush:
    """The engine's cold protocol (src/bench/cuda_source.cpp, flush_l2): a write of the L2's size
    before each reference call, each time another byte, outside the call's span. The engine's is
    a cudaMemsetAsync and this a fill kernel; both leave the L2 full of the flush's dirty lines."""

    def __init__(self) -> None:
        l2 = torch.cuda.get_device_properties(torch.cuda.current_device()).L2_cache_size
        self.buffer = torch.empty(l2, dtype=torch.uint8, device="cuda")
        self.count = 0

    def __call__(self) -> None:
        self.count += 1
        self.buffer.fill_(self.count & 0xFF)


def cupti_reference(fn: Callable[[], None], calls: int = 200, flush: bool = True) -> List[float]:
    """CUPTI's GPU span of each of `calls` plain calls of `fn` (first kernel start to last kernel
    end of the call, in ns), launched back to back from Python with nothing else in the way:
    kerntime.Tracer records them, a kerntime.scope per call groups them."""
    flusher = Flush() if flush else None
    session = kerntime.Session(name_faulting_scopes=False)
    fn()
    torch.cuda.synchronize()
    with kerntime.Tracer() as tracer:
        if not tracer.active:
            raise SystemExit(f"no CUPTI reference: {tracer.unavailable_reason}")
        for _ in range(calls):
            if flusher:
                flusher()
            with session.scope("reference"):
                fn()
        torch.cuda.synchronize()
    spans: Dict[int, List[int]] = {}
    for k in tracer.trace().kernels:
        if k["scope"] == "reference":
            first_last = spans.setdefault(k["scope_id"], [k["start_ns"], k["end_ns"]])
            first_last[0] = min(first_last[0], k["start_ns"])
            first_last[1] = max(first_last[1], k["end_ns"])
    if len(spans) != calls:
        raise SystemExit(f"the CUPTI reference saw {len(spans)} of {calls} calls")
    return [float(end - start) for start, end in spans.values()]


def profiler_gpu_events(prof) -> List[tuple]:
    """The GPU activities a finished torch.profiler.profile recorded: (start_ns, end_ns, name),
    by start time."""
    events = []
    for e in prof.profiler.kineto_results.events():
        if not str(e.device_type()).endswith("CUDA"):
            continue
        start = e.start_ns() if hasattr(e, "start_ns") else e.start_us() * 1000
        length = e.duration_ns() if hasattr(e, "duration_ns") else e.duration_us() * 1000
        events.append((start, start + length, e.name()))
    events.sort()
    return events


def profiler_reference(fn: Callable[[], None], calls: int = 200, flush: bool = True) -> List[float]:
    """What torch.profiler, a reader that is not kerntime, sees of each of `calls` plain calls of
    `fn`, with the engine's cold protocol: a marker kernel that tells the calls apart (where the
    engine has its blocking kernel), the L2 flush, then the call; each call's GPU span from its
    first kernel's start to its last kernel's end (ns). The call's own kernels all count, fills
    and zeroings included (profiler_calls.py). CUPTI must be free: call kerntime.release_tracer()
    first."""
    from torch.profiler import ProfilerActivity, profile

    flusher = Flush() if flush else None
    marker = spin(2_000)
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            marker()
            if flusher:
                flusher()
            fn()
        torch.cuda.synchronize()
    try:
        groups = profiler_calls.calls_of(profiler_gpu_events(prof), calls, flusher is not None)
    except ValueError as error:
        raise SystemExit(f"the torch.profiler reference: {error}")
    if len(groups) != calls:
        raise SystemExit(f"the torch.profiler reference saw {len(groups)} of {calls} calls")
    return profiler_calls.spans_ns(groups)


def median(values: List[float]) -> float:
    return statistics.median(values)


def timed(call: Callable[[], object]):
    """(result, wall seconds) of one call."""
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def machine() -> str:
    status = kerntime.gpu_status()
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    cupti = kerntime.cupti_availability()
    return (f"{props.name}, driver {status.driver_release or status.driver_version}, CUDA runtime "
            f"{status.runtime_version // 1000}.{status.runtime_version % 1000 // 10} (kerntime), "
            f"torch {torch.__version__} (CUDA {torch.version.cuda}), triton {triton.__version__}, "
            f"CUPTI {cupti.api_version}, kerntime {kerntime.__version__}, "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
