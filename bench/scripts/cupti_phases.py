#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Host time per launch under each CUPTI configuration, switched inside one process.

    python3 bench/scripts/cupti_phases.py INJECTION OUT_DIR [PROCESSES] -- PROGRAM [ARGS ...]
    python3 bench/scripts/cupti_phases.py --kerntime-run KERNTIME OUT_DIR [PROCESSES] -- PROGRAM ...
    python3 bench/scripts/cupti_phases.py --summarize OUT_DIR/phases-*.jsonl
    python3 bench/scripts/cupti_phases.py --once CYCLE GROUP_A/phases-*.jsonl -- GROUP_B/...

Runs PROGRAM PROCESSES times (default 3) under bench/run/cupti_phases_injection.cpp, pinned to the
CPUs step_cost.py uses (KERNTIME_MEASURE_CPUS), and judges the phases: a phase's host time per
launch is its length over the kernels that started in it (the program must be launch-bound and
launch all along: torch_step.py block1 2000, kerntime_run_target operators 3000). Each phase is
compared with the `kernels` phase of the same cycle (kernel records only, what the reference
reader records), so the processes' different speeds cancel. Cycles where a phase saw fewer than
200 kernels (start-up, the end) are left out.

With --kerntime-run, PROGRAM runs under `kerntime run` itself with KERNTIME_RUN_COST_PHASES=100
(src/inject/cost_phases.hpp): CUPTI's configuration stays kerntime's, and kerntime's own work
is idle in one phase of each cycle and on in the other: on the program's threads (the launch
watch's body, the NVTX hooks) and on its own (the record reader, whose buffers wait for the next
working phase, which so reads twice its share; the checkpoints). A phase's host time per launch
is its length over the launches made in it; `kerntime` is compared with `idle` of the same
cycle. The first phase of a cycle is the one the others are compared with.

--once judges processes run with KERNTIME_PHASES_ONCE=NAME@CYCLE (one phase NAME before cycle
CYCLE, never again) against control processes without it: within each process, each phase's
host time per launch after the once phase over before it (medians of the cycles on each side,
at least two before and three after; the once cycle and the first with launches left out). If
switching NAME's configuration off again gives back what it cost, the ratios read as the
controls' (which show the drift of a process over its run).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from process_levels import measure_cpus  # noqa: E402
from step_cost import median_interval  # noqa: E402

MIN_KERNELS = 200


def per_launch(rows):
    """{(process, cycle): {phase: us per launch}} for the cycles whose phases all saw enough
    kernels."""
    cycles = {}
    for process, phases in rows.items():
        for r in phases:
            cycles.setdefault((process, r["cycle"]), []).append(r)
    kept = {}
    for key, phases in cycles.items():
        if any(r["kernels"] < MIN_KERNELS for r in phases):
            continue
        kept[key] = {r["phase"]: r["seconds"] * 1e6 / r["kernels"] for r in phases}
    return kept


def summary(rows):
    """The lines that judge the phases of {process: [phase rows]}."""
    kept = per_launch(rows)
    names = []
    for phases in kept.values():
        names += [n for n in phases if n not in names]
    base = names[0] if names else "kernels"
    lines = [f"{len(kept)} cycles of {len(rows)} process(es) kept (every phase over "
             f"{MIN_KERNELS} kernels); host time per launch, us, and against `{base}` in the "
             "same cycle:"]
    for name in names:
        times = [c[name] for c in kept.values() if name in c]
        if not times:
            continue
        line = f"  {name:10s} {statistics.median(times):8.3f} us"
        if name != base:
            deltas = [c[name] - c[base] for c in kept.values() if name in c and base in c]
            if deltas:
                m, low, high = median_interval(deltas)
                rel = [(c[name] / c[base] - 1) * 100 for c in kept.values()
                       if name in c and base in c]
                line += (f"  {m:+.3f} us [{low:+.3f}, {high:+.3f}]  "
                         f"({statistics.median(rel):+.2f} %, {len(deltas)} cycles)")
        lines.append(line)
    return lines


def before_after(phases, cycle):
    """{phase: after / before - 1} of one process's phase rows, around cycle `cycle`."""
    kept = per_launch({"p": [r for r in phases if not r["phase"].endswith("-once")]})
    # The first cycle with launches is the program's warm-up (its first steps run slow).
    if kept:
        del kept[min(kept)]
    out = {}
    for name in sorted({n for c in kept.values() for n in c}):
        before = [c[name] for (_, k), c in kept.items() if k < cycle and name in c]
        after = [c[name] for (_, k), c in kept.items() if k > cycle and name in c]
        if len(before) >= 2 and len(after) >= 3:
            out[name] = statistics.median(after) / statistics.median(before) - 1
    return out


def once_summary(cycle, groups):
    """The lines that set each group's after/before ratios side by side (groups: [(label,
    {path: rows})])."""
    lines = [f"host time per launch after cycle {cycle} over before it, per process:"]
    for label, rows in groups:
        ratios = {}
        for path, phases in rows.items():
            for name, r in before_after(phases, cycle).items():
                ratios.setdefault(name, []).append(r * 100)
        for name, values in sorted(ratios.items()):
            lines.append(f"  {label:8s} {name:10s} median {statistics.median(values):+6.2f} %  "
                         f"({' '.join(f'{v:+.1f}' for v in values)})")
    return lines


def load(paths):
    rows = {}
    for path in paths:
        with open(path) as f:
            rows[path] = [json.loads(line) for line in f if line.startswith("{")]
    return rows


def main(argv):
    if argv[:1] == ["--once"] and "--" in argv:
        split = argv.index("--")
        groups = [("once", load(argv[2:split])), ("control", load(argv[split + 1:]))]
        for line in once_summary(int(argv[1]), groups):
            print(line)
        return 0
    if argv[:1] == ["--summarize"]:
        for line in summary(load(argv[1:])):
            print(line)
        return 0
    if "--" not in argv or argv.index("--") < 2:
        print(__doc__, file=sys.stderr)
        return 2
    kerntime = None
    if argv[0] == "--kerntime-run":
        kerntime, argv = os.path.abspath(argv[1]), argv[1:]
    split = argv.index("--")
    injection, out = os.path.abspath(argv[0]), argv[1]
    processes = int(argv[2]) if split > 2 else 3
    program = argv[split + 1:]
    cpus = measure_cpus()
    pin = ["taskset", "-c", cpus] if cpus and shutil.which("taskset") else []
    os.makedirs(out, exist_ok=True)
    paths = []
    failed = 0
    for i in range(processes):
        path = os.path.join(out, f"phases-{i}.jsonl")
        if os.path.exists(path):
            os.remove(path)
        if kerntime:
            env = dict(os.environ, KERNTIME_RUN_COST_PHASES="100", KERNTIME_RUN_COST_PHASES_OUT=path)
            command = [kerntime, "run", "-o", os.path.join(out, f"run-{i}.json"), "--"] + program
        else:
            env = dict(os.environ, CUDA_INJECTION64_PATH=injection, KERNTIME_PHASES_OUT=path)
            command = program
        done = subprocess.run(pin + command, env=env, stdout=subprocess.DEVNULL)
        # A process that fails keeps the phases it wrote before; they are judged with the rest.
        if done.returncode != 0:
            failed += 1
            print(f"cupti_phases: process {i + 1}: exit {done.returncode}", file=sys.stderr)
        if os.path.exists(path):
            paths.append(path)
    print(f"{' '.join(program)}: {processes} processes ({failed} failed), "
          f"CPUs {cpus if pin else 'not pinned'}")
    if paths:
        for line in summary(load(paths)):
            print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
