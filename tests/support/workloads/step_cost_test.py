#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/scripts/step_cost.py without a GPU: the verdict on the cost target, and the whole script with a
# fake Python (standing for torch_step.py under each tool) and a fake `kerntime run`.
import ast
import contextlib
import importlib.util
import io
import json
import os
import random
import stat
import statistics
import sys
import tempfile
import time
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
spec = importlib.util.spec_from_file_location("step_cost", os.path.join(ROOT, "bench", "scripts", "step_cost.py"))
sc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sc)


def samples(bare, reader, run, profiler):
    return {"bare": bare, "reader": reader, "run": run, "profiler": profiler}


class Verdict(unittest.TestCase):
    def test_interval_ranks(self):
        self.assertEqual([sc.interval_rank(n) for n in (9, 15, 41)], [2, 4, 14])

    def test_fewer_than_six_rounds_have_no_95_percent_interval(self):
        self.assertEqual([n for n in range(1, 9) if sc.covers(n)], [6, 7, 8])
        bare = [4.0] * 5
        lines = sc.verdict({"bare": bare, "reader": [4.1] * 5, "run": [4.12] * 5})
        self.assertIn("too few rounds for a 95 % interval", lines[-2])

    def test_met_outright_only_where_the_interval_is_within_the_bound(self):
        self.assertEqual(sc.outcome(0.031, 0.0, 0.05, 9), "target not met")
        self.assertEqual(sc.outcome(0.02, 0.01, 0.03, 9), "target met")
        self.assertEqual(sc.outcome(0.02, 0.01, 0.031, 9), "target met at the median only (its "
                         "95 % interval reaches over the bound)")
        self.assertEqual(sc.outcome(0.02, 0.01, 0.02, 5), "target met at the median only (too "
                         "few values for a 95 % interval)")

    def test_met_when_the_median_margin_is_within_three_percent_of_bare(self):
        # Margins (run - reader) / bare: 0, 1, ..., 8 % of a 4 ms step: median 4 % -> not met.
        bare = [4.0] * 9
        reader = [4.2] * 9
        run = [4.2 + 0.04 * i for i in range(9)]
        lines = sc.verdict(samples(bare, reader, run, [5.0] * 9))
        self.assertEqual(lines[-1], "kerntime run cost +9.0% vs reader +5.0%: target not met")
        self.assertIn("(run - reader) / bare: +4.00 % (interval [+1.00, +7.00] %), bound +3 %: "
                      "the interval straddles it", lines)
        self.assertIn("cost of torch.profiler: +25.0 % of the bare step (median of 9 rounds, "
                      "interval [+25.0, +25.0] %)", lines)
        # Now 0 - 2 % with one round at 8 %: the median margin is 1 %.
        run = [4.2 + 0.04 * m for m in (0, 1, 1, 1, 1, 2, 2, 2, 8)]
        lines = sc.verdict(samples(bare, reader, run, [5.0] * 9))
        self.assertEqual(lines[-1], "kerntime run cost +6.0% vs reader +5.0%: target met")
        self.assertIn("(run - reader) / bare: +1.00 % (interval [+1.00, +2.00] %), bound +3 %: "
                      "the interval lies below it", lines)

    def test_a_breakdown_arm_beside_the_recorder_and_the_reader(self):
        # Switching a part off saves 0.2 ms of a 4 ms step in every round: -5 % beside run,
        # +2 % beside the reader; the verdict's line stays last.
        bare, reader, run = [4.0] * 9, [4.2] * 9, [4.48] * 9
        s = dict(samples(bare, reader, run, [5.0] * 9), **{"run-no-checkpoint": [4.28] * 9})
        lines = sc.verdict(s)
        self.assertIn("(run-no-checkpoint - run) / bare: -5.00 % (interval [-5.00, -5.00] %)", lines)
        self.assertIn("(run-no-checkpoint - reader) / bare: +2.00 % (interval [+2.00, +2.00] %)",
                      lines)
        self.assertEqual(lines[-1], "kerntime run cost +12.0% vs reader +5.0%: target not met")

    def test_pooled_rounds_keep_the_breakdown_arms_every_round_ran(self):
        with tempfile.TemporaryDirectory() as tmp:
            both, one = os.path.join(tmp, "both.jsonl"), os.path.join(tmp, "one.jsonl")
            row = {"bare": 4.0, "reader": 4.2, "run": 4.48, "profiler": 5.0}
            with open(both, "w") as f:
                f.write(json.dumps(dict(row, **{"run-no-checkpoint": 4.28, "run-timeline": 4.5}))
                        + "\n")
            with open(one, "w") as f:
                f.write(json.dumps(dict(row, **{"run-no-checkpoint": 4.28})) + "\n")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(sc.main(["--summarize", both, one]), 0)
        self.assertIn("(run-no-checkpoint - run) / bare: -5.00 %", out.getvalue())
        self.assertNotIn("run-timeline", out.getvalue())

    def test_rounds_of_several_hosts_are_judged_host_by_host_then_pooled(self):
        # One host's margin is 1 %, the other's 5 %, and the oldest rounds name no host.
        quiet = {"bare": 4.0, "reader": 4.2, "run": 4.24, "profiler": 5.0, "host": "A x16, GPU-1"}
        slow = {"bare": 4.0, "reader": 4.2, "run": 4.4, "profiler": 5.0, "host": "B x16, GPU-2"}
        old = {"bare": 4.0, "reader": 4.2, "run": 4.28, "profiler": 5.0}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "rounds.jsonl")
            with open(path, "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in [quiet] * 3 + [slow] * 2 + [old])
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(sc.main(["--summarize", path]), 0)
        text = out.getvalue()
        a, b, none = (text.index(h) for h in ("A x16, GPU-1: 3 rounds", "B x16, GPU-2: 2 rounds",
                                              "host not recorded: 1 rounds"))
        pooled = text.index("pooled over the hosts:\n6 rounds from 1 file(s)")
        self.assertLess(a, b)
        self.assertLess(b, none)
        self.assertLess(none, pooled)
        self.assertIn("(run - reader) / bare: +1.00 %", text[a:b])
        self.assertIn("(run - reader) / bare: +5.00 %", text[b:none])
        self.assertIn("(run - reader) / bare: +2.00 %", text[none:pooled])
        # The pooled verdict stays last: margins 1, 1, 1, 5, 5, 2 -> median 1.5 %.
        self.assertIn("(run - reader) / bare: +1.50 %", text[pooled:])
        self.assertTrue(text.rstrip().endswith(
            "target met at the median only (its 95 % interval reaches over the bound)"), text)

    def test_one_host_is_judged_once(self):
        row = {"bare": 4.0, "reader": 4.2, "run": 4.24, "profiler": 5.0, "host": "A x16, GPU-1"}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "rounds.jsonl")
            with open(path, "w") as f:
                f.writelines(json.dumps(row) + "\n" for _ in range(3))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(sc.main(["--summarize", path]), 0)
        self.assertNotIn("pooled over the hosts", out.getvalue())
        self.assertEqual(out.getvalue().count("(run - reader) / bare"), 1)

    def test_the_margin_is_per_round(self):
        # A slow round slows every tool alike: the margin stays 2 % of that round's bare step.
        bare = [4.0, 8.0, 4.0]
        reader = [4.2, 8.4, 4.2]
        run = [4.28, 8.56, 4.28]
        self.assertTrue(sc.verdict(samples(bare, reader, run, bare))[-1].endswith(
            "target met at the median only (too few values for a 95 % interval)"))


