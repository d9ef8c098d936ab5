# SPDX-License-Identifier: Apache-2.0
"""Host cost of kerntime.scope around one launch from Python, beside the C++ ScopedTimer's.

    python bench/python/scope_overhead.py [--cxx build/gpu/bench/scope_overhead/scope_overhead]
                                          [--launches 200] [--batches 200]

As bench/scope_overhead does in C++: an empty launch (torch.cuda._sleep(0), one kernel of no
work), timed on the host in batches of --launches, every variant interleaved batch by batch; a
sample is one batch's mean per launch; between batches, outside the timed window, the stream is
drained and the sessions' events are read. Variants: the untimed launch; `with kerntime.scope(n)`
(the scope object of that name handed back by kerntime.scope, the current stream looked up each
time); a kerntime.Scope made per launch; a scope object made once and entered per launch; a
scope on an explicit stream; a scope without fault naming (name_faulting_scopes=False), made per
launch and reused on an explicit stream. They launch on a PyTorch side stream, non-blocking like the C++
program's; the untimed launch and kerntime.scope(name) also run on the legacy default stream.
Whole processes land on levels of host cost up to 2 us apart (docs/tracing.md), so the Python
measurement runs in --processes child processes, alternating with as many runs of the C++
program, and the medians of the two sides' "scope(name)" overheads are compared; the target is
that the Python scope costs within 1 us of the C++ one. About a minute on an H200.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import torch

import kerntime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cxx", default="build/gpu/bench/scope_overhead/scope_overhead")
    parser.add_argument("--launches", type=int, default=200)
    parser.add_argument("--batches", type=int, default=200)
    parser.add_argument("--processes", type=int, default=5)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.worker:
        return compare_processes(args)
    kerntime.require_gpu()
    torch.cuda.init()
    # The C++ program launches on a stream it made with cudaStreamNonBlocking; so does this one
    # (PyTorch's side streams are non-blocking), so both pay the same for an event record. The
    # legacy default stream, PyTorch's current stream unless one is made current, is shown too.
    side = torch.cuda.Stream()
    default_stream = torch.cuda.default_stream()
    stream = side
    session = kerntime.default_session()
    quiet = kerntime.Session(name_faulting_scopes=False)
    launch = torch.cuda._sleep
    reused = kerntime.scope("py/reused")
    explicit = kerntime.scope("py/explicit", stream=stream.cuda_stream)
    quiet_explicit = quiet.scope("py/quiet-explicit", stream=stream.cuda_stream)
    scope = kerntime.scope

    def untimed():
        launch(0)

    def new_scope():
        with scope("py/name"):
            launch(0)

    def constructed_scope():
        with kerntime.Scope("py/constructed"):
            launch(0)

    def reused_scope():
        with reused:
            launch(0)

    def explicit_stream():
        with explicit:
            launch(0)

    def no_fault_naming():
        with quiet.scope("py/quiet"):
            launch(0)

    def no_fault_naming_reused_explicit():
        with quiet_explicit:
            launch(0)


    variants = {
        "untimed launch": untimed,
        "kerntime.scope(name)": new_scope,
        "kerntime.Scope(name), made per launch": constructed_scope,
        "scope object, reused": reused_scope,
        "scope, explicit stream": explicit_stream,
        "scope, no fault naming": no_fault_naming,
        "reused, explicit, no fault naming": no_fault_naming_reused_explicit,
    }
    # Batch-level switch to the default stream: the `with torch.cuda.stream` sits outside the
    # timed launches (see the loop below).
    default_variants = {"untimed launch, default stream": untimed,
                        "kerntime.scope(name), default stream": new_scope}
    per_launch = {name: [] for name in [*variants, *default_variants]}
    with torch.cuda.stream(side):
        for body in variants.values():  # warm-up: module load, event pools, NVTX, the lookup
            for _ in range(100):
                body()
    with torch.cuda.stream(default_stream):
        for body in default_variants.values():
            for _ in range(100):
                body()
    torch.cuda.synchronize()
    session.resolve()
    quiet.resolve()
    clock = time.perf_counter_ns

    def batch(name, body):
        start = clock()
        for _ in range(args.launches):
            body()
        per_launch[name].append((clock() - start) / args.launches)
        torch.cuda.synchronize()
        session.resolve()
        quiet.resolve()

    for _ in range(args.batches):
        with torch.cuda.stream(side):
            for name, body in variants.items():
                batch(name, body)
        with torch.cuda.stream(default_stream):
            for name, body in default_variants.items():
                batch(name, body)

    print(f"Host time per launch of an empty kernel from Python ({args.launches} launches x "
          f"{args.batches} batches; each sample is one batch's mean; a PyTorch side stream, "
          f"non-blocking as the C++ program's, unless marked)")
    print(f"{'variant':40s}{'median':>12s}{'overhead':>12s}")
    for name, values in per_launch.items():
        base_name = "untimed launch, default stream" if "default" in name else "untimed launch"
        base = statistics.median(per_launch[base_name])
        med = statistics.median(values)
        extra = "" if name == base_name else f"{(med - base) / 1e3:+10.3f} us"
        print(f"{name:40s}{med / 1e3:9.3f} us{extra:>12s}")
    base = statistics.median(per_launch["untimed launch"])
    python_overhead = (statistics.median(per_launch["kerntime.scope(name)"]) - base) / 1e3
    print(f"PYTHON_SCOPE_OVERHEAD {python_overhead:+.3f}")
    return 0


def compare_processes(args) -> int:
    if not os.path.exists(args.cxx):
        print(f"\nno C++ reference: {args.cxx} not found (cmake --build --preset gpu --target scope_overhead)")
        return 1
    python_runs, cxx_runs = [], []
    for _ in range(args.processes):
        worker = subprocess.run([sys.executable, __file__, "--worker", "--launches", str(args.launches),
                                 "--batches", str(args.batches)], capture_output=True, text=True)
        found = re.search(r"PYTHON_SCOPE_OVERHEAD ([+-][0-9.]+)", worker.stdout)
        if worker.returncode != 0 or found is None:
            print(worker.stdout, worker.stderr)
            return 1
        python_runs.append(float(found.group(1)))
        python_table = worker.stdout
        done = subprocess.run([args.cxx, str(args.launches), str(args.batches)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            print(f"\n{args.cxx} failed: {done.stderr.strip()}")
            return 1
        match = re.search(r"ScopedTimer\(name\)\s+([+-][0-9.]+) us", done.stdout)
        if match is None:
            print(done.stdout)
            print("\nno 'ScopedTimer(name)' overhead in the C++ program's output")
            return 1
        cxx_runs.append(float(match.group(1)))
    cxx_overhead = statistics.median(cxx_runs)
    python_overhead = statistics.median(python_runs)
    print("Python, the last of its processes:")
    print("\n".join(line for line in python_table.splitlines() if not line.startswith("PYTHON_")))
    print(f"\nC++ ({args.cxx}), the last of its runs:")
    print("\n".join("  " + line for line in done.stdout.splitlines() if line.startswith("  ")))
    print(f"\nkerntime.scope(name) in the {args.processes} Python processes: " +
          ", ".join(f"{v:+.3f} us" for v in python_runs))
    print(f"ScopedTimer(name) in the {args.processes} C++ processes:    " +
          ", ".join(f"{v:+.3f} us" for v in cxx_runs))
    difference = python_overhead - cxx_overhead
    ok = difference <= 1.0
    print(f"\nkerntime.scope {python_overhead:+.3f} us against ScopedTimer {cxx_overhead:+.3f} us "
          f"(medians of {args.processes} processes each): {difference:+.3f} us; within 1 us: "
          f"{'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
