# SPDX-License-Identifier: Apache-2.0
"""Host cost of kerntime.scope around one launch from Python, beside the C++ ScopedTimer's.

    python python/bench/scope_overhead.py [--cxx build/gpu/examples/scope_overhead/scope_overhead]
                                          [--launches 200] [--batches 200]

As examples/scope_overhead does in C++: an empty launch (torch.cuda._sleep(0), one kernel of no
work), timed on the host in batches of --launches, every variant interleaved batch by batch; a
sample is one batch's mean per launch; between batches, outside the timed window, the stream is
drained and the sessions' events are read. Variants: the untimed launch; `with kerntime.scope(n)`
(a new scope object per launch, the current stream looked up each time); a scope object made once
and entered per launch; a scope on an explicit stream; a scope without fault naming
(name_faulting_scopes=False). The C++ program runs in the same invocation when it is found, and
its "ScopedTimer(name)" overhead is set beside the Python one; the issue's check is that the
Python scope costs within 1 us of it. Runs in about half a minute on an H200.
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
    parser.add_argument("--cxx", default="build/gpu/examples/scope_overhead/scope_overhead")
    parser.add_argument("--launches", type=int, default=200)
    parser.add_argument("--batches", type=int, default=200)
    args = parser.parse_args()
    kerntime.require_gpu()
    torch.cuda.init()
    stream = torch.cuda.current_stream()
    session = kerntime.default_session()
    quiet = kerntime.Session(name_faulting_scopes=False)
    launch = torch.cuda._sleep
    reused = kerntime.scope("py/reused")
    explicit = kerntime.scope("py/explicit", stream=stream.cuda_stream)
    scope = kerntime.scope

    def untimed():
        launch(0)

    def new_scope():
        with scope("py/name"):
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

    variants = {
        "untimed launch": untimed,
        "kerntime.scope(name)": new_scope,
        "scope object, reused": reused_scope,
        "scope, explicit stream": explicit_stream,
        "scope, no fault naming": no_fault_naming,
    }
    per_launch = {name: [] for name in variants}
    for body in variants.values():  # warm-up: module load, event pools, NVTX, the stream lookup
        for _ in range(100):
            body()
    torch.cuda.synchronize()
    session.resolve()
    quiet.resolve()
    clock = time.perf_counter_ns
    for _ in range(args.batches):
        for name, body in variants.items():
            start = clock()
            for _ in range(args.launches):
                body()
            per_launch[name].append((clock() - start) / args.launches)
            torch.cuda.synchronize()
            session.resolve()
            quiet.resolve()

    base = statistics.median(per_launch["untimed launch"])
    print(f"Host time per launch of an empty kernel from Python ({args.launches} launches x "
          f"{args.batches} batches; each sample is one batch's mean)")
    print(f"{'variant':28s}{'median':>12s}{'overhead':>12s}")
    for name, values in per_launch.items():
        med = statistics.median(values)
        extra = "" if name == "untimed launch" else f"{(med - base) / 1e3:+10.3f} us"
        print(f"{name:28s}{med / 1e3:9.3f} us{extra:>12s}")
    python_overhead = (statistics.median(per_launch["kerntime.scope(name)"]) - base) / 1e3

    if not os.path.exists(args.cxx):
        print(f"\nno C++ reference: {args.cxx} not found (cmake --build --preset gpu --target scope_overhead)")
        return 1
    done = subprocess.run([args.cxx, str(args.launches), str(args.batches)], capture_output=True, text=True)
    if done.returncode != 0:
        print(f"\n{args.cxx} failed: {done.stderr.strip()}")
        return 1
    match = re.search(r"ScopedTimer\(name\)\s+([+-][0-9.]+) us", done.stdout)
    if match is None:
        print(done.stdout)
        print("\nno 'ScopedTimer(name)' overhead in the C++ program's output")
        return 1
    cxx_overhead = float(match.group(1))
    print(f"\nC++ ({args.cxx}):")
    print("\n".join("  " + line for line in done.stdout.splitlines() if line.startswith("  ")))
    difference = python_overhead - cxx_overhead
    ok = difference <= 1.0
    print(f"\nkerntime.scope {python_overhead:+.3f} us against ScopedTimer {cxx_overhead:+.3f} us: "
          f"{difference:+.3f} us; within 1 us: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