FAKE_PYTHON = """\
#!{python}
# Stands for python3 running torch_step.py MODE block STEPS under each tool.
import json, os, sys
mode, steps = sys.argv[2], int(sys.argv[4])
prefix = os.environ.get("KERNTIME_REFERENCE_OUT")
if prefix:
    with open(f"{{prefix}}.{{os.getpid()}}.tsv", "w") as f:
        for i in range(120 * (steps + 5)):
            f.write(f"{{i + 1}}\\t{{i + 2}}\\t0\\t7\\t{{i}}\\t0\\tk\\n")
step = (4.8 if mode == "profiler-time" else 3.8 if os.environ.get("FAKE_UNDER_RUN") else
        3.64 if os.environ.get("CUDA_INJECTION64_PATH") else 3.5)
print(json.dumps({{"wall_s": 1.0, "step_ms_median": step, "step_ms_max": step}}))
"""

FAKE_WORKLOAD = """\
#!{python}
# Stands for python3 running tests/support/workloads/cupy_raw.py 50 under each tool.
import json, os, sys
assert sys.argv[1].endswith("cupy_raw.py") and sys.argv[2:] == ["50"], sys.argv
assert os.environ["HF_HUB_OFFLINE"] == "1"
prefix = os.environ.get("KERNTIME_REFERENCE_OUT")
if prefix:
    with open(f"{{prefix}}.{{os.getpid()}}.tsv", "w") as f:
        for i in range(1050):
            f.write(f"{{i + 1}}\\t{{i + 2}}\\t0\\t7\\t{{i}}\\t0\\tk\\n")
step = (0.16 if os.environ.get("KERNTIME_RUN_RECORD_OFF") == "sync-flush" else
        0.598 if os.environ.get("FAKE_UNDER_RUN") else
        0.154 if os.environ.get("CUDA_INJECTION64_PATH") else 0.134)
print("some line the program prints")
print("workload-result " + json.dumps({{"program": "cupy-rawkernel", "steps": 50,
                                        "step_ms": [step], "step_ms_median": step}}))
"""

