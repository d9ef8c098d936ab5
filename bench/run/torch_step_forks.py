# SPDX-License-Identifier: Apache-2.0
"""The cost rounds' processes forked from one Python that imported torch once (docs/run.md).

    torch_step_forks.py READER OUT_DIR ROUNDS STEPS SIZE

Run under `kerntime run` (bench/scripts/step_cost_forked.py does). Each round forks one fresh
process per arm, in an order rotated each round; each starts CUDA itself, so each arm's tool
starts with it, as in a process of its own. Only the import of Python and torch (about 3 s of the
10 s a process of step_cost.py takes) is shared, so that many more rounds fit in the same time.

- run: the environment `kerntime run` gave this program, unchanged (its CUDA and NVTX
  injections and settings); its reports are merged by `kerntime run` when this program ends.
- reader: the reference reader as the CUDA injection, no NVTX injection, no flush at a
  synchronize (as in step_cost.py); its records go to OUT_DIR/cost-reader-ROUND.PID.tsv.
- bare and profiler: no CUDA or NVTX injection; profiler runs the steps under torch.profiler.
- KERNTIME_STEP_COST_ARMS=run-no-api,run-no-nvtx,run-kernels-only adds `kerntime run` with a
  part switched off (BREAKDOWN: step_cost.py's arms, and run-no-nvtx), to tell where its cost
  goes.

Every arm keeps what `kerntime run` preloads (its library interposes only the process's ends).
A child ends by exit(), so every tool's exit handler runs (the reader's flush among them); one
that fails after printing its result is said on standard error and its result kept (the kernel
counts of step_cost_forked.py show what a tool lost).
Each child's JSON line goes to OUT_DIR/processes.jsonl with its arm and round, and each round to
OUT_DIR/rounds.jsonl, in step_cost.py's formats (step_cost.py --summarize, --levels, --ticks).
KERNTIME_STEP_COST_SECONDS=S starts no round that would end past S seconds (the longest round
so far tells). KERNTIME_STEP_SCRIPT names another step script and KERNTIME_STEP_IMPORTS the modules imported
before the forks (default: torch), for tests without a GPU.
"""

import ctypes
import importlib
import json
import os
import runpy
import select
import signal
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ARMS = ("bare", "reader", "run", "profiler")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench", "scripts"))
import step_cost  # noqa: E402  (its breakdown arms)

# What `kerntime run`'s options set in its program's environment (src/cli/run_environment.cpp):
# the children of a program already under it take an arm's options through these.
OPTION_SETTINGS = {("--no-last-launch",): ("KERNTIME_RUN_LAST_LAUNCH", "0"),
                   ("--checkpoint", "0"): ("KERNTIME_RUN_CHECKPOINT_MS", "0"),
                   # The launch calls' API records a timeline asks for (the command writes the
                   # timeline; a child under the parent's run only records them).
                   ("--timeline", "TIMELINE"): ("KERNTIME_RUN_LAUNCH_CALLS", "1")}
# Breakdown arms (KERNTIME_STEP_COST_ARMS): step_cost.py's, each `kerntime run`'s environment with
# one part switched off or as it was before, and run-no-nvtx: no NVTX injection at all, so the
# program's NVTX calls (and cuBLAS's and cuDNN's own, which only call out when a tool is
# attached) stay no-ops, as under the reader.
BREAKDOWN = ("run-no-nvtx",) + tuple(step_cost.BREAKDOWN) + tuple(step_cost.AS_BEFORE)


def breakdown_environment(arm):
    """The environment changes of breakdown arm `arm`: {name: value, or None to unset}."""
    if arm == "run-no-nvtx":
        return {"NVTX_INJECTION64_PATH": None}
    options, change = step_cost.run_arm(arm)
    i = 0
    while i < len(options):
        for spelled, (name, value) in OPTION_SETTINGS.items():
            if tuple(options[i:i + len(spelled)]) == spelled:
                change[name] = value
                i += len(spelled)
                break
        else:
            raise ValueError(f"arm {arm}: no setting here for kerntime run's {options[i]}")
    return change


INJECTIONS = ("CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH")
CHILD_TIMEOUT_S = 90.0  # a child takes about 3 s; its first, on a cold machine, more


def arm_environment(arm, reader, out, round_index):
    """The environment changes of `arm`: {name: value, or None to unset}."""
    if arm == "run":
        return {}
    if arm in BREAKDOWN:
        return breakdown_environment(arm)
    change = {name: None for name in INJECTIONS}
    if arm == "reader":
        change.update(CUDA_INJECTION64_PATH=reader, KERNTIME_REFERENCE_FLUSH_AT_SYNC="0",
                      KERNTIME_REFERENCE_OUT=os.path.join(out, f"cost-reader-{round_index}"))
    return change


def child(script, arm, size, steps, change, write_fd):
    """In the forked process: the step script as __main__, its standard output to the pipe."""
    code = 1
    try:
        for name, value in change.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        os.dup2(write_fd, 1)
        mode = "profiler-time" if arm == "profiler" else "plain"
        sys.argv = [script, mode, size, str(steps)]
        runpy.run_path(script, run_name="__main__")
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:  # noqa: B902 - anything the step raised ends this child, said
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        # exit(), not os._exit: the tools' exit handlers (the reader's flush, kerntime's final
        # report) run as at a program's normal end; Python's own finalization is the parent's.
        ctypes.CDLL(None).exit(code)


