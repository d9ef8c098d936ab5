#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The cost target of `kerntime run` (docs/run.md): on a launch-bound PyTorch training step (at
# least 100 kernels and at most 5 ms a step, with autocast, an optimizer and NVTX ranges:
# `torch_step.py plain block`), `kerntime run` adds at most what a minimal CUPTI reader that
# records only kernels adds (tests/support/reference_reader), plus 3 % of the bare step time.
#
# Each round runs four processes of the same step: bare, under the reader, under `kerntime run`
# and under torch.profiler (for reference), in an order rotated each round, every process pinned
# to the same CPUs. A process's figure is its median step time. Per round, the costs are each
# tool's step time over the bare one's, and the target's margin is (run - reader) / bare; the
# verdict takes the median of the rounds' margins, with its distribution-free interval (the
# widest ranks k and n + 1 - k that still cover it with at least 95 %: 2 and 8 of 9).
#
#   python3 bench/scripts/step_cost.py KERNTIME READER OUT_DIR [ROUNDS] [STEPS]
#   python3 bench/scripts/step_cost.py --summarize OUT_DIR/rounds.jsonl [MORE.jsonl ...]
#   python3 bench/scripts/step_cost.py --levels OUT_DIR/processes.jsonl [MORE.jsonl ...]
#   python3 bench/scripts/step_cost.py --ticks OUT_DIR/processes.jsonl [MORE.jsonl ...]
#   python3 bench/scripts/step_cost.py --threads OUT_DIR/processes.jsonl [MORE.jsonl ...]
# Each round is also appended to OUT_DIR/rounds.jsonl with its host (CPU model and count, GPU UUID);
# --summarize judges the rounds of one or more such files pooled (calls cut by a time limit), and
# host by host where they came from more than one. KERNTIME_STEP_COST_SIZE=block1 takes the smaller
# step where the host is too slow for block's 5 ms. KERNTIME_STEP_COST_VARIANT=NAME runs every arm's
# process as process_levels.py's variant NAME does (default pinned). Every process's JSON line (with
# the host probe of torch_step.py under KERNTIME_STEP_PROBE=1) is appended to
# OUT_DIR/processes.jsonl with its arm and round. --levels sets each process's step time (over its
# arm's median) beside its host probe: the rank correlation of each probe figure with it, and, as a
# secondary figure beside the verdict, the verdict on the rounds whose bare, reader and run
# processes the start probe calls alike (no figure over SLOW_HOST times its median over all
# processes; the rule fixed before any probe ran on the GPU). --ticks reads the host's speed taken
# while the steps ran (KERNTIME_STEP_TICKS=N, host_ticks.py): how much slower each tool's process
# runs plain interpreter work than the bare one of its round (a diagnostic of what the tool's
# threads take from the program's CPUs, never a correction of the step times).
# KERNTIME_STEP_COST_WORKLOAD=NAME runs a program of .ci/real-workloads instead of the PyTorch
# step (cupy-rawkernel, cpp-cublas-cufft-streams, ...), with its own step count (STEPS is not
# used) and without torch.profiler: the same rounds and arms on a program of another kind.
# KERNTIME_STEP_THREADS=1 has every process say where its CPU went during the steps, per thread
# (bench/run/thread_cpu.py); --threads OUT_DIR/processes.jsonl [...] then prints, per arm, each
# thread group's CPU and run-queue wait a step. The arm reader-flush is the reader flushing CUPTI
# at every synchronization (what `kerntime run`'s paced flush does at most). Each thread's context
# switches and minor page faults show beside its CPU. An arm cupti-NAME runs the program under CUPTI configured as
# one part of kerntime run and nothing else (bench/run/cupti_phases_injection.cpp holding phase
# NAME: kernels, copies, launch-runtime, launch-driver, launch-both, watch, ...).
import json
import math
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "support", "reference_reader"))
import read_reference  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import host_ticks  # noqa: E402
import process_levels  # noqa: E402
import real_workloads  # noqa: E402