FAKE_KERNTIME = """\
#!{python}
import os, subprocess, sys
args = sys.argv[1:]
assert args[0] == "run" and args[1] == "-o" and "CUDA_INJECTION64_PATH" not in os.environ, args
open(args[2], "w").close()
sys.exit(subprocess.run(args[args.index("--") + 1:], env=dict(os.environ, FAKE_UNDER_RUN="1")).returncode)
"""


def run_script(d, python_text, rounds, **env):
    """step_cost.py's main on the fake step `python_text` and the fake `kerntime run`, written into
    folder `d`, 10 steps a process, with `env` set: (exit status, standard output)."""
    paths = {}
    for name, text in (("python", python_text), ("kerntime", FAKE_KERNTIME)):
        paths[name] = os.path.join(d, name)
        with open(paths[name], "w") as f:
            f.write(text.format(python=sys.executable))
        os.chmod(paths[name], stat.S_IRWXU)
    out = io.StringIO()
    with mock.patch.dict(os.environ, dict(env, PYTHON=paths["python"], KERNTIME_MEASURE_CPUS="")):
        with contextlib.redirect_stdout(out):
            status = sc.main([paths["kerntime"], os.path.join(d, "reader.so"),
                              os.path.join(d, "out"), rounds, "10"])
    return status, out.getvalue()


class HostProbe(unittest.TestCase):
    """torch_step.py's host probe (KERNTIME_STEP_PROBE=1), taken out of the script without
    torch: four operations, each its fastest of five runs in ms."""

    def test_each_operation_is_timed(self):
        path = os.path.join(ROOT, "bench", "run", "torch_step.py")
        with open(path) as f:
            tree = ast.parse(f.read())
        (probe,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and
                    n.name == "host_probe"]
        scope = {"os": os, "time": time}
        exec(compile(ast.Module(body=[probe], type_ignores=[]), path, "exec"), scope)
        figures = scope["host_probe"]()
        self.assertEqual(sorted(figures), ["faults_ms", "loop_ms", "scan_ms", "syscalls_ms"])
        for name, ms in figures.items():
            self.assertGreater(ms, 0.0, name)
            self.assertLess(ms, 1000.0, name)


