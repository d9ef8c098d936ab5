# SPDX-License-Identifier: Apache-2.0
"""What the workloads of .ci/real-workloads share: skipping when a package is missing, timing a
fixed number of steps, and the one result line the script reads.

A workload prints, as its last line on standard output,
    workload-result {"program": NAME, "steps": N, "step_ms": [...], "step_ms_median": M}
or, when it cannot run here, "skipped: WHY" and exits 77 (the script counts that as a failure:
on the GPU machine everything it needs is installed)."""
import importlib
import json
import os
import statistics
import sys
import time

SKIP_STATUS = 77


def skip(why):
    print(f"skipped: {why}", flush=True)
    sys.exit(SKIP_STATUS)


def need(*modules):
    """The modules, imported; skips naming the first one missing."""
    loaded = []
    for name in modules:
        try:
            loaded.append(importlib.import_module(name))
        except Exception as e:  # ImportError, or a broken install that fails while importing
            skip(f"cannot import {name}: {type(e).__name__}: {e}")
    return loaded[0] if len(loaded) == 1 else loaded


def need_torch_cuda():
    torch = need("torch")
    if not torch.cuda.is_available():
        skip("torch.cuda.is_available() is False")
    return torch


# KERNTIME_STEP_THREADS=1: the result line also says where the process's CPU went during the
# steps, per thread (bench/run/thread_cpu.py), for the cost rounds (step_cost.py --threads).
_thread_cpu = None
if os.environ.get("KERNTIME_STEP_THREADS"):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                    "bench", "run"))
    import thread_cpu as _thread_cpu
_threads = {}


def time_steps(step, steps, warmup, synchronize):
    """Runs `step` warmup times, then `steps` times, each followed by `synchronize`; returns the
    wall time of each measured step (step and synchronize) in ms."""
    for _ in range(warmup):
        step()
        synchronize()
    times = []
    before = _thread_cpu.snapshot() if _thread_cpu else None
    for _ in range(steps):
        start = time.perf_counter()
        step()
        synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    if _thread_cpu:
        _threads.update(_thread_cpu.per_step(before, _thread_cpu.snapshot(), steps))
    return times


def result(program, step_ms, **extra):
    print("workload-result " + json.dumps({
        "program": program, "steps": len(step_ms), "step_ms": [round(t, 4) for t in step_ms],
        "step_ms_median": statistics.median(step_ms), **extra,
        **({"threads": _threads} if _threads else {})}), flush=True)