BOUND = 0.03
# Arms that tell where kerntime run's cost goes (docs/run.md): each switches one part off,
# through the injection's KERNTIME_RUN_RECORD_OFF diagnostic or a run option.
BREAKDOWN = {
    "run-no-api": ("api", []),
    "run-no-scopes": ("scopes", []),
    "run-no-copies": ("copies", []),
    "run-no-sync-flush": ("sync-flush", []),
    "run-no-last-launch": ("", ["--no-last-launch"]),
    "run-no-checkpoint": ("", ["--checkpoint", "0"]),
    "run-kernels-only": ("api,scopes,copies", ["--no-last-launch", "--checkpoint", "0"]),
    # With a timeline, as every run was before 2026-12-05: API records of the launches for the
    # program's first 2,000 launches (TIMELINE: a file in the output directory).
    "run-timeline": ("", ["--timeline", "TIMELINE"]),
}
# Arms with parts as they were before the cost target's changes (KERNTIME_RUN_AS_BEFORE): CUPTI's
# external correlation ids for NVTX ranges, API records all along, and CUPTI zeroing every buffer
# it is lent itself, on the thread that needed it.
AS_BEFORE = {"run-as-before": "tags,api", "run-tags-as-before": "tags", "run-api-as-before": "api",
             "run-zeroing-as-before": "zeroing"}


def build_dir(kerntime):
    """The build directory of `kerntime` (build/PRESET/src/cli/kerntime)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(kerntime))))


def phases_library(kerntime):
    """The CUPTI phases injection library beside `kerntime`, or KERNTIME_STEP_COST_PHASES_LIB."""
    return os.environ.get("KERNTIME_STEP_COST_PHASES_LIB") or os.path.join(
        build_dir(kerntime), "bench", "run", "libkerntime_cupti_phases_injection.so")


def run_arm(arm):
    """kerntime run's extra options and environment for breakdown arm `arm`; None for an arm
    this script does not know."""
    if arm not in BREAKDOWN and arm not in AS_BEFORE:
        return None
    off, options = BREAKDOWN.get(arm, ("", []))
    env = {}
    if off:
        env["KERNTIME_RUN_RECORD_OFF"] = off
    if arm in AS_BEFORE:
        env["KERNTIME_RUN_AS_BEFORE"] = AS_BEFORE[arm]
    return options, env
WARMUP_STEPS = 5  # torch_step.py's


def interval_rank(n):
    # The largest k with P(k <= rank of the median <= n + 1 - k) >= 95 % (binomial, p = 1/2).
    k = 1
    while True:
        below = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
        if 1 - 2 * below < 0.95:
            return k
        k += 1


def covers(n):
    """Whether the median's interval of n values reaches 95 % at all: from 6 values on
    (ranks 1 and n of 5 cover only 94 %)."""
    return 1 - 2 / 2 ** n >= 0.95


def judged(low, high):
    """Where the interval [low, high] of the margin lies beside the bound."""
    return ("the interval lies below it" if high <= BOUND else
            "the interval lies above it" if low > BOUND else "the interval straddles it")


def outcome(median, low, high, n):
    """The verdict's last words: met only where the median is within the bound, and met outright
    only where its 95 % interval is too."""
    if median > BOUND:
        return "target not met"
    if not covers(n):
        return "target met at the median only (too few values for a 95 % interval)"
    if high > BOUND:
        return "target met at the median only (its 95 % interval reaches over the bound)"
    return "target met"


def median_interval(values):
    d = sorted(values)
    k = interval_rank(len(d))
    return statistics.median(d), d[k - 1], d[len(d) - k]


def verdict(samples):
    """The lines that judge the target from {arm: [median step ms per round]}."""
    rounds = len(samples["bare"])
    cost = {arm: [samples[arm][i] / samples["bare"][i] - 1 for i in range(rounds)]
            for arm in ("reader", "run", "profiler") if arm in samples}
    margin = [(samples["run"][i] - samples["reader"][i]) / samples["bare"][i]
              for i in range(rounds)]
    lines = []
    for arm, label in (("reader", "the reader"), ("run", "kerntime run"),
                       ("profiler", "torch.profiler")):
        if arm not in cost:
            continue
        m, low, high = median_interval(cost[arm])
        lines.append(f"cost of {label}: {m * 100:+.1f} % of the bare step (median of {rounds} "
                     f"rounds, interval [{low * 100:+.1f}, {high * 100:+.1f}] %)")
    m, low, high = median_interval(margin)
    shown = judged(low, high) if covers(rounds) else "too few rounds for a 95 % interval"
    lines.append(f"(run - reader) / bare: {m * 100:+.2f} % (interval [{low * 100:+.2f}, "
                 f"{high * 100:+.2f}] %), bound +{BOUND * 100:.0f} %: {shown}")
    # The breakdown arms, each beside the full recorder and beside the reader: where the part it
    # switches off goes, for what the rounds' spread allows. The verdict's line stays last.
    for arm in samples:
        if not arm.startswith(("run-", "cupti-")):
            continue
        for other in ("run", "reader"):
            mid, low, high = median_interval([(samples[arm][i] - samples[other][i]) /
                                              samples["bare"][i] for i in range(rounds)])
            lines.append(f"({arm} - {other}) / bare: {mid * 100:+.2f} % (interval "
                         f"[{low * 100:+.2f}, {high * 100:+.2f}] %)")
    lines.append(f"kerntime run cost {statistics.median(cost['run']) * 100:+.1f}% vs reader "
                 f"{statistics.median(cost['reader']) * 100:+.1f}%: "
                 f"{outcome(m, low, high, rounds)}")
    return lines


def arm_lines(samples):
    """Each arm's median step time and its rounds', from {arm: [ms per round]}."""
    width = max(9, *map(len, samples))
    return [f"  {arm:{width}s} median {statistics.median(s):6.3f}  " +
            " ".join(f"{v:.3f}" for v in s) for arm, s in samples.items()]


SLOW_HOST = 1.25
PROBES = ("loop_ms", "faults_ms", "syscalls_ms", "scan_ms")


def ranks(values):
    """1-based ranks, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs, ys):
    """Spearman's rank correlation of two equally long lists; 0 where either is constant."""
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else 0.0