def read_processes(mode, rows):
    """step_cost.py's main in `mode` (--levels or --ticks) on `rows` written as a
    processes.jsonl: (exit status, standard output, standard error)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "processes.jsonl")
        with open(path, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = sc.main([mode, path])
    return status, out.getvalue(), err.getvalue()


class HostTick(unittest.TestCase):
    """torch_step.py's host tick (KERNTIME_STEP_TICKS=N), taken out of the script without torch."""

    def test_the_loop_is_timed_in_ms(self):
        path = os.path.join(ROOT, "bench", "run", "torch_step.py")
        with open(path) as f:
            tree = ast.parse(f.read())
        (tick,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "host_tick"]
        scope = {"statistics": statistics, "time": time}
        exec(compile(ast.Module(body=[tick], type_ignores=[]), path, "exec"), scope)
        ms = scope["host_tick"]()
        self.assertGreater(ms, 0.0)
        self.assertLess(ms, 1000.0)


def ticked_rows(rounds=9, seed=7):
    """Processes of four arms in `rounds` rounds; each block's host runs at 1x or 1.7x (as on the
    device; the same blocks slow in every arm of a round), and the step and the tick follow it;
    under the reader and kerntime run the tick is also 1.5x, a tool's thread taking the
    program's CPU."""
    rng = random.Random(seed)
    step = {"bare": 3.0, "reader": 3.09, "run": 3.15, "profiler": 5.0}
    tool = {"bare": 1.0, "reader": 1.5, "run": 1.5, "profiler": 1.0}
    rows = []
    for i in range(1, rounds + 1):
        host = [rng.choice((1.0, 1.7)) for _ in range(20)]
        for arm in step:
            blocks = [[step[arm] * slow, 0.3 * slow * tool[arm]] for slow in host]
            raw = statistics.median(s for s, _ in blocks)
            rows.append(dict(arm=arm, round=i, step_ms_median=raw, blocks=blocks))
    return rows


class Ticks(unittest.TestCase):
    def test_the_spread_and_median_tick(self):
        self.assertAlmostEqual(sc.host_ticks.median_tick([[6.0, 0.6], [3.0, 0.3], [3.3, 0.4]]), 0.4)
        self.assertAlmostEqual(sc.host_ticks.spread([1.0, 1.0, 1.0, 1.0]), 0.0)
        self.assertAlmostEqual(sc.host_ticks.spread([1.0, 2.0, 3.0, 4.0, 5.0]), 2.0 / 3.0)

    def test_only_rounds_with_every_arm_asked_for(self):
        rows = [dict(arm=a, round=r) for r in (1, 2) for a in ("bare", "reader", "run")]
        rows = [p for p in rows if not (p["round"] == 1 and p["arm"] == "run")]
        rounds = sc.rounds_of(rows, ("bare", "reader", "run"))
        self.assertEqual([sorted(r) for r in rounds], [["bare", "reader", "run"]])
        self.assertEqual(rounds[0]["bare"]["round"], 2)

    def test_a_tool_that_slows_the_host_shows_in_its_tick(self):
        status, text, _ = read_processes("--ticks", ticked_rows())
        self.assertEqual(status, 0, text)
        self.assertIn("36 processes", text)
        self.assertIn("the tick under reader over the same round's bare tick: x1.500", text)
        self.assertIn("the tick under run over the same round's bare tick: x1.500", text)
        self.assertIn("the tick under profiler over the same round's bare tick: x1.000", text)
        # Step and tick move together from block to block in every process.
        self.assertIn("within a process (Spearman, median over 36 processes): +1.00", text)

    def test_without_ticks_it_says_how_to_get_them(self):
        status, _, err = read_processes("--ticks", [dict(arm="bare", round=1, step_ms_median=3.0)])
        self.assertEqual(status, 2)
        self.assertIn("KERNTIME_STEP_TICKS=10", err)


sys.path.insert(0, os.path.join(ROOT, "bench", "run"))
import thread_cpu  # noqa: E402


