#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`kerntime run` on real programs, checked against the independent CUPTI reader
(tests/support/reference_reader). Each program of tests/support/workloads runs three times, in
separate processes: bare, under the reader, and under `kerntime run -o report.json`. Per
program: the exit statuses, the kernel count of kerntime's report against the reader's, the
total GPU time difference, the worst per-kernel median difference (kernels over 5 us), and the
median step time (each program prints its own) under kerntime against bare and against the
reader. Prints a Markdown table, writes it to OUTPUT.md, and exits 1 if any program failed,
was skipped (everything is installed on the GPU machine), or a count disagrees.

    .ci/real-workloads [OUTPUT.md] [--build build/gpu] [--work DIR] [--only NAME,...]
                       [--budget SECONDS]

Needs the gpu preset built (cmake --build --preset gpu); runs from the repository root."""
import argparse
import dataclasses
import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from typing import Dict, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "support", "reference_reader"))
import read_reference  # noqa: E402

WORKLOADS = os.path.join(ROOT, "tests", "support", "workloads")
ARMS = ("bare", "reader", "run")
SKIP_STATUS = 77  # tests/support/workloads/_steps.py
LONG_KERNEL_NS = 5000
# src/cli/idle_processes.cpp: the warning when no process did GPU work, and the one line that
# lists helper processes without GPU work when another process did some.
IDLE_WARNING = "no CUDA work was recorded"
IDLE_LISTING = "started CUDA and launched no GPU work: "
# Every process of a workload: nothing downloaded, and JAX takes GPU memory as it needs it.
WORKLOAD_ENV = {"PYTHONUNBUFFERED": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                "TOKENIZERS_PARALLELISM": "false", "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}


@dataclasses.dataclass
class Arm:
    """One process of a program: how it ended and the step times it printed."""
    status: Optional[int] = None  # None: not run
    step_ms_median: Optional[float] = None
    # Other phases' medians a program printed (NAME_ms_median), e.g. generate after training.
    phases: Dict[str, float] = dataclasses.field(default_factory=dict)
    skipped: Optional[str] = None
    stderr_tail: str = ""
    wall_s: float = 0.0


@dataclasses.dataclass
class Row:
    program: str
    arms: Dict[str, Arm]
    run_kernels: Optional[int] = None
    reader_kernels: Optional[int] = None
    total_diff: Optional[float] = None  # (run - reader) / reader
    worst_median_diff: Optional[float] = None
    worst_median_name: str = ""
    long_kernels: int = 0
    failures: List[str] = dataclasses.field(default_factory=list)
    notes: List[str] = dataclasses.field(default_factory=list)

    def cost(self, against):
        run, other = self.arms["run"].step_ms_median, self.arms[against].step_ms_median
        return run / other - 1 if run and other else None


def parse_output(stdout):
    """(step_ms_median, skipped reason, {phase: median}) from a workload's standard output."""
    median, skipped, phases = None, None, {}
    for line in stdout.splitlines():
        if line.startswith("workload-result "):
            try:
                data = json.loads(line[len("workload-result "):])
                median = float(data["step_ms_median"])
                phases = {k[:-len("_ms_median")]: float(v) for k, v in data.items()
                          if k.endswith("_ms_median") and k != "step_ms_median"}
            except (ValueError, KeyError, TypeError, AttributeError):
                median, phases = None, {}
        elif line.startswith("skipped: "):
            skipped = line[len("skipped: "):].strip()
    return median, skipped, phases


def kerntime_kernels(report):
    """{name: (instances, total_ns, median_ns)} of a kerntime report's kernel summary."""
    rows = (report.get("trace") or {}).get("kernel_summary") or []
    return {r["name"]: (int(r["instances"]), float(r["total_ns"]), float(r.get("median_ns", 0)))
            for r in rows}


def short(name, width=70):
    return name if len(name) <= width else name[:width - 3] + "..."


