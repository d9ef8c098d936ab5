#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where do the levels between processes of one program come from? (docs/run.md, cost target)

    python3 bench/scripts/process_levels.py OUT_DIR [ROUNDS] [STEPS] [VARIANT,...]
    python3 bench/scripts/process_levels.py --summarize OUT_DIR/levels.jsonl

The cost target's rounds compare separate processes, and processes of the same bare step differ
by up to 50 % in median step time (docs/run-cost-history.md), far more than the 3 % sought. This runs the bare
step (`torch_step.py plain SIZE STEPS`, SIZE from KERNTIME_STEP_COST_SIZE, default block1) in
ROUNDS rounds (default 6), each round one process per variant in a rotated order, and prints each
variant's spread between its processes. A variant whose spread is much smaller than `pinned`'s
names a cause of the levels, and step_cost.py can then run every arm that way
(KERNTIME_STEP_COST_VARIANT=NAME).

Variants (default: all):
  pinned      on the CPUs step_cost.py uses (KERNTIME_MEASURE_CPUS, else the last four)
  unpinned    no CPU affinity
  one-cpu     on the first of those CPUs only: the program's threads share one CPU
  no-aslr     pinned, with address space randomization off (setarch -R)
  malloc-thp  pinned, with glibc's malloc on transparent huge pages (GLIBC_TUNABLES
              glibc.malloc.hugetlb=1), against TLB misses in a virtual machine's nested paging
"""
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VARIANTS = ["pinned", "unpinned", "one-cpu", "no-aslr", "malloc-thp"]


def spread(values):
    """(median, min, max, (max - min) / median, interquartile range / median) of step times."""
    d = sorted(values)
    m = statistics.median(d)
    if len(d) >= 4:
        q = statistics.quantiles(d, n=4, method="inclusive")
        iqr = q[2] - q[0]
    else:
        iqr = d[-1] - d[0]
    return m, d[0], d[-1], (d[-1] - d[0]) / m, iqr / m


def summary(rounds):
    """The lines that describe each variant's spread, from a list of {variant: ms} rounds."""
    variants = [v for v in VARIANTS if any(v in r for r in rounds)]
    variants += sorted({v for r in rounds for v in r} - set(variants))
    lines = [f"{len(rounds)} rounds; median step time per process, ms, and the spread between "
             "processes:"]
    width = max(len(v) for v in variants)
    base = None
    for v in variants:
        values = [r[v] for r in rounds if v in r]
        m, low, high, full, iqr = spread(values)
        if v == "pinned":
            base = iqr
        lines.append(f"  {v:{width}s} median {m:7.3f}  min {low:7.3f}  max {high:7.3f}  "
                     f"max/min {full * 100:5.1f} %  IQR {iqr * 100:5.1f} %  "
                     f"({' '.join(f'{x:.3f}' for x in values)})")
    if base:
        calmer = [v for v in variants if v != "pinned" and
                  spread([r[v] for r in rounds if v in r])[4] < base / 2]
        lines.append("IQR under half of pinned's: " + (", ".join(calmer) if calmer else "none"))
    return lines


def environment():
    """What the machine says about the things the variants change."""
    def read(path):
        try:
            with open(path) as f:
                return f.read().strip()
        except OSError:
            return "unknown"
    nodes = [n for n in os.listdir("/sys/devices/system/node") if n.startswith("node")] \
        if os.path.isdir("/sys/devices/system/node") else []
    return (f"{platform.machine()}, {os.cpu_count()} CPUs, NUMA nodes {len(nodes) or 'unknown'}, "
            f"transparent huge pages {read('/sys/kernel/mm/transparent_hugepage/enabled')}, "
            f"ASLR {read('/proc/sys/kernel/randomize_va_space')}")


def measure_cpus():
    """The CPUs the cost measurements pin their processes to, as taskset takes them:
    KERNTIME_MEASURE_CPUS, else the last four of a machine with at least eight, else none."""
    available = sorted(os.sched_getaffinity(0))
    return os.environ.get("KERNTIME_MEASURE_CPUS",
                          ",".join(map(str, available[-4:])) if len(available) >= 8 else "")


def wrap(variant, cpus):
    """(command prefix, extra environment) that run a process as `variant` does; its children
    inherit both (step_cost.py wraps `kerntime run` with them)."""
    pin = ["taskset", "-c", cpus] if cpus and shutil.which("taskset") else []
    if variant == "unpinned":
        return [], {}
    if variant == "one-cpu":
        return (["taskset", "-c", cpus.split(",")[0]] if pin else []), {}
    if variant == "no-aslr":
        setarch = ["setarch", platform.machine(), "-R"] if shutil.which("setarch") else []
        return pin + setarch, {}
    if variant == "malloc-thp":
        return pin, {"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}
    return pin, {}


def command(variant, cpus, python, size, steps):
    """(arguments, extra environment) of one process of `variant`."""
    prefix, env = wrap(variant, cpus)
    return prefix + [python, os.path.join(ROOT, "bench", "run", "torch_step.py"), "plain", size,
                     steps], env


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main(argv):
    if argv[:1] == ["--summarize"] and len(argv) > 1:
        for line in summary([r for p in argv[1:] for r in load(p)]):
            print(line)
        return 0
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    out = argv[0]
    rounds = int(argv[1]) if len(argv) > 1 else 6
    steps = argv[2] if len(argv) > 2 else "200"
    variants = argv[3].split(",") if len(argv) > 3 else VARIANTS
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        print(f"process_levels.py: unknown variant {unknown[0]}; known: {', '.join(VARIANTS)}",
              file=sys.stderr)
        return 2
    python = os.environ.get("PYTHON", "python3")
    size = os.environ.get("KERNTIME_STEP_COST_SIZE", "block1")
    cpus = measure_cpus()
    os.makedirs(out, exist_ok=True)
    print(environment(), flush=True)
    saved = []
    for i in range(rounds):
        row = {}
        for v in variants[i % len(variants):] + variants[:i % len(variants)]:
            args, extra = command(v, cpus, python, size, steps)
            done = subprocess.run(args, env=dict(os.environ, **extra), capture_output=True,
                                  text=True)
            lines = [l for l in done.stdout.splitlines() if l.startswith("{")]
            if done.returncode != 0 or not lines:
                print(f"process_levels: {v}, round {i + 1}: exit {done.returncode}, no result: "
                      f"{done.stderr.strip()[-600:]}", file=sys.stderr)
                return 1
            row[v] = json.loads(lines[-1])["step_ms_median"]
        saved.append(row)
        with open(os.path.join(out, "levels.jsonl"), "a") as f:
            f.write(json.dumps(row) + "\n")
        print(f"round {i + 1}: " + ", ".join(f"{v} {row[v]:.3f} ms" for v in variants), flush=True)
    for line in summary(saved):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