class Threads(unittest.TestCase):
    def test_a_busy_main_thread_counts_its_cpu_per_step(self):
        before = thread_cpu.snapshot()
        end = time.process_time() + 0.05
        while time.process_time() < end:
            pass
        groups = thread_cpu.per_step(before, thread_cpu.snapshot(), 10)
        self.assertGreaterEqual(groups["main"][0], 4000.0)  # 50 ms over 10 steps, us a step
        self.assertLess(groups["main"][0], 50000.0)
        self.assertEqual(groups["main"][2], 1)

    def test_each_arms_thread_groups_and_the_course_of_its_steps(self):
        course = [0.6] * 10 + [0.1] * 30  # slow while a budget lasts, then as bare
        rows = [dict(arm="run", round=r, step_ms_median=0.1, step_ms=course,
                     threads={"main": [100.0 + r, 5.0, 1], "kerntime-read": [10.0 * r, 2.0, 1],
                              "idle": [0.1, 0.0, 3]}) for r in (1, 2, 3)]
        rows.append(dict(arm="bare", round=1, step_ms_median=0.1, threads={"main": [90.0, 0.0, 1]}))
        status, text, _ = read_processes("--threads", rows)
        self.assertEqual(status, 0, text)
        lines = text.splitlines()
        self.assertIn("  run                    0.100 ms (first quarter 0.600, last 0.100), "
                      "3 processes", lines)
        self.assertIn("      main                 cpu     102.0  wait       5.0  (1 threads)", lines)
        self.assertIn("      kerntime-read        cpu      20.0  wait       2.0  (1 threads)", lines)
        self.assertNotIn("idle", text)  # under half a microsecond a step either way
        self.assertIn("  bare                   0.100 ms, 1 processes", lines)

    def test_counters_per_step_and_a_group_missing_one(self):
        before = {1: ("python", 0, 0, {"voluntary_switches": 10.0, "minor_faults": 5.0}),
                  2: ("pt_autograd_0", 0, 0, {"voluntary_switches": 4.0, "minor_faults": 0.0})}
        after = {1: ("python", 4000, 1000, {"voluntary_switches": 30.0, "minor_faults": 9.0}),
                 2: ("pt_autograd_0", 2000, 0, {"minor_faults": 2.0}),  # one count was not read
                 3: ("pt_autograd_1", 2000, 0, {"voluntary_switches": 7.0, "minor_faults": 3.0})}
        groups = thread_cpu.per_step(before, after, 2)
        main = [g for name, g in groups.items() if name != "pt_autograd_0"
                and name != "pt_autograd_1"][0]
        self.assertEqual(main[3], {"voluntary_switches": 10.0, "minor_faults": 2.0})
        self.assertEqual(groups["pt_autograd_0"][3], {"minor_faults": 1.0})
        # Started between the snapshots: its counts from zero.
        self.assertEqual(groups["pt_autograd_1"][3], {"voluntary_switches": 3.5,
                                                      "minor_faults": 1.5})

    def test_the_counters_medians_beside_the_cpu(self):
        rows = [dict(arm="run", round=r, step_ms_median=0.1,
                     threads={"main": [100.0, 0.0, 1, {"minor_faults": 2.0 + r,
                                                       "voluntary_switches": 1.0}]})
                for r in (1, 2, 3)]
        rows.append(dict(arm="run", round=4, step_ms_median=0.1, threads={"main": [100.0, 0.0, 1]}))
        status, text, _ = read_processes("--threads", rows)
        self.assertEqual(status, 0, text)
        self.assertIn("      main                 cpu     100.0  wait       0.0  (1 threads)  "
                      "vcsw 1.0  minflt 4.0", text.splitlines())

    def test_without_thread_times_it_says_how_to_get_them(self):
        status, _, err = read_processes("--threads", [dict(arm="bare", round=1, step_ms_median=3.0)])
        self.assertEqual(status, 2)
        self.assertIn("KERNTIME_STEP_THREADS=1", err)


