#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/scripts/step_cost_turns.py without a GPU: four fake step processes take turns over their
# FIFOs on a fake host whose speed drifts from turn to turn, under a fake `kerntime run`; the
# rounds, the sessions, the verdict, --summarize, and a process that fails.
import ast
import collections
import contextlib
import importlib.util
import io
import json
import os
import signal
import stat
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import types
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def load(name, *parts):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, *parts))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


turns = load("step_cost_turns", "bench", "scripts", "step_cost_turns.py")

# Stands for python3 running torch_step.py MODE block1 0 under each tool with KERNTIME_STEP_TURNS
# set. The host's speed drifts: every turn taken by any process (a count kept in a file of the
# session's folder) makes the next one 3 % slower, far more than the tools' costs differ by. The
# tool's own cost is a fixed factor of the step it is given. FAKE_FAIL=ARM makes that arm's
# process end before its first turn.
FAKE_PYTHON = """\
#!{python}
import fcntl, json, os, sys, time
mode = sys.argv[2]
assert sys.argv[3:5] == ["block1", "0"], sys.argv
prefix = os.environ["KERNTIME_STEP_TURNS"]
arm = ("profiler" if mode == "profiler-time" else "run" if os.environ.get("FAKE_UNDER_RUN") else
       "reader" if os.environ.get("CUDA_INJECTION64_PATH") else "bare")
if os.environ.get("FAKE_FAIL") == arm:
    sys.stderr.write("the fake step failed\\n")
    sys.exit(3)
factor = {{"bare": 1.0, "reader": 1.04, "run": 1.06, "profiler": 1.5}}[arm]
out = os.environ.get("KERNTIME_REFERENCE_OUT")
counter = os.path.join(os.path.dirname(prefix), "turns-taken")
with open(prefix + ".pid", "w") as f:
    f.write(str(os.getpid()))


def others_stopped():
    # Each other arm's process, stopped (state T) or not, while this one takes its turn.
    folder = os.path.dirname(prefix)
    states = []
    for name in os.listdir(folder):
        if name.endswith(".pid") and name != os.path.basename(prefix) + ".pid":
            with open(os.path.join(folder, name)) as f:
                pid = f.read()
            with open(f"/proc/{{pid}}/stat") as f:
                states.append(f.read().rsplit(")", 1)[1].split()[0] == "T")
    return states


steps = []
with open(prefix + ".go") as go, open(prefix + ".done", "w", buffering=1) as done:
    done.write("ready\\n")
    for line in iter(go.readline, ""):
        if line.strip() == "end":
            break
        with open(counter, "a+") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            f.seek(0)
            taken = len(f.read())
            f.write("x")
        step = 3.5 * factor * 1.03 ** taken
        time.sleep(float(os.environ.get("FAKE_TURN_SECONDS", "0")))
        with open(os.path.join(os.path.dirname(prefix), "stopped"), "a") as f:
            f.write(json.dumps(others_stopped()) + "\\n")
        steps += [step] * int(line)
        done.write(json.dumps({{"step_ms_median": step}}) + "\\n")
kernels = 110 * (len(steps) + 2 * len(steps) // 10 + 5)
if out:
    with open(f"{{out}}.{{os.getpid()}}.tsv", "w") as f:
        for i in range(kernels):
            f.write(f"{{i + 1}}\\t{{i + 2}}\\t0\\t7\\t{{i}}\\t0\\tk\\n")
if arm == "run":
    # The same kernels as the reader's, each 2 % longer.
    with open(os.environ["FAKE_REPORT"], "w") as f:
        json.dump({{"trace": {{"kernel_summary": [
            {{"name": "k", "instances": kernels, "total_ns": kernels * 1.02,
              "median_ns": 1.02}}]}}}}, f)
print(json.dumps({{"wall_s": 1.0, "step_ms_median": sorted(steps)[len(steps) // 2],
                  "step_ms_max": max(steps)}}))
"""

FAKE_KERNTIME = """\
#!{python}
import os, subprocess, sys
args = sys.argv[1:]
assert args[0] == "run" and args[1] == "-o" and "CUDA_INJECTION64_PATH" not in os.environ, args
open(args[2], "w").close()
sys.exit(subprocess.run(args[args.index("--") + 1:],
                        env=dict(os.environ, FAKE_UNDER_RUN="1", FAKE_REPORT=args[2])).returncode)
"""