def compare(program, arms, report, reference):
    """The row of one program: `arms` {bare, reader, run: Arm}, `report` the kerntime run
    report (dict, or None if there is none), `reference` the reader's read_reference.Kernels
    (merged over its processes; None if it wrote nothing)."""
    row = Row(program, arms)
    for name in ARMS:
        arm = arms[name]
        if arm.status is None:
            row.failures.append(f"{name}: not run")
        elif arm.skipped is not None:
            row.failures.append(f"{name}: skipped: {arm.skipped}")
        elif arm.status != 0:
            row.failures.append(f"{name}: exit {arm.status}: {arm.stderr_tail[-300:].strip()}")
        elif arm.step_ms_median is None:
            row.failures.append(f"{name}: printed no workload-result line")
    if report is None:
        row.failures.append("run: no report")
    if reference is None:
        row.failures.append("reader: no output file")
    if report is None or reference is None:
        return row
    ours = kerntime_kernels(report)
    counts, totals, medians = reference.counts(), reference.totals_ns(), reference.medians_ns()
    row.run_kernels = sum(c for c, _, _ in ours.values())
    row.reader_kernels = reference.count()
    counted = (report.get("trace") or {}).get("counts", {}).get("kernels")
    if counted is not None and counted != row.run_kernels:
        row.notes.append(f"the report counts {counted} kernel records, its summary "
                         f"{row.run_kernels} instances")
    if reference.incomplete:
        row.notes.append(f"the reader has {len(reference.incomplete)} records without "
                         "timestamps (not counted)")
    if row.run_kernels != row.reader_kernels:
        row.failures.append(f"kernel count: kerntime run {row.run_kernels}, reader "
                            f"{row.reader_kernels}")
    only_run = sorted(set(ours) - set(counts))
    only_reader = sorted(set(counts) - set(ours))
    for side, names in (("kerntime run", only_run), ("the reader", only_reader)):
        if names:
            row.failures.append(f"{len(names)} kernel names only in {side}, e.g. "
                                + "; ".join(short(n) for n in names[:3]))
    differing = sorted(n for n in set(ours) & set(counts) if ours[n][0] != counts[n])
    if differing:
        row.failures.append(f"{len(differing)} kernels counted differently, e.g. " + "; ".join(
            f"{short(n)}: {ours[n][0]} vs {counts[n]}" for n in differing[:3]))
    reader_total = sum(totals.values())
    if reader_total > 0:
        row.total_diff = sum(t for _, t, _ in ours.values()) / reader_total - 1
    for name in set(ours) & set(counts):
        if medians[name] > LONG_KERNEL_NS:
            row.long_kernels += 1
            diff = ours[name][2] / medians[name] - 1
            if row.worst_median_diff is None or abs(diff) > abs(row.worst_median_diff):
                row.worst_median_diff, row.worst_median_name = diff, name
    for phase in sorted(set.intersection(*(set(arms[a].phases) for a in ARMS))):
        bare, reader, run = (arms[a].phases[phase] for a in ARMS)
        row.notes.append(f"{phase} ms: bare {bare:.3f}, reader {reader:.3f}, run {run:.3f} "
                         f"(run vs bare {percent(run / bare - 1 if bare else None, 1)}, "
                         f"vs reader {percent(run / reader - 1 if reader else None, 1)})")
    # A helper that starts CUDA and launches nothing (torch.compile's workers) is listed once
    # on standard error, never a warning, while another process of the program did GPU work.
    warnings = report.get("warnings") or []
    idle_warnings = [w for w in warnings if IDLE_WARNING in w]
    if idle_warnings and row.run_kernels:
        row.failures.append("a process without GPU work was warned about: "
                            + short(idle_warnings[0], 200))
    listings = [line for line in arms["run"].stderr_tail.splitlines() if IDLE_LISTING in line]
    if len(listings) > 1:
        row.failures.append(f"the processes without GPU work were listed {len(listings)} times")
    elif listings:
        row.notes.append(short(listings[0].split("kerntime run: ", 1)[-1], 200))
    for warning in warnings[:3]:
        row.notes.append("kerntime warning: " + short(warning, 200))
    return row


def percent(value, digits=2):
    return "-" if value is None else f"{value * 100:+.{digits}f} %"