class Levels(unittest.TestCase):
    def test_rank_correlation(self):
        self.assertAlmostEqual(sc.spearman([1, 2, 3, 4], [10, 20, 30, 45]), 1.0)
        self.assertAlmostEqual(sc.spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1.0)
        self.assertEqual(sc.ranks([5, 1, 5, 3]), [3.5, 1.0, 3.5, 2.0])
        self.assertEqual(sc.spearman([1, 1, 1], [1, 2, 3]), 0.0)

    def test_processes_beside_their_probe_and_the_rounds_it_calls_alike(self):
        # Ten rounds; in round 4 the run process's host is slow (its page faults take 2x) and
        # its step too; the other rounds' margin is +2 % of bare.
        rows = []
        for i in range(1, 11):
            slow = i == 4
            for arm, ms in (("bare", 3.0), ("reader", 3.1), ("run", 3.16 + (2.0 if slow else 0)),
                            ("profiler", 4.0)):
                probe = {"loop_ms": 2.5, "faults_ms": 28.0 if slow and arm == "run" else 14.0,
                         "syscalls_ms": 2.3, "scan_ms": 6.0}
                rows.append(dict(arm=arm, round=i, step_ms_median=ms + 0.001 * i, probe=probe,
                                 probe_after=probe))
        status, text, _ = read_processes("--levels", rows)
        self.assertEqual(status, 0, text)
        self.assertIn("40 processes", text)
        first = text.splitlines()[1]
        self.assertTrue(first.startswith("  run       round  4   5.164 ms  x1.631"), first)
        self.assertIn("slow host: faults_ms", first)
        self.assertIn("rounds whose bare, reader and run processes the start probe calls alike "
                      "(no figure over 1.25 times its median): 9 of 10", text)
        self.assertIn("  (run - reader) / bare: +2.00 %", text)
        self.assertIn("target met", text)

    def test_without_a_probe_it_says_how_to_get_one(self):
        status, _, err = read_processes("--levels", [dict(arm="bare", round=1, step_ms_median=3.0)])
        self.assertEqual(status, 2)
        self.assertIn("KERNTIME_STEP_PROBE=1", err)


