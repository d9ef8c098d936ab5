#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# kerntime run's host time per launch against bare CUPTI's, apples to apples (docs/run.md):
# `kerntime_run_target empty N` times N empty-kernel launches inside the program and prints the
# host time per launch. It runs bare, under a bare CUPTI injection library that enables the same
# activity kinds with the same buffers and ignores the records, under `kerntime run`, and under
# `kerntime run --no-last-launch`: one process of each per round, the order rotated each round,
# every process pinned to the same CPUs, so that the drift of the machine falls on every
# configuration alike. With KERNTIME_REFERENCE_READER set (the reference reader's library,
# tests/support/reference_reader), a fifth configuration runs under it: CUPTI recording kernels
# only, the floor of the cost target (docs/run.md), so that what kerntime's other activity kinds
# cost per launch shows too. The cost is the median of each round's difference, with the
# distribution-free interval of that median (the widest ranks k and n + 1 - k that still cover
# it with at least 95 %: 2 and 8 of 9, 4 and 12 of 15).
#
# KERNTIME_LAUNCH_COST_WORKLOAD=operators times `kerntime_run_target operators N` instead: steps
# of PyTorch-like operators (device queries, error checks, a launch of a long-named template
# kernel, NVTX ranges), LAUNCHES then counting steps. KERNTIME_LAUNCH_COST_ARMS adds arms of
# kerntime run with one part as it was before the cost target's changes, or switched off (the
# arms of step_cost.py: run-as-before, run-kernels-only, ...), each compared with the reader.
#
#   python3 bench/scripts/launch_cost.py KERNTIME RUN_TARGET BARE_INJECTION [ROUNDS] [LAUNCHES]
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

# The median and its distribution-free 95 % interval, as the cost target computes them.
from process_levels import measure_cpus  # noqa: E402 (bench/scripts, beside this file)
from step_cost import median_interval, run_arm  # noqa: E402

kerntime, target, bare = sys.argv[1:4]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 9
launches = sys.argv[5] if len(sys.argv) > 5 else "200000"
# Four CPUs away from CPU 0 (where the system's own work tends to run), when there are enough.
cpus = measure_cpus()
pin = ["taskset", "-c", cpus] if cpus and shutil.which("taskset") else []

workload = [target, os.environ.get("KERNTIME_LAUNCH_COST_WORKLOAD", "empty"), launches]
configs = {
    "bare": (workload, {}),
    "bare CUPTI": (workload, {"CUDA_INJECTION64_PATH": bare}),
    "kerntime run": ([kerntime, "run", "--"] + workload, {}),
    "run --no-last-launch": ([kerntime, "run", "--no-last-launch", "--"] + workload, {}),
}
extra = [a for a in os.environ.get("KERNTIME_LAUNCH_COST_ARMS", "").split(",") if a]
for arm in extra:
    if run_arm(arm) is None:
        sys.exit(f"launch_cost: no arm {arm!r} (see step_cost.py's BREAKDOWN and AS_BEFORE)")
    options, env = run_arm(arm)
    configs[arm] = ([kerntime, "run"] + options + ["--"] + workload, env)
reader = os.environ.get("KERNTIME_REFERENCE_READER", "")
reader_out = tempfile.mkdtemp(prefix="launch_cost_reader_")
if reader:
    configs["CUPTI kernels only"] = (workload, {
        "CUDA_INJECTION64_PATH": os.path.abspath(reader), "KERNTIME_REFERENCE_FLUSH_AT_SYNC": "0",
        "KERNTIME_REFERENCE_OUT": os.path.join(reader_out, "ref")})
names = list(configs)
samples = {name: [] for name in names}


def per_launch_us(name):
    command, extra = configs[name]
    env = dict(os.environ, **extra)
    result = subprocess.run(pin + command, env=env, capture_output=True, text=True)
    for leftover in os.listdir(reader_out):  # the reader's records: not needed, and large
        os.remove(os.path.join(reader_out, leftover))
    found = re.search(r"host time per launch: ([0-9.]+) us", result.stdout)
    if result.returncode != 0 or found is None:
        sys.exit(f"launch_cost: {name} failed (exit {result.returncode}): "
                 f"{result.stdout.strip()} {result.stderr.strip()[-400:]}")
    return float(found.group(1))


for r in range(rounds):
    order = names[r % len(names):] + names[:r % len(names)]
    for name in order:
        samples[name].append(per_launch_us(name))

print(f"host time per launch, {' '.join(workload[1:])} per process, {rounds} rounds "
      f"(CPUs {cpus if pin else 'not pinned'})")
print(f"{'configuration':22s} {'median':>8s} {'min':>8s} {'max':>8s}   per process, us")
for name in names:
    s = samples[name]
    print(f"{name:22s} {statistics.median(s):8.3f} {min(s):8.3f} {max(s):8.3f}   "
          + " ".join(f"{v:.3f}" for v in s))


def difference(a, b):
    return median_interval([x - y for x, y in zip(samples[a], samples[b])])


pairs = [("bare CUPTI", "bare"), ("kerntime run", "bare CUPTI"),
         ("run --no-last-launch", "bare CUPTI"), ("kerntime run", "run --no-last-launch")]
if reader:
    # What CUPTI's kernel records cost, and what kerntime's other kinds add to them.
    pairs += [("CUPTI kernels only", "bare"), ("bare CUPTI", "CUPTI kernels only"),
              ("kerntime run", "CUPTI kernels only")]
    pairs += [(arm, "CUPTI kernels only") for arm in extra]
for a, b in pairs:
    median, low, high = difference(a, b)
    print(f"{a} - {b}: {median:+.3f} us (median of {rounds} rounds' differences, "
          f"interval [{low:+.3f}, {high:+.3f}])")
median, low, high = difference("kerntime run", "bare CUPTI")
verdict = ("met" if high <= 0.3 else "not met" if low > 0.3 else
           "not shown either way (the interval straddles +0.3 us)")
print(f"bound bare CUPTI + 0.3 us: {verdict}")
shutil.rmtree(reader_out, ignore_errors=True)
