#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The cost target of `kerntime run` (docs/run.md), judged as step_cost.py judges it, on rounds
# whose processes are forked from one Python that imported torch once
# (bench/run/torch_step_forks.py), itself run under `kerntime run`. Each process still starts
# CUDA, and with it its arm's tool, on its own; sharing the import cuts a process from about 10 s
# to about 3, so that several times more rounds fit in a device call and the interval narrows.
#
#   python3 bench/scripts/step_cost_forked.py KERNTIME READER OUT_DIR [ROUNDS] [STEPS]
#
# Every process is pinned to the same CPUs (KERNTIME_MEASURE_CPUS, default the last four);
# KERNTIME_STEP_COST_SIZE picks the step (default block1 here: the step the target defines on the
# H200's host, docs/run.md); KERNTIME_STEP_COST_SECONDS=S ends the rounds in time for a limit of S
# seconds, and KERNTIME_STEP_COST_ARMS=run-no-api,run-no-nvtx,run-kernels-only adds breakdown
# arms (torch_step_forks.py), each set beside the full `kerntime run` and beside the reader. The
# rounds go to OUT_DIR/rounds.jsonl and processes.jsonl, as step_cost.py writes them, so that --summarize, --levels and --ticks read them too. The last
# lines check that `kerntime run` recorded as many kernels in its processes as the reader did in
# its own, from kerntime's merged report OUT_DIR/cost-run.json.
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "support", "reference_reader"))
import read_reference  # noqa: E402
import process_levels  # noqa: E402
import step_cost  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "bench", "run"))
import torch_step_forks  # noqa: E402  (its arms; it imports torch only when run)


def kernels_recorded(report_path):
    """The kernels in kerntime's merged report, or None without a readable report."""
    try:
        with open(report_path) as f:
            report = json.load(f)
    except (OSError, ValueError):
        return None
    trace = report.get("trace")
    if not trace:
        return None
    counted = (trace.get("counts") or {}).get("kernels")
    if counted is None:
        counted = sum(int(r["instances"]) for r in trace.get("kernel_summary") or [])
    return int(counted)


def count_check(report_path, out, rounds, steps, run_arms=1):
    """(lines that set kerntime's kernel count beside the reader's over all rounds, whether the
    two are equal, the reader's kernels a step). `run_arms` arms ran under kerntime's injection
    (run and the breakdown arms), each the same program as the reader's."""
    reference = read_reference.merge(
        k for i in range(rounds)
        for k in read_reference.load(os.path.join(out, f"cost-reader-{i}")).values())
    per_step = reference.count() / (rounds * (steps + step_cost.WARMUP_STEPS))
    lines = [f"the reader: {reference.count()} kernels in its {rounds} processes"]
    counted = kernels_recorded(report_path)
    if counted is None:
        lines.append(f"kerntime run: no report with a trace at {report_path}: its kernel count "
                     "is not checked")
        return lines, False, per_step
    same = counted == run_arms * reference.count()
    expected = "the reader's count" if run_arms == 1 else f"{run_arms} times the reader's count"
    verdict = ("the same count" if run_arms == 1 else expected) if same else f"NOT {expected}"
    lines.append(f"kerntime run: {counted} kernels in its {run_arms * rounds} processes: {verdict}")
    return lines, same, per_step


def main(argv):
    if len(argv) < 3:
        print("usage: step_cost_forked.py KERNTIME READER OUT_DIR [ROUNDS] [STEPS]",
              file=sys.stderr)
        return 2
    kerntime, reader, out = argv[0], os.path.abspath(argv[1]), os.path.abspath(argv[2])
    rounds = int(argv[3]) if len(argv) > 3 else 30
    steps = int(argv[4]) if len(argv) > 4 else 200
    size = os.environ.get("KERNTIME_STEP_COST_SIZE", "block1")
    cpus = process_levels.measure_cpus()
    pin, _ = process_levels.wrap("pinned", cpus)
    try:
        torch_step_forks.arms_asked()
    except ValueError as error:
        print(f"step_cost_forked: {error}", file=sys.stderr)
        return 2
    if os.path.exists(os.path.join(out, "rounds.jsonl")):
        print(f"step_cost_forked: {out} holds rounds already: give an empty folder",
              file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    report = os.path.join(out, "cost-run.json")
    env = {k: v for k, v in os.environ.items()
           if k not in ("CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH", "KERNTIME_REFERENCE_OUT")}
    env["PYTHONUNBUFFERED"] = "1"
    server = [os.environ.get("PYTHON", "python3"),
              os.path.join(ROOT, "bench", "run", "torch_step_forks.py"),
              reader, out, str(rounds), str(steps), size]
    began = time.monotonic()
    # Each line as it comes (standard error with it): a call cut by its time limit keeps them.
    with subprocess.Popen(pin + [kerntime, "run", "-o", report, "--"] + server, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace") as done:
        for line in done.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
    print(f"step_cost_forked: kerntime run ended with {done.returncode} after "
          f"{time.monotonic() - began:.0f} s", flush=True)
    saved = []
    if os.path.exists(os.path.join(out, "rounds.jsonl")):
        with open(os.path.join(out, "rounds.jsonl")) as f:
            saved = [json.loads(line) for line in f if line.startswith("{")]
    if not saved:
        print("step_cost_forked: no round was done", file=sys.stderr)
        return 1
    samples = {arm: [r[arm] for r in saved] for arm in saved[0]}
    print(f"torch_step.py {size}, {steps} steps a process, {len(saved)} rounds of processes "
          f"forked from one Python, CPUs {cpus if pin else 'not pinned'}; median step time per "
          f"process, ms:")
    for line in step_cost.arm_lines(samples):
        print(line)
    run_arms = 1 + sum(1 for arm in samples if arm in torch_step_forks.BREAKDOWN)
    checked = time.monotonic()
    lines, same, per_step = count_check(report, out, len(saved), steps, run_arms)
    bare = statistics.median(samples["bare"])
    print("\n".join(lines) + f" (read in {time.monotonic() - checked:.0f} s)")
    print(f"the step: about {per_step:.0f} kernels, {bare:.3f} ms bare: " +
          ("a launch-bound step as the target defines it" if per_step >= 100 and bare <= 5 else
           "NOT the step the target defines (at least 100 kernels, at most 5 ms)"))
    for arm in [a for a in samples if a not in ("bare", "reader", "run", "profiler")]:
        # A breakdown arm beside the full recorder and beside the reader, in the target's unit
        # (of the bare step): the first says what the part costs, the second what is left.
        for other in ("run", "reader"):
            m, low, high = step_cost.median_interval(
                [(samples[arm][i] - samples[other][i]) / samples["bare"][i]
                 for i in range(len(saved))])
            print(f"({arm} - {other}) / bare: {m * 100:+.2f} % (interval [{low * 100:+.2f}, "
                  f"{high * 100:+.2f}] %)")
    for line in step_cost.verdict(samples):
        print(line)
    return 0 if same and done.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