def markdown(rows):
    lines = [
        "| program | exit bare / reader / run | kernels run / reader | GPU time diff | "
        "worst median diff (kernels > 5 us) | step ms bare / reader / run | run vs bare | "
        "run vs reader | result |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        statuses = " / ".join("-" if r.arms[a].status is None else
                              ("skip" if r.arms[a].skipped else str(r.arms[a].status))
                              for a in ARMS)
        kernels = ("-" if r.run_kernels is None else
                   f"{r.run_kernels:,} / {r.reader_kernels:,}")
        worst = ("-" if r.worst_median_diff is None else
                 f"{percent(r.worst_median_diff)} ({r.long_kernels} kernels)")
        steps = " / ".join("-" if r.arms[a].step_ms_median is None else
                           f"{r.arms[a].step_ms_median:.3f}" for a in ARMS)
        lines.append(f"| {r.program} | {statuses} | {kernels} | {percent(r.total_diff, 3)} | "
                     f"{worst} | {steps} | {percent(r.cost('bare'), 1)} | "
                     f"{percent(r.cost('reader'), 1)} | {'FAIL' if r.failures else 'ok'} |")
    details = []
    for r in rows:
        items = [f"FAIL: {f}" for f in r.failures] + r.notes
        if r.worst_median_name:
            items.append(f"worst median: {short(r.worst_median_name, 120)}")
        if items:
            details.append(f"- **{r.program}**: " + "; ".join(items))
    return "\n".join(lines + ([""] + details if details else []))


def programs(python, streams):
    w = lambda name: os.path.join(WORKLOADS, name)  # noqa: E731
    return {
        # Training steps, then generate() calls, in one process (each start costs seconds).
        "gpt2": [python, w("hf_lm.py"), "gpt2", "30", "4"],
        "llama": [python, w("hf_lm.py"), "llama", "30", "4"],
        "resnet50-amp": [python, w("resnet50.py"), "30"],
        "compile-default": [python, w("compiled.py"), "default", "50"],
        "compile-reduce-overhead": [python, w("compiled.py"), "reduce-overhead", "50"],
        "jax-mlp": [python, w("jax_mlp.py"), "50"],
        "cupy-rawkernel": [python, w("cupy_raw.py"), "50"],
        "cpp-cublas-cufft-streams": [streams, "50", "4"],
    }


def pin_prefix():
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 12 or shutil.which("taskset") is None:
        return []
    return ["taskset", "-c", ",".join(map(str, cpus[-8:]))]