def load_processes(paths, needed):
    """The processes.jsonl lines of `paths` that hold the field `needed`, each with its file."""
    rows = []
    for path in paths:
        with open(path) as f:
            rows += [dict(json.loads(line), file=path) for line in f if line.startswith("{")]
    return [r for r in rows if r.get(needed)]


def rounds_of(processes, arms):
    """The rounds (grouped by file and round number) that have a process of every arm in
    `arms`, in order; each maps an arm to its process."""
    by_round = {}
    for p in processes:
        by_round.setdefault((p.get("file", ""), p["round"]), {})[p["arm"]] = p
    return [by_round[key] for key in sorted(by_round) if all(a in by_round[key] for a in arms)]


COUNT_LABELS = (("voluntary_switches", "vcsw"), ("involuntary_switches", "ivcsw"),
                ("minor_faults", "minflt"))


def count_text(counts):
    """The medians a step of a thread group's counts (thread_cpu.py), over the processes that
    have each; `counts` holds one [] or [{count: per step}] per process."""
    text = ""
    for key, label in COUNT_LABELS:
        values = [c[0][key] for c in counts if c and key in c[0]]
        if values:
            text += f"  {label} {statistics.median(values):.1f}"
    return text


def threads(paths):
    """Per arm, the median over its processes of each thread group's CPU and run-queue wait a
    step (processes.jsonl of runs under KERNTIME_STEP_THREADS=1; bench/run/thread_cpu.py), and,
    for a program that lists its steps, the median step of its first and last quarter (a cost
    that fades within a process, such as a budget spent early, shows there)."""
    rows = load_processes(paths, "threads")
    if not rows:
        print("step_cost --threads: no process with thread times (run with "
              "KERNTIME_STEP_THREADS=1)", file=sys.stderr)
        return 2
    by_arm = {}
    for row in rows:
        by_arm.setdefault(row["arm"], []).append(row)
    print("per arm: median step ms; per thread group, CPU us / run-queue wait us a step "
          "(medians over the arm's processes)")
    for arm, procs in by_arm.items():
        line = f"  {arm:20s} {statistics.median(p['step_ms_median'] for p in procs):7.3f} ms"
        course = [p["step_ms"] for p in procs if len(p.get("step_ms", [])) >= 8]
        if course:
            first = statistics.median(statistics.median(c[:len(c) // 4]) for c in course)
            last = statistics.median(statistics.median(c[-(len(c) // 4):]) for c in course)
            line += f" (first quarter {first:.3f}, last {last:.3f})"
        print(line + f", {len(procs)} processes")
        groups = sorted({g for p in procs for g in p["threads"]},
                        key=lambda g: -statistics.median(p["threads"].get(g, [0, 0])[0]
                                                         for p in procs))
        for group in groups:
            cpu = statistics.median(p["threads"].get(group, [0, 0])[0] for p in procs)
            wait = statistics.median(p["threads"].get(group, [0, 0])[1] for p in procs)
            count = max(p["threads"].get(group, [0, 0, 0])[2] for p in procs)
            if cpu >= 0.5 or wait >= 0.5:
                print(f"      {group:20s} cpu {cpu:9.1f}  wait {wait:9.1f}  ({count} threads)"
                      + count_text([p["threads"].get(group, [])[3:4] for p in procs]))
    return 0


def levels(paths):
    """Each process's step time beside its host probe (processes.jsonl of runs under
    KERNTIME_STEP_PROBE=1), and the verdict on the rounds the probe calls alike."""
    rows = load_processes(paths, "probe")
    if not rows:
        print("step_cost --levels: no process with a host probe (run with KERNTIME_STEP_PROBE=1)",
              file=sys.stderr)
        return 2
    arm_median = {a: statistics.median(r["step_ms_median"] for r in rows if r["arm"] == a)
                  for a in {r["arm"] for r in rows}}
    for r in rows:
        r["relative"] = r["step_ms_median"] / arm_median[r["arm"]]
    medians = {p: statistics.median(r["probe"][p] for r in rows) for p in PROBES}
    for r in rows:
        r["slow_host"] = [p for p in PROBES if r["probe"][p] > SLOW_HOST * medians[p]]
    print(f"{len(rows)} processes; step time over its arm's median beside the host probe, ms "
          f"(start / after the steps):")
    for r in sorted(rows, key=lambda r: -r["relative"]):
        print(f"  {r['arm']:9s} round {r['round']:2d}  {r['step_ms_median']:6.3f} ms  "
              f"x{r['relative']:.3f}  " +
              "  ".join(f"{p[:-3]} {r['probe'][p]:.2f}/{r.get('probe_after', {}).get(p, 0):.2f}"
                        for p in PROBES) +
              (f"  slow host: {', '.join(r['slow_host'])}" if r["slow_host"] else ""))
    print("rank correlation with the step time over its arm's median (Spearman):")
    relative = [r["relative"] for r in rows]
    for p in PROBES:
        after = [r.get("probe_after", {}).get(p) for r in rows]
        line = f"  {p:12s} start {spearman([r['probe'][p] for r in rows], relative):+.2f}"
        if all(a is not None for a in after):
            line += f"  after the steps {spearman(after, relative):+.2f}"
        print(line)
    every_round = rounds_of(rows, ())
    alike = [arms for arms in every_round
             if all(a in arms and not arms[a]["slow_host"] for a in ("bare", "reader", "run"))]
    print(f"rounds whose bare, reader and run processes the start probe calls alike (no figure "
          f"over {SLOW_HOST} times its median): {len(alike)} of {len(every_round)} (a secondary "
          f"figure; the target's verdict is --summarize's, on every round)")
    if len(alike) >= 9:
        samples = {a: [arms[a]["step_ms_median"] for arms in alike]
                   for a in ("bare", "reader", "run", "profiler")
                   if all(a in arms for arms in alike)}
        for line in verdict(samples):
            print("  " + line)
    else:
        print("  fewer than 9: no verdict on them")
    return 0


def ticks(paths):
    """How much slower each tool's process ran plain interpreter work than the bare process of
    its round, and how closely step times follow the host's speed within a process."""
    rows = load_processes(paths, "blocks")
    if not rows:
        print("step_cost --ticks: no process with host ticks (run with KERNTIME_STEP_TICKS=10)",
              file=sys.stderr)
        return 2
    arms = [a for a in ("bare", "reader", "run", "profiler") if any(r["arm"] == a for r in rows)]
    print(f"{len(rows)} processes; per arm: the median tick (a 10,000-step interpreter loop timed "
          f"between blocks of steps), ms, and the spread of step times between processes "
          f"(interquartile range over median):")
    for arm in arms:
        mine = [r for r in rows if r["arm"] == arm]
        ticks_ms = [host_ticks.median_tick(r["blocks"]) for r in mine]
        print(f"  {arm:9s} {len(mine):3d} processes  tick {statistics.median(ticks_ms):.3f} ms "
              f"({min(ticks_ms):.3f} to {max(ticks_ms):.3f})  step spread "
              f"{host_ticks.spread([r['step_ms_median'] for r in mine]) * 100:.1f} %")
    within = [spearman([step for step, _ in r["blocks"]], [tick for _, tick in r["blocks"]])
              for r in rows if len(r["blocks"]) >= 3]
    if within:
        print(f"rank correlation of a block's step time with its tick, within a process "
              f"(Spearman, median over {len(within)} processes): {statistics.median(within):+.2f}")
    for arm in [a for a in arms if a != "bare"]:
        rounds = rounds_of(rows, ("bare", arm))
        if not rounds:
            continue
        ratio = [host_ticks.median_tick(r[arm]["blocks"]) /
                 host_ticks.median_tick(r["bare"]["blocks"]) for r in rounds]
        m, low, high = median_interval(ratio)
        print(f"the tick under {arm} over the same round's bare tick: x{m:.3f} (median of "
              f"{len(rounds)} rounds, interval [x{low:.3f}, x{high:.3f}])")
    return 0


def result_of(stdout, workload):
    """A process's figures from its standard output: torch_step.py's last JSON line, or a
    workload's `workload-result` line as {"step_ms_median": ...}, with its steps and thread
    times where it printed them; None without one."""
    if workload:
        median = real_workloads.parse_output(stdout)[0]
        if median is None:
            return None
        row = {"step_ms_median": median}
        for line in stdout.splitlines():
            if line.startswith("workload-result "):
                data = json.loads(line[len("workload-result "):])
                row.update({k: data[k] for k in ("step_ms", "threads") if k in data})
        return row
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else None


def host_fingerprint():
    """What tells one lent machine from another of the same kind: the CPU model and count, and
    the GPU's UUID (rounds pooled over several calls may come from several hosts, whose levels
    differ by more than the margin the target bounds)."""
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f
                        if line.startswith("model name")), cpu)
    except OSError:
        pass
    host = f"{cpu} x{os.cpu_count()}"
    try:
        done = subprocess.run(["nvidia-smi", "--query-gpu=uuid", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=30)
        gpus = done.stdout.split()
        visible = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0]
        index = int(visible) if visible.isdigit() else 0
        if done.returncode == 0 and index < len(gpus):
            host += f", {gpus[index]}"
    except (OSError, subprocess.SubprocessError):
        pass
    return host


def summarize(paths):
    """The verdict on the rounds saved in `paths` (each OUT_DIR/rounds.jsonl), pooled: rounds of
    several calls, each cut by a time limit, judged as one run. Rounds from more than one host
    (their "host" key; older rounds have none) are also judged host by host, before the pooled
    verdict."""
    rounds = []
    for path in paths:
        with open(path) as f:
            rounds += [json.loads(line) for line in f if line.startswith("{")]
    hosts = {}
    for r in rounds:
        hosts.setdefault(r.get("host", "host not recorded"), []).append(r)
    if len(hosts) > 1:
        for host, own in hosts.items():
            print(f"{host}: {len(own)} rounds")
            judge(own)
        print("pooled over the hosts:")
    print(f"{len(rounds)} rounds from {len(paths)} file(s); median step time per process, ms:")
    judge(rounds)
    return 0


def judge(rounds):
    # The target's arms, then any breakdown arm every round ran.
    extra = sorted({a for r in rounds for a in r if a.startswith(("run-", "cupti-"))})
    arms = [a for a in ("bare", "reader", "run", "profiler", *extra)
            if all(a in r for r in rounds)]
    samples = {arm: [r[arm] for r in rounds] for arm in arms}
    for line in arm_lines(samples):
        print(line)
    for line in verdict(samples):
        print(line)


def arm_command(arm, i, program, base_env, kerntime, reader, out):
    """The command and environment of arm `arm`'s process in round `i` (0-based): `program`
    bare, under the reader, under CUPTI configured as one part of kerntime run, under `kerntime
    run` (or one of its breakdown arms), or torch_step.py's profiler-time mode."""
    env = dict(base_env)
    if arm == "bare":
        return program, env
    if arm in ("reader", "reader-flush"):
        # What CUPTI's kernel tracing costs, without the reader's writing at a synchronize;
        # reader-flush (a breakdown arm) flushes CUPTI at every synchronization, as
        # `kerntime run` does within its pacer's budget.
        env.update(CUDA_INJECTION64_PATH=reader,
                   KERNTIME_REFERENCE_FLUSH_AT_SYNC="0" if arm == "reader" else "1",
                   KERNTIME_REFERENCE_OUT=os.path.join(out, f"cost-{arm}-{i}"))
        return program, env
    if arm.startswith("cupti-"):
        # CUPTI configured as one part of kerntime run, with nothing of kerntime's own:
        # bench/run/cupti_phases_injection.cpp holding phase NAME for the whole process.
        env.update(CUDA_INJECTION64_PATH=phases_library(kerntime),
                   KERNTIME_PHASES=arm[len("cupti-"):],
                   KERNTIME_PHASES_OUT=os.path.join(out, f"cost-{arm}-{i}.phases.jsonl"))
        return program, env
    if arm.startswith("run"):
        # The breakdown arms (KERNTIME_STEP_COST_ARMS) switch one part of kerntime run off.
        options, extra = run_arm(arm) or ([], {})
        options = [os.path.join(out, f"cost-{arm}-{i}.trace.json") if o == "TIMELINE" else o
                   for o in options]
        env.update(extra)
        return [kerntime, "run", "-o", os.path.join(out, f"cost-{arm}-{i}.json")] + \
            options + ["--"] + program, env
    return program[:2] + ["profiler-time"] + program[3:], env


def main(argv):
    if argv[:1] == ["--summarize"] and len(argv) > 1:
        return summarize(argv[1:])
    if argv[:1] == ["--levels"] and len(argv) > 1:
        return levels(argv[1:])
    if argv[:1] == ["--ticks"] and len(argv) > 1:
        return ticks(argv[1:])
    if argv[:1] == ["--threads"] and len(argv) > 1:
        return threads(argv[1:])
    if len(argv) < 3:
        print(__doc__ or "usage: step_cost.py KERNTIME READER OUT_DIR [ROUNDS] [STEPS]",
              file=sys.stderr)
        return 2
    kerntime, reader, out = argv[0], os.path.abspath(argv[1]), argv[2]
    rounds = int(argv[3]) if len(argv) > 3 else 9
    steps = argv[4] if len(argv) > 4 else "200"
    python = os.environ.get("PYTHON", "python3")
    cpus = process_levels.measure_cpus()
    variant = os.environ.get("KERNTIME_STEP_COST_VARIANT", "pinned")
    if variant not in process_levels.VARIANTS:
        print(f"step_cost: unknown KERNTIME_STEP_COST_VARIANT {variant}; known: "
              f"{', '.join(process_levels.VARIANTS)}", file=sys.stderr)
        return 2
    pin, variant_env = process_levels.wrap(variant, cpus)
    os.makedirs(out, exist_ok=True)
    # The step the target defines takes at most 5 ms bare; on a slow host, block1 (fewer layers,
    # fewer host calls) is the step that still has over 100 kernels within it.
    size = os.environ.get("KERNTIME_STEP_COST_SIZE", "block")
    program = [python, os.path.join(ROOT, "bench", "run", "torch_step.py"), "plain", size, steps]
    workload = os.environ.get("KERNTIME_STEP_COST_WORKLOAD", "")
    base_env = {k: v for k, v in os.environ.items()
                if k not in ("CUDA_INJECTION64_PATH", "KERNTIME_REFERENCE_OUT")}
    base_env.update(variant_env)
    if workload:
        streams = "kerntime_workload_streams"
        table = real_workloads.programs(python, streams)
        if workload not in table:
            print(f"step_cost: unknown KERNTIME_STEP_COST_WORKLOAD {workload}; known: "
                  f"{', '.join(table)}", file=sys.stderr)
            return 2
        program = table[workload]
        if program[0] == streams:  # the C++ program: built with the gpu preset, or by nvcc now
            program = [real_workloads.streams_binary(build_dir(kerntime), out)] + program[1:]
        base_env.update(real_workloads.WORKLOAD_ENV)

    # KERNTIME_STEP_COST_NO_PROFILER=1 leaves the reference out: more rounds of the target's
    # three arms in the same time. A workload has no torch.profiler arm.
    arms = ["bare", "reader", "run"] + ([] if os.environ.get("KERNTIME_STEP_COST_NO_PROFILER") or
                                        workload else ["profiler"])
    arms += [a for a in os.environ.get("KERNTIME_STEP_COST_ARMS", "").split(",") if a]
    samples = {arm: [] for arm in arms}
    host = host_fingerprint()
    for i in range(rounds):
        for arm in arms[i % len(arms):] + arms[:i % len(arms)]:
            args, env = arm_command(arm, i, program, base_env, kerntime, reader, out)
            done = subprocess.run(pin + args, env=env, capture_output=True, text=True)
            row = result_of(done.stdout, workload)
            if done.returncode != 0 or row is None:
                print(f"step_cost: {arm}, round {i + 1}: exit {done.returncode}, no result: "
                      f"{done.stderr.strip()[-600:]}", file=sys.stderr)
                return 1
            samples[arm].append(row["step_ms_median"])
            with open(os.path.join(out, "processes.jsonl"), "a") as kept:
                kept.write(json.dumps(dict(row, arm=arm, round=i + 1)) + "\n")
        # Each round as it ends: a run cut short by a time limit still leaves its figures.
        with open(os.path.join(out, "rounds.jsonl"), "a") as saved:
            saved.write(json.dumps(dict({arm: samples[arm][-1] for arm in arms}, host=host))
                        + "\n")
        print(f"round {i + 1}: " + ", ".join(f"{arm} {samples[arm][-1]:.3f} ms" for arm in arms),
              flush=True)
    print((f"the workload {workload} (.ci/real-workloads: {' '.join(program[1:])})" if workload
           else f"torch_step.py {size}, {steps} steps a process")
          + f", {rounds} rounds, CPUs {cpus if pin else 'not pinned'}"
          + (f", variant {variant}" if variant != "pinned" else "")
          + "; median step time per process, ms:")
    for line in arm_lines(samples):
        print(line)
    reference = read_reference.merge(read_reference.load(os.path.join(out, "cost-reader-0"))
                                     .values())
    bare = statistics.median(samples["bare"])
    if workload:
        print(f"the program: {reference.count()} kernels under the reader in round 1, "
              f"{bare:.3f} ms a step bare (not the step the target defines)")
    else:
        per_step = reference.count() / (int(steps) + WARMUP_STEPS)
        print(f"the step: about {per_step:.0f} kernels (the reader's count over the {steps} + "
              f"{WARMUP_STEPS} steps of round 1), {bare:.3f} ms bare: "
              + ("a launch-bound step as the target defines it" if per_step >= 100 and bare <= 5
                 else "NOT the step the target defines (at least 100 kernels, at most 5 ms)"))
    for line in verdict(samples):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