def run_child(script, arm, size, steps, change):
    """(exit status, standard output) of one forked child."""
    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        child(script, arm, size, steps, change, write_fd)
    os.close(write_fd)
    chunks, deadline = [], time.monotonic() + CHILD_TIMEOUT_S
    while True:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([read_fd], [], [], max(left, 0))
        if not ready:
            os.kill(pid, signal.SIGKILL)
            chunks.append(f"\n(killed after {CHILD_TIMEOUT_S:.0f} s)".encode())
            break
        chunk = os.read(read_fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode(errors="replace")


def started_in_parent():
    """What of a GPU tool this process has started already, or "": the children must each start
    their own (an injection loaded here would be inherited with this process's pid)."""
    try:
        with open("/proc/self/maps") as f:
            maps = f.read()
    except OSError:
        maps = ""
    # Not libcupti: torch links it (for its profiler) without starting it.
    for library in ("libkerntime_inject", "libkerntime_reference_reader"):
        if library in maps:
            return f"{library} is loaded"
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        return "torch started CUDA"
    return ""


def take_result(arm, i, status, text):
    """The child's JSON result, or None when it printed none (said on standard error)."""
    lines = [line for line in text.splitlines() if line.startswith("{")]
    try:
        result = json.loads(lines[-1]) if lines else None
    except ValueError:  # cut short by a kill
        result = None
    if result is None or "step_ms_median" not in result:
        print(f"torch_step_forks: {arm}, round {i + 1}: exit {status}, no result: "
              f"{text.strip()[-600:]}", file=sys.stderr)
        return None
    if status != 0:
        # The steps were timed; what failed came at the end (a tool's exit handler, a
        # destructor), and the kernel counts after the rounds show what a tool lost.
        print(f"torch_step_forks: {arm}, round {i + 1}: exit {status} after its result",
              file=sys.stderr)
    return result


def arms_asked():
    """The arms of every round: the four of the target, then KERNTIME_STEP_COST_ARMS's; raises
    ValueError naming an unknown one."""
    extra = [a for a in os.environ.get("KERNTIME_STEP_COST_ARMS", "").split(",") if a]
    for arm in extra:
        if arm not in BREAKDOWN:
            raise ValueError(f"unknown arm {arm} in KERNTIME_STEP_COST_ARMS; known: "
                             f"{', '.join(BREAKDOWN)}")
    return list(ARMS) + extra


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    reader, out, rounds, steps, size = argv[0], argv[1], int(argv[2]), int(argv[3]), argv[4]
    if not os.environ.get("CUDA_INJECTION64_PATH"):
        print("torch_step_forks: CUDA_INJECTION64_PATH is not set: run this under kerntime run",
              file=sys.stderr)
        return 2
    try:
        arms = arms_asked()
    except ValueError as error:
        print(f"torch_step_forks: {error}", file=sys.stderr)
        return 2
    if any(os.path.exists(os.path.join(out, f)) for f in ("rounds.jsonl", "processes.jsonl")):
        print(f"torch_step_forks: {out} holds rounds already: give an empty folder", file=sys.stderr)
        return 2
    script = os.environ.get("KERNTIME_STEP_SCRIPT", os.path.join(HERE, "torch_step.py"))
    began = time.monotonic()
    # Imported once here, never started: CUDA starts in each child, with its arm's tool.
    for module in os.environ.get("KERNTIME_STEP_IMPORTS", "torch").split(","):
        if module:
            importlib.import_module(module)
    started = started_in_parent()
    if started:
        print(f"torch_step_forks: before any fork, {started}: the children would inherit it",
              file=sys.stderr)
        return 1
    threads = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 0
    print(f"torch_step_forks: imports took {time.monotonic() - began:.1f} s; {threads} "
          f"thread(s) at the forks", flush=True)
    os.makedirs(out, exist_ok=True)
    # A time limit for the rounds (a device call's): no round starts that the longest so far
    # says would end past it, so the program ends in time for kerntime run to merge its reports.
    budget_s = float(os.environ.get("KERNTIME_STEP_COST_SECONDS", "inf"))
    longest, failed = 0.0, False
    for i in range(rounds):
        if time.monotonic() - began + longest > budget_s:
            print(f"torch_step_forks: {i} of {rounds} rounds within KERNTIME_STEP_COST_SECONDS="
                  f"{budget_s:g}", flush=True)
            break
        round_began = time.monotonic()
        row = {}
        for arm in arms[i % len(arms):] + arms[:i % len(arms)]:
            status, text = run_child(script, arm, size, steps, arm_environment(arm, reader, out, i))
            result = take_result(arm, i, status, text)
            if result is None:
                failed = True
                break
            row[arm] = result["step_ms_median"]
            with open(os.path.join(out, "processes.jsonl"), "a") as kept:
                kept.write(json.dumps(dict(result, arm=arm, round=i + 1)) + "\n")
        if failed:
            # The rounds before stand; this one is left out of rounds.jsonl (its processes that
            # ran are in processes.jsonl and, under kerntime, in its report).
            print(f"torch_step_forks: round {i + 1} left out; {i} rounds done", flush=True)
            break
        with open(os.path.join(out, "rounds.jsonl"), "a") as saved:
            saved.write(json.dumps({arm: row[arm] for arm in arms}) + "\n")
        print(f"round {i + 1}: " + ", ".join(f"{arm} {row[arm]:.3f} ms" for arm in arms) +
              f" ({time.monotonic() - began:.0f} s)", flush=True)
        longest = max(longest, time.monotonic() - round_began)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