class WholeScript(unittest.TestCase):
    def test_four_arms_each_round_and_the_verdict(self):
        with tempfile.TemporaryDirectory() as d:
            status, text = run_script(d, FAKE_PYTHON, "9")
            self.assertEqual(status, 0, text)
            self.assertEqual(len([f for f in os.listdir(os.path.join(d, "out"))
                                  if f.startswith("cost-run-")]), 9)
            self.assertEqual(len([f for f in os.listdir(os.path.join(d, "out"))
                                  if f.startswith("cost-reader-")]), 9)
            self.assertIn("  reader    median  3.640  " + " ".join(["3.640"] * 9), text)
            # Each round is printed as it ends, before the summary.
            self.assertLess(text.index("round 9: "), text.index("  reader    median"), text)
            self.assertIn("reader 3.640 ms", text.splitlines()[0])
            self.assertIn("the step: about 120 kernels (the reader's count over the 10 + 5 steps "
                          "of round 1), 3.500 ms bare: a launch-bound step as the target "
                          "defines it", text)
            self.assertTrue(text.rstrip().endswith(
                "kerntime run cost +8.6% vs reader +4.0%: target not met"), text)
            # Every round saved; two such files judged pooled give the same rounds twice over.
            rounds = os.path.join(d, "out", "rounds.jsonl")
            with open(rounds) as f:
                saved = [json.loads(line) for line in f]
            self.assertEqual(len(saved), 9)
            host = saved[0].pop("host")
            self.assertEqual(saved[0], {"bare": 3.5, "reader": 3.64, "run": 3.8, "profiler": 4.8})
            # Every round of one call names the same host: the CPUs this machine has.
            self.assertEqual({r["host"] for r in saved[1:]}, {host})
            self.assertIn(f" x{os.cpu_count()}", host)
            pooled = io.StringIO()
            with contextlib.redirect_stdout(pooled):
                self.assertEqual(sc.main(["--summarize", rounds, rounds]), 0)
            self.assertIn("18 rounds from 2 file(s)", pooled.getvalue())
            self.assertIn("(median of 18 rounds", pooled.getvalue())
            self.assertTrue(pooled.getvalue().rstrip().endswith(
                "kerntime run cost +8.6% vs reader +4.0%: target not met"), pooled.getvalue())
            # Every process's own line is kept with its arm and round (the host probe rides in it).
            with open(os.path.join(d, "out", "processes.jsonl")) as f:
                kept = [json.loads(line) for line in f]
            self.assertEqual(len(kept), 36)
            self.assertEqual({(r["arm"], r["round"]) for r in kept},
                             {(a, i) for a in ("bare", "reader", "run", "profiler")
                              for i in range(1, 10)})
            self.assertEqual([r["step_ms_median"] for r in kept if r["round"] == 1 and
                              r["arm"] == "run"], [3.8])

    def test_a_workload_of_the_real_programs_instead_of_the_step(self):
        # The fake python stands for cupy_raw.py 50: its result line is the workload's, and it
        # is the program every arm runs; no torch.profiler arm.
        with tempfile.TemporaryDirectory() as d:
            status, text = run_script(d, FAKE_WORKLOAD, "3",
                                      KERNTIME_STEP_COST_WORKLOAD="cupy-rawkernel",
                                      KERNTIME_STEP_COST_ARMS="run-no-sync-flush")
            self.assertEqual(status, 0, text)
            with open(os.path.join(d, "out", "rounds.jsonl")) as f:
                saved = [json.loads(line) for line in f]
            with open(os.path.join(d, "out", "processes.jsonl")) as f:
                processes = [json.loads(line) for line in f]
        self.assertEqual(len(saved), 3)
        self.assertEqual(sorted(saved[0]), ["bare", "host", "reader", "run", "run-no-sync-flush"])
        # Each process keeps its steps (for --threads' first and last quarter).
        self.assertEqual([p["step_ms"] for p in processes if p["arm"] == "run"], [[0.598]] * 3)
        self.assertEqual([saved[0][a] for a in ("bare", "reader", "run", "run-no-sync-flush")],
                         [0.134, 0.154, 0.598, 0.16])
        self.assertIn("the workload cupy-rawkernel (.ci/real-workloads: ", text)
        self.assertIn("cupy_raw.py 50)", text)
        self.assertIn("the program: 1050 kernels under the reader in round 1, 0.134 ms a step "
                      "bare", text)
        # (0.598 - 0.154) / 0.134 and (0.16 - 0.598) / 0.134
        self.assertIn("(run - reader) / bare: +331.34 %", text)
        self.assertIn("(run-no-sync-flush - run) / bare: -326.87 %", text)
        self.assertNotIn("torch.profiler", text)

    def test_an_unknown_workload_is_bad_usage(self):
        with tempfile.TemporaryDirectory() as d:
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                status, _ = run_script(d, FAKE_WORKLOAD, "3", KERNTIME_STEP_COST_WORKLOAD="nope")
        self.assertEqual(status, 2)
        self.assertIn("unknown KERNTIME_STEP_COST_WORKLOAD nope; known: gpt2,", err.getvalue())

    def test_a_variant_reaches_every_arms_process(self):
        with tempfile.TemporaryDirectory() as d:
            # The fake step also notes the variant's environment it was started with.
            noting = FAKE_PYTHON.replace(
                "mode, steps = ",
                "open(os.path.join(os.environ['FAKE_DIR'], str(os.getpid())), 'w').write("
                "os.environ.get('GLIBC_TUNABLES', '-'))\nmode, steps = ", 1)
            notes = os.path.join(d, "notes")
            os.mkdir(notes)
            status, text = run_script(d, noting, "1", FAKE_DIR=notes,
                                      KERNTIME_STEP_COST_VARIANT="malloc-thp")
            self.assertEqual(status, 0, text)
            self.assertIn("variant malloc-thp; median step time per process", text)
            seen = []
            for name in os.listdir(notes):
                with open(os.path.join(notes, name)) as f:
                    seen.append(f.read())
            self.assertEqual(seen, ["glibc.malloc.hugetlb=1"] * 4)  # bare, reader, run, profiler

    def test_an_unknown_variant_is_bad_usage(self):
        err = io.StringIO()
        with mock.patch.dict(os.environ, KERNTIME_STEP_COST_VARIANT="fast"):
            with contextlib.redirect_stderr(err):
                self.assertEqual(sc.main(["kerntime", "reader.so", "out"]), 2)
        self.assertIn("unknown KERNTIME_STEP_COST_VARIANT fast", err.getvalue())


if __name__ == "__main__":
    unittest.main()
