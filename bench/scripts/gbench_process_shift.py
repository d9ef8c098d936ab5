#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How far a Google Benchmark program's times move from one process to the next: the allowance
`kerntime compare` gives CPU timers with one run per side (docs/ci.md, "Allowances by timer").

    python3 bench/scripts/gbench_process_shift.py PROGRAM [PROCESSES] [REPETITIONS]

Runs PROGRAM (a Google Benchmark program, e.g. build/default/tests/compare/gbench_cpu_program)
PROCESSES times (default 10), each with --benchmark_repetitions=REPETITIONS (default 20) and
--benchmark_min_time=0.05, one after another. Per benchmark: each process's median real_time,
and the largest shift of a process median from the median of the process medians, in ns and
relative. The largest relative shift over all benchmarks is what one run per side must allow for.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    program = argv[0]
    processes = int(argv[1]) if len(argv) > 1 else 10
    repetitions = int(argv[2]) if len(argv) > 2 else 20
    medians = {}
    with tempfile.TemporaryDirectory() as folder:
        for p in range(processes):
            out = os.path.join(folder, f"{p}.json")
            subprocess.run([program, f"--benchmark_repetitions={repetitions}",
                            "--benchmark_min_time=0.05", "--benchmark_format=json",
                            "--benchmark_out_format=json", f"--benchmark_out={out}"],
                           check=True, stdout=subprocess.DEVNULL)
            runs = json.load(open(out))["benchmarks"]
            scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
            per = {}
            for run in runs:
                if run.get("run_type") == "iteration":
                    per.setdefault(run["run_name"], []).append(run["real_time"] * scale[run["time_unit"]])
            for name, times in per.items():
                medians.setdefault(name, []).append(statistics.median(times))
    worst = 0.0
    print(f"{program}: {processes} processes x {repetitions} repetitions; median real_time per process, ns")
    for name, values in medians.items():
        centre = statistics.median(values)
        shift = max(abs(v - centre) for v in values)
        worst = max(worst, shift / centre)
        print(f"  {name:16s} " + " ".join(f"{v:9.1f}" for v in values) +
              f"   largest shift {shift:8.1f} ns ({shift / centre * 100:+.2f}%)")
    print(f"largest relative shift of a process median: {worst * 100:.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