def write_fakes(d):
    """The fake step and fake `kerntime run`, written into folder `d`: {name: path}."""
    paths = {}
    for name, text in (("python", FAKE_PYTHON), ("kerntime", FAKE_KERNTIME)):
        paths[name] = os.path.join(d, name)
        with open(paths[name], "w") as f:
            f.write(text.format(python=sys.executable))
        os.chmod(paths[name], stat.S_IRWXU)
    return paths


def step_pids(d):
    """The process ids the fake steps of session 0 wrote."""
    folder = os.path.join(d, "out", "session-0")
    pids = []
    for name in os.listdir(folder):
        if name.endswith(".pid"):
            with open(os.path.join(folder, name)) as f:
                pids.append(int(f.read()))
    return pids


def gone(pid, seconds=10.0):
    """Whether process `pid` ended (or is a zombie no one reaped yet) within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in "ZX":
                    return True
        except OSError:
            return True
        time.sleep(0.01)
    return False


def run_script(d, args, **env):
    """step_cost_turns.py's main on the fake step and fake `kerntime run` written into folder
    `d`, with `args` after KERNTIME READER OUT: (exit status, standard output, standard error)."""
    paths = write_fakes(d)
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.dict(os.environ, dict(env, PYTHON=paths["python"], KERNTIME_MEASURE_CPUS="")):
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = turns.main([paths["kerntime"], os.path.join(d, "reader.so"),
                                 os.path.join(d, "out")] + args)
    return status, out.getvalue(), err.getvalue()


class Turns(unittest.TestCase):
    def test_paired_turns_cancel_the_hosts_drift(self):
        with tempfile.TemporaryDirectory() as d:
            status, text, err = run_script(d, ["3", "4", "10"])
            self.assertEqual(status, 0, text + err)
            with open(os.path.join(d, "out", "turns.jsonl")) as f:
                rows = [json.loads(line) for line in f]
            self.assertEqual([(r["session"], r["round"]) for r in rows],
                             [(s, r) for s in range(3) for r in range(1, 5)])
            self.assertEqual({r["block"] for r in rows}, {10})
            # The host slowed by 3 % a turn: over a session's 16 turns the bare step grew by half,
            # more than every tool's cost, and still each round's ratios are the tools' own, to
            # within the drift between two neighbouring turns.
            bare = [r["bare"] for r in rows if r["session"] == 0]
            self.assertGreater(max(bare) / min(bare), 1.3)
            # During each turn, each of the other three arms' step processes was stopped.
            for session in range(3):
                with open(os.path.join(d, "out", f"session-{session}", "stopped")) as f:
                    seen = [json.loads(line) for line in f]
                self.assertEqual(len(seen), 16)
                self.assertEqual(seen[-1], [True, True, True])
                self.assertTrue(all(all(s) for s in seen), seen)
            self.assertIn("session 1: 4 rounds", text)
            lines = text.splitlines()
            verdict = [line for line in lines if line.startswith("(run - reader) / bare: ")][0]
            margin = float(verdict.split()[5].rstrip("%"))
            self.assertGreater(margin, 0.0, verdict)
            self.assertLess(margin, 8.0, verdict)
            self.assertIn("(median of 3 sessions", verdict)
            self.assertIn("the step: about 110 kernels", text)
            # Each session's kernels, the same count from both readers, and the GPU time the
            # fake run's kernels took over the reader's.
            kernel_lines = [line for line in lines if "kernels and their GPU time" in line]
            self.assertEqual(len(kernel_lines), 3)
            count = 110 * (4 * 10 + 2 * 4 * 10 // 10 + 5)  # 4 rounds of 10 steps
            self.assertIn(f"reader {count} in ", kernel_lines[0])
            self.assertTrue(kernel_lines[0].endswith(
                f"run {count} in {count * 1.02 / 1e6:.3f} ms (+2.00 % of the reader's)"),
                kernel_lines[0])
            with open(os.path.join(d, "out", "kernels.jsonl")) as f:
                kept = [json.loads(line) for line in f]
            self.assertEqual(sorted((r["arm"], r["session"]) for r in kept),
                             [(a, s) for a in ("reader", "run") for s in range(3)])
            self.assertEqual({r["kernels"] for r in kept}, {count})
            self.assertIn("GPU time of run's kernels over the reader's: +2.00 % (median of 3 "
                          "sessions, too few for a 95 % interval)", lines)
            self.assertEqual(turns.kernel_summary({"run": [0.01, 0.02, 0.03, 0.01, 0.02, 0.02]}),
                             ["GPU time of run's kernels over the reader's: +2.00 % (median of 6 "
                              "sessions, interval [+1.00, +3.00] %)"])
            self.assertTrue(lines[-1].startswith("kerntime run cost +"), lines[-1])
            # The same figures again from the saved rounds.
            summary = io.StringIO()
            with contextlib.redirect_stdout(summary):
                self.assertEqual(turns.main(
                    ["--summarize", os.path.join(d, "out", "turns.jsonl")]), 0)
            self.assertEqual(summary.getvalue().splitlines()[-1], lines[-1])
            # Every process's final line, with its arm and session.
            with open(os.path.join(d, "out", "processes.jsonl")) as f:
                kept = [json.loads(line) for line in f]
            self.assertEqual(sorted((r["arm"], r["round"]) for r in kept),
                             sorted((a, s) for a in ("bare", "reader", "run", "profiler")
                                    for s in (1, 2, 3)))

    def test_a_sessions_figures_are_the_medians_of_each_rounds_own_ratios(self):
        figures = {"bare": [3.5, 7.0, 3.6], "reader": [3.64, 7.28, 3.75],
                   "run": [3.71, 7.7, 3.8]}
        own = turns.session_figures(figures)
        self.assertAlmostEqual(own["margin"], statistics.median(
            [(3.71 - 3.64) / 3.5, (7.7 - 7.28) / 7.0, (3.8 - 3.75) / 3.6]), places=12)
        self.assertAlmostEqual(own["reader"], 0.04, places=12)
        self.assertEqual(own["bare_ms"], 3.6)

    def test_a_process_that_fails_ends_the_run_with_its_reason(self):
        with tempfile.TemporaryDirectory() as d:
            status, text, err = run_script(d, ["2", "3", "5"], FAKE_FAIL="run")
            self.assertEqual(status, 1, text + err)
            self.assertIn("session 1: run: ", err)
            self.assertIn("the process ended with 3", err)
            self.assertIn("the fake step failed", err)
            # No session was kept, and none of the other arms' processes outlives the failure.
            self.assertFalse(os.path.exists(os.path.join(d, "out", "turns.jsonl")))
            self.assertEqual(len(step_pids(d)), 3)
            for pid in step_pids(d):
                self.assertTrue(gone(pid), pid)

    def test_a_time_limits_sigterm_kills_every_arm_stopped_or_not(self):
        with tempfile.TemporaryDirectory() as d:
            write_fakes(d)
            env = dict(os.environ, PYTHON=os.path.join(d, "python"), KERNTIME_MEASURE_CPUS="",
                       FAKE_TURN_SECONDS="0.02")
            script = os.path.join(ROOT, "bench", "scripts", "step_cost_turns.py")
            with subprocess.Popen([sys.executable, script, os.path.join(d, "kerntime"),
                                   os.path.join(d, "reader.so"), os.path.join(d, "out"), "1",
                                   "400", "2"], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) as coordinator:
                taken = os.path.join(d, "out", "session-0", "turns-taken")
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and (
                        not os.path.exists(taken) or os.path.getsize(taken) < 10):
                    time.sleep(0.02)
                self.assertGreaterEqual(os.path.getsize(taken), 10)
                coordinator.send_signal(signal.SIGTERM)
                _, err = coordinator.communicate(timeout=60)
            self.assertEqual(coordinator.returncode, 128 + signal.SIGTERM, err)
            self.assertEqual(len(step_pids(d)), 4)
            for pid in step_pids(d):
                self.assertTrue(gone(pid), pid)
            # A session cut short is not kept: --summarize would take it for a whole one.
            self.assertFalse(os.path.exists(os.path.join(d, "out", "turns.jsonl")))

    def test_sessions_of_two_hosts_are_judged_host_by_host_then_pooled(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "turns.jsonl")
            with open(path, "w") as f:
                for session, host, run in ((0, "A", 4.12), (1, "A", 4.12), (2, "B", 4.4)):
                    for r in range(4):
                        f.write(json.dumps({"bare": 4.0, "reader": 4.0, "run": run,
                                            "session": session, "round": r + 1, "block": 25,
                                            "host": host}) + "\n")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(turns.main(["--summarize", path]), 0)
            text = out.getvalue()
            self.assertIn("A: 2 sessions\n", text)
            self.assertIn("B: 1 sessions\n", text)
            self.assertIn("  (run - reader) / bare: +3.00 % (median of 2 sessions", text)
            self.assertIn("  (run - reader) / bare: +10.00 % (median of 1 sessions", text)
            pooled = text[text.index("pooled over the hosts:"):]
            self.assertIn("(run - reader) / bare: +3.00 % (median of 3 sessions", pooled)

    def test_balanced_orders_put_each_arm_after_every_other_equally_often(self):
        for n in range(2, 7):
            orders = turns.balanced_orders(n)
            self.assertEqual(len(orders), n if n % 2 == 0 else 2 * n)
            for order in orders:
                self.assertEqual(sorted(order), list(range(n)))
            pairs = collections.Counter((o[i], o[i + 1]) for o in orders for i in range(n - 1))
            self.assertEqual(len(pairs), n * (n - 1), n)
            self.assertEqual(len(set(pairs.values())), 1, (n, pairs))
            self.assertEqual(len(set(collections.Counter(o[0] for o in orders).values())), 1)

    def test_no_session_is_started_that_could_not_end_in_time(self):
        with tempfile.TemporaryDirectory() as d:
            status, text, err = run_script(d, ["5", "2", "5"], KERNTIME_STEP_COST_SECONDS="0.01")
            self.assertEqual(status, 0, text + err)
            self.assertIn("1 sessions done; another would end past the limit", text)
            self.assertIn("(median of 1 sessions", text)
            self.assertIn("too few sessions for a 95 % interval", text)

    def test_an_output_folder_with_rounds_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "out"))
            open(os.path.join(d, "out", "turns.jsonl"), "w").close()
            status, _, err = run_script(d, [])
            self.assertEqual(status, 2)
            self.assertIn("holds rounds already", err)

    def test_an_unknown_breakdown_arm_is_bad_usage(self):
        with tempfile.TemporaryDirectory() as d:
            status, _, err = run_script(d, [], KERNTIME_STEP_COST_ARMS="run-no-such-part")
            self.assertEqual(status, 2)
            self.assertIn("unknown arm run-no-such-part", err)
            status, _, err = run_script(d, [], KERNTIME_STEP_COST_ARMS="proflier")
            self.assertEqual(status, 2)
            self.assertIn("unknown arm proflier", err)
            status, _, err = run_script(d, [], KERNTIME_STEP_COST_ARMS="run")
            self.assertEqual(status, 2)
            self.assertIn("repeated arm run", err)


class TorchStepTurns(unittest.TestCase):
    """torch_step.py's side of the turns (run_turns), taken out of the script without torch and
    run in a thread against the coordinator's FIFOs (step_cost_turns.Turns)."""

    def test_lead_in_then_timed_steps_each_turn_until_end(self):
        path = os.path.join(ROOT, "bench", "run", "torch_step.py")
        with open(path) as f:
            tree = ast.parse(f.read())
        (run_turns,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and
                        n.name == "run_turns"]
        with tempfile.TemporaryDirectory() as d:
            fifo = turns.Turns(os.path.join(d, "run"))
            calls = []
            clock = iter(range(0, 10 ** 6, 2))  # each timed step takes 2 ms of this clock
            scope = {"json": json, "statistics": statistics, "turns": fifo.prefix,
                     "TURN_LEAD_IN": 2, "untimed": [], "step_s": [],
                     "work": lambda: calls.append("step"),
                     "torch": types.SimpleNamespace(cuda=types.SimpleNamespace(
                         synchronize=lambda: calls.append("sync")))}
            exec(compile(ast.Module(body=[run_turns], type_ignores=[]), path, "exec"), scope)
            side = threading.Thread(target=scope["run_turns"],
                                    args=(lambda: next(clock) / 1e3,))
            side.start()
            alive = types.SimpleNamespace(poll=lambda: None if side.is_alive() else 0,
                                          returncode=0)
            self.assertEqual(fifo.answer(alive, 10, "ready"), "ready")
            fifo.send("3")
            self.assertEqual(json.loads(fifo.answer(alive, 10, "turn 1")),
                             {"step_ms_median": 2.0})
            fifo.send("4")
            fifo.answer(alive, 10, "turn 2")
            fifo.send("end")
            side.join(10)
            fifo.close()
            self.assertFalse(side.is_alive())
            self.assertEqual(calls, ["step"] * 5 + ["sync"] + ["step"] * 6 + ["sync"])
            self.assertEqual(len(scope["step_s"]), 7)
            self.assertEqual(scope["untimed"], [2, 2])


if __name__ == "__main__":
    unittest.main()