def run_arm(arm, command, directory, kerntime, reader, timeout):
    env = {k: v for k, v in os.environ.items()
           if k not in ("CUDA_INJECTION64_PATH", "KERNTIME_REFERENCE_OUT")}
    env.pop("KERNTIME_REFERENCE_FLUSH_AT_SYNC", None)
    env.update(WORKLOAD_ENV)
    if arm == "reader":
        env["CUDA_INJECTION64_PATH"] = reader
        env["KERNTIME_REFERENCE_OUT"] = os.path.join(directory, "ref")
        # The programs synchronize every step and end normally: the reader's flush at each
        # synchronize would put its own writing into their step times.
        env["KERNTIME_REFERENCE_FLUSH_AT_SYNC"] = "0"
    elif arm == "run":
        command = [kerntime, "run", "-o", os.path.join(directory, "report.json"),
                   "--process-reports", os.path.join(directory, "processes"), "--"] + command
    started = time.monotonic()
    # Its own process group, so that a timeout ends the program too, not only `kerntime run`
    # or taskset (a program left running would hold the GPU for the next ones).
    process = subprocess.Popen(pin_prefix() + command, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, errors="replace",
                               start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
        status = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        status = 124
        err += f"\n(timed out after {timeout:.0f} s)"
    wall = time.monotonic() - started
    for suffix, text in (("out", out), ("err", err)):
        with open(os.path.join(directory, f"{arm}.{suffix}"), "w") as f:
            f.write(text)
    median, skipped, phases = parse_output(out)
    if status == SKIP_STATUS and skipped is None:
        skipped = "exit 77 without a reason"
    return Arm(status, median, phases, skipped if status == SKIP_STATUS or skipped else None,
               err[-2000:], wall)


def streams_binary(build, work):
    built = os.path.join(build, "tests", "support", "workloads", "kerntime_workload_streams")
    if os.path.exists(built):
        return built
    # Not built (a build of only some targets): nvcc builds it here.
    out = os.path.join(work, "kerntime_workload_streams")
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    result = subprocess.run([nvcc, "-O2", "-std=c++17", "-o", out,
                             os.path.join(WORKLOADS, "streams_workload.cu"), "-lcublas", "-lcufft"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        print(f"real-workloads: building {out} failed: {result.stderr[-500:]}", file=sys.stderr)
    return out


def environment_line(python):
    def first_line(command):
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=60)
            return done.stdout.strip().splitlines()[0] if done.stdout.strip() else "?"
        except (OSError, subprocess.TimeoutExpired):
            return "?"
    gpu = first_line(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"])
    cuda = first_line(["bash", "-c", "nvcc --version | tail -2 | head -1"])
    commit = first_line(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"])
    versions = first_line([python, "-c", "import importlib.metadata as m\n"
                           "v=[]\nfor p in ('torch','transformers','torchvision','triton','jax',"
                           "'jaxlib','cupy-cuda13x','cupy-cuda12x'):\n"
                           "    try: v.append(p+' '+m.version(p))\n"
                           "    except Exception: pass\nprint(', '.join(v))"])
    return (f"{datetime.date.today().isoformat()}, GPU and driver: {gpu}; {cuda}; "
            f"commit {commit}; {versions}")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", default="build/real-workloads/real-workloads.md")
    parser.add_argument("--build", default="build/gpu")
    parser.add_argument("--work", default="build/real-workloads")
    parser.add_argument("--only", default="")
    parser.add_argument("--budget", type=float, default=330.0,
                        help="seconds; programs not started by then count as failures")
    parser.add_argument("--timeout", type=float, default=150.0, help="seconds per process")
    args = parser.parse_args(argv)
    python = os.environ.get("PYTHON", "python3")
    kerntime = os.path.join(args.build, "src", "cli", "kerntime")
    reader = os.path.abspath(os.path.join(args.build, "tests", "support", "reference_reader",
                                          "libkerntime_reference_reader.so"))
    for path in (kerntime, reader):
        if not os.path.exists(path):
            print(f"real-workloads: {path} is missing: build the gpu preset first "
                  "(cmake --build --preset gpu)", file=sys.stderr)
            return 2
    os.makedirs(args.work, exist_ok=True)
    table = programs(python, streams_binary(args.build, args.work))
    chosen = [p for p in args.only.split(",") if p] or list(table)
    unknown = [p for p in chosen if p not in table]
    if unknown:
        print(f"real-workloads: unknown program(s) {unknown}; known: {list(table)}",
              file=sys.stderr)
        return 2
    environment = environment_line(python)
    started = time.monotonic()
    rows = []
    for name in chosen:
        arms = {a: Arm() for a in ARMS}
        directory = os.path.abspath(os.path.join(args.work, name))
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
        if time.monotonic() - started > args.budget:
            rows.append(compare(name, arms, None, None))
            rows[-1].failures.insert(0, f"not run: the {args.budget:.0f} s budget was spent")
            continue
        for arm in ARMS:  # bare first: it also fills torch.compile's and CuPy's caches
            arms[arm] = run_arm(arm, table[name], directory, kerntime, reader, args.timeout)
        report = None
        try:
            with open(os.path.join(directory, "report.json")) as f:
                report = json.load(f)
        except (OSError, ValueError):
            pass
        per_pid = read_reference.load(os.path.join(directory, "ref"))
        reference = read_reference.merge(per_pid.values()) if per_pid else None
        row = compare(name, arms, report, reference)
        if len(per_pid) > 1:
            row.notes.append(f"{len(per_pid)} processes started CUDA under the reader")
        rows.append(row)
        print(f"real-workloads: {name}: {'FAIL' if row.failures else 'ok'} "
              f"({sum(a.wall_s for a in arms.values()):.0f} s)", file=sys.stderr, flush=True)
        # The programs done so far stay on disk if a caller's time limit ends the rest.
        if len(rows) < len(chosen):
            write_table(args.output, environment, rows, started,
                        f"{len(chosen) - len(rows)} of {len(chosen)} programs still to run")
    text = write_table(args.output, environment, rows, started, None)
    print(text)
    return 1 if any(r.failures for r in rows) else 0


def write_table(output, environment, rows, started, unfinished):
    """Writes the table of `rows` to `output` and returns its text; `unfinished` says what is left."""
    header = (f"`kerntime run` on real programs against the independent CUPTI reader "
              f"({environment}; `.ci/real-workloads`, "
              f"{time.monotonic() - started:.0f} s)")
    text = header + "\n\n" + markdown(rows) + "\n"
    failed = [r.program for r in rows if r.failures]
    text += (f"\n{len(rows) - len(failed)} passed, {len(failed)} failed"
             + (f": {', '.join(failed)}" if failed else "")
             + (f" ({unfinished})" if unfinished else "") + "\n")
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with open(output, "w") as f:
        f.write(text)
    return text


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
