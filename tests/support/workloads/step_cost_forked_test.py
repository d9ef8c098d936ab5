#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/scripts/step_cost_forked.py and bench/run/torch_step_forks.py without a GPU: the rounds
# forked from one Python under a fake `kerntime run`, each child running a fake step script that
# reads its arm from the environment it was given, and the verdict and kernel counts after.
import contextlib
import importlib.util
import io
import json
import os
import stat
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def load(name, *parts):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, *parts))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


forked = load("step_cost_forked", "bench", "scripts", "step_cost_forked.py")
forks = load("torch_step_forks", "bench", "run", "torch_step_forks.py")

KERNELS_PER_STEP = 120

# Stands for torch_step.py MODE SIZE STEPS, run as __main__ in each forked child. Its step time
# says which tool the child's environment starts: the fake kerntime's injection, the reader, or
# none (bare, or torch.profiler in profiler-time mode).
FAKE_STEP = """\
import ctypes, json, os, sys
mode, size, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
injection = os.environ.get("CUDA_INJECTION64_PATH")
nvtx = os.environ.get("NVTX_INJECTION64_PATH")
if os.environ.get("FAKE_STEP_FAILS") == ("run" if injection == "/fake/inject.so" else "other"):
    raise RuntimeError("the fake step failed")
kernels = {per_step} * (steps + 5)
if injection == "/fake/inject.so":
    assert nvtx in ("/fake/nvtx.so", None), nvtx
    with open(os.environ["FAKE_RUN_COUNTS"], "a") as f:
        f.write(f"{{kernels}}\\n")
    step = round(3.8 - (0.1 if os.environ.get("KERNTIME_RUN_RECORD_OFF") == "api" else 0.0)
                 - (0.035 if nvtx is None else 0.0), 6)
elif injection:
    assert nvtx is None and os.environ["KERNTIME_REFERENCE_FLUSH_AT_SYNC"] == "0", nvtx
    # Through C's stdio, never flushed here, as a tool's buffer is: only a process that ends
    # by exit() (not os._exit) writes it all.
    libc = ctypes.CDLL(None)
    libc.fopen.restype = ctypes.c_void_p
    path = f"{{os.environ['KERNTIME_REFERENCE_OUT']}}.{{os.getpid()}}.tsv"
    stream = ctypes.c_void_p(libc.fopen(path.encode(), b"w"))
    for i in range(kernels):
        libc.fputs(f"{{i + 1}}\\t{{i + 2}}\\t0\\t7\\t{{i}}\\t0\\tk\\n".encode(), stream)
    step = 3.64
else:
    assert nvtx is None, nvtx
    step = 4.8 if mode == "profiler-time" else 3.5
print(json.dumps({{"wall_s": 1.0, "step_ms_median": step, "step_ms_max": step, "size": size}}))
sys.stdout.flush()
if os.environ.get("FAKE_STEP_FAILS") == "at-exit" and mode == "profiler-time":
    os.abort()  # after the result, as a crash in a destructor at the end would
if mode == "profiler-time":
    sys.exit(0)  # as torch_step.py does in this mode
"""

# Stands for `kerntime run -o REPORT -- PROGRAM`: gives the program kerntime's injections, and
# writes a report of the kernels its processes counted (DROP of them lost, when set).
FAKE_KERNTIME = """\
#!{python}
import json, os, subprocess, sys
args = sys.argv[1:]
assert args[0] == "run" and args[1] == "-o" and "CUDA_INJECTION64_PATH" not in os.environ, args
counts = args[2] + ".counts"
env = dict(os.environ, CUDA_INJECTION64_PATH="/fake/inject.so",
           NVTX_INJECTION64_PATH="/fake/nvtx.so", FAKE_RUN_COUNTS=counts)
status = subprocess.run(args[args.index("--") + 1:], env=env).returncode
kernels = sum(int(line) for line in open(counts)) if os.path.exists(counts) else 0
kernels -= int(os.environ.get("FAKE_DROP", "0"))
with open(args[2], "w") as f:
    json.dump({{"trace": {{"counts": {{"kernels": kernels}}}}}}, f)
sys.exit(status)
"""


def run_forked(d, rounds, **env):
    """step_cost_forked.py's main on the fake step and `kerntime run`, in folder `d`, 10 steps a
    process: (exit status, standard output, standard error)."""
    paths = {"step": os.path.join(d, "fake_step.py"), "kerntime": os.path.join(d, "kerntime")}
    with open(paths["step"], "w") as f:
        f.write(FAKE_STEP.format(per_step=KERNELS_PER_STEP))
    with open(paths["kerntime"], "w") as f:
        f.write(FAKE_KERNTIME.format(python=sys.executable))
    os.chmod(paths["kerntime"], stat.S_IRWXU)
    out, err = io.StringIO(), io.StringIO()
    settings = dict(env, PYTHON=sys.executable, KERNTIME_MEASURE_CPUS="",
                    KERNTIME_STEP_SCRIPT=paths["step"], KERNTIME_STEP_IMPORTS="json")
    with mock.patch.dict(os.environ, settings):
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = forked.main([paths["kerntime"], os.path.join(d, "reader.so"),
                                  os.path.join(d, "out"), str(rounds), "10"])
    return status, out.getvalue(), err.getvalue()


class Environment(unittest.TestCase):
    def test_each_arm_starts_only_its_own_tool(self):
        self.assertEqual(forks.arm_environment("run", "/r.so", "/o", 3), {})
        self.assertEqual(forks.arm_environment("run-no-nvtx", "/r.so", "/o", 3),
                         {"NVTX_INJECTION64_PATH": None})
        for arm in ("bare", "profiler"):
            self.assertEqual(forks.arm_environment(arm, "/r.so", "/o", 3),
                             {"CUDA_INJECTION64_PATH": None, "NVTX_INJECTION64_PATH": None})
        # step_cost.py's breakdown arms, their run options as the settings those options set.
        self.assertEqual(forks.arm_environment("run-kernels-only", "/r.so", "/o", 3),
                         {"KERNTIME_RUN_RECORD_OFF": "api,scopes,copies",
                          "KERNTIME_RUN_LAST_LAUNCH": "0", "KERNTIME_RUN_CHECKPOINT_MS": "0"})
        self.assertEqual(forks.arm_environment("run-no-api", "/r.so", "/o", 3),
                         {"KERNTIME_RUN_RECORD_OFF": "api"})
        self.assertEqual(forks.arm_environment("run-as-before", "/r.so", "/o", 3),
                         {"KERNTIME_RUN_AS_BEFORE": "tags,api"})
        for arm in forks.BREAKDOWN:
            self.assertIsInstance(forks.arm_environment(arm, "/r.so", "/o", 3), dict, arm)
        self.assertEqual(forks.arm_environment("reader", "/r.so", "/o", 3),
                         {"CUDA_INJECTION64_PATH": "/r.so", "NVTX_INJECTION64_PATH": None,
                          "KERNTIME_REFERENCE_FLUSH_AT_SYNC": "0",
                          "KERNTIME_REFERENCE_OUT": "/o/cost-reader-3"})

    def test_outside_kerntime_run_it_refuses(self):
        err = io.StringIO()
        with mock.patch.dict(os.environ, {"CUDA_INJECTION64_PATH": ""}):
            with contextlib.redirect_stderr(err):
                self.assertEqual(forks.main(["/r.so", "/tmp/unused", "1", "10", "block1"]), 2)
        self.assertIn("run this under kerntime run", err.getvalue())


class Parent(unittest.TestCase):
    def test_a_gpu_tool_started_before_the_forks_is_named(self):
        self.assertEqual(forks.started_in_parent(), "")
        started = mock.MagicMock()
        started.cuda.is_initialized.return_value = True
        with mock.patch.dict(sys.modules, {"torch": started}):
            self.assertEqual(forks.started_in_parent(), "torch started CUDA")

    def test_a_child_cut_short_gives_no_result(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertIsNone(forks.take_result("run", 0, -9, '{"step_ms_med'))
            self.assertEqual(forks.take_result("bare", 1, 0, '{"step_ms_median": 3.0}'),
                             {"step_ms_median": 3.0})
        self.assertIn("torch_step_forks: run, round 1: exit -9, no result", err.getvalue())


class Rounds(unittest.TestCase):
    def test_every_arm_in_every_round_and_the_verdict(self):
        with tempfile.TemporaryDirectory() as d:
            status, text, err = run_forked(d, 9)
            self.assertEqual(status, 0, text + err)
            out = os.path.join(d, "out")
            with open(os.path.join(out, "rounds.jsonl")) as f:
                rounds = [json.loads(line) for line in f]
            with open(os.path.join(out, "processes.jsonl")) as f:
                processes = [json.loads(line) for line in f]
        self.assertEqual(rounds, [{"bare": 3.5, "reader": 3.64, "run": 3.8, "profiler": 4.8}] * 9)
        self.assertEqual(len(processes), 36)
        # The order rotates: round 2 starts with the reader, round 3 with kerntime run.
        self.assertEqual([p["arm"] for p in processes[4:8]], ["reader", "run", "profiler", "bare"])
        self.assertEqual({p["size"] for p in processes}, {"block1"})
        self.assertIn("round 9: bare 3.500 ms, reader 3.640 ms, run 3.800 ms, profiler 4.800 ms",
                      text)
        self.assertIn("9 rounds of processes forked from one Python", text)
        self.assertIn(f"the reader: {9 * 15 * KERNELS_PER_STEP} kernels in its 9 processes", text)
        self.assertIn(f"kerntime run: {9 * 15 * KERNELS_PER_STEP} kernels in its 9 processes: "
                      "the same count", text)
        self.assertIn("the step: about 120 kernels, 3.500 ms bare: a launch-bound step", text)
        # (3.8 - 3.64) / 3.5 = 4.57 % of the bare step, over the 3 % bound.
        self.assertIn("(run - reader) / bare: +4.57 %", text)
        self.assertTrue(text.rstrip().endswith("target not met"), text)

    def test_a_time_limit_ends_the_rounds_in_time_and_judges_those_done(self):
        # A round of four forks takes far more than 10 ms: the first starts, no second does.
        with tempfile.TemporaryDirectory() as d:
            status, text, err = run_forked(d, 9, KERNTIME_STEP_COST_SECONDS="0.01")
            with open(os.path.join(d, "out", "rounds.jsonl")) as f:
                self.assertEqual(len(f.readlines()), 1)
        self.assertEqual(status, 0, text + err)
        self.assertIn("torch_step_forks: 1 of 9 rounds within KERNTIME_STEP_COST_SECONDS=0.01",
                      text)
        self.assertIn("1 rounds of processes forked from one Python", text)
        self.assertIn(f"kerntime run: {15 * KERNELS_PER_STEP} kernels in its 1 processes: "
                      "the same count", text)

    def test_a_child_that_fails_after_its_result_is_said_and_its_result_kept(self):
        with tempfile.TemporaryDirectory() as d:
            status, text, err = run_forked(d, 2, FAKE_STEP_FAILS="at-exit")
        self.assertEqual(status, 0, text + err)
        self.assertIn("torch_step_forks: profiler, round 1: exit -6 after its result", text)
        self.assertIn("torch_step_forks: profiler, round 2: exit -6 after its result", text)
        self.assertIn("round 2: bare 3.500 ms, reader 3.640 ms, run 3.800 ms, profiler 4.800 ms",
                      text)

    def test_breakdown_arms_run_kerntime_with_a_part_off_and_are_set_beside_it(self):
        with tempfile.TemporaryDirectory() as d:
            status, text, err = run_forked(d, 9, KERNTIME_STEP_COST_ARMS="run-no-api,run-no-nvtx")
            with open(os.path.join(d, "out", "rounds.jsonl")) as f:
                rounds = [json.loads(line) for line in f]
        self.assertEqual(status, 0, text + err)
        # The fake step reads the switch the arm sets: 0.1 ms less without API records.
        self.assertEqual(rounds[0], {"bare": 3.5, "reader": 3.64, "run": 3.8, "profiler": 4.8,
                                     "run-no-api": 3.7, "run-no-nvtx": 3.765})
        self.assertIn("(run-no-api - run) / bare: -2.86 %", text)
        self.assertIn("(run-no-nvtx - run) / bare: -1.00 %", text)
        # And beside the reader: what is left with the part off.
        self.assertIn("(run-no-api - reader) / bare: +1.71 %", text)
        self.assertIn("(run-no-nvtx - reader) / bare: +3.57 %", text)
        self.assertIn(f"kerntime run: {3 * 9 * 15 * KERNELS_PER_STEP} kernels in its 27 "
                      "processes: 3 times the reader's count", text)
        self.assertIn("(run - reader) / bare: +4.57 %", text)  # the verdict's arms only

    def test_an_unknown_breakdown_arm_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            status, text, err = run_forked(d, 1, KERNTIME_STEP_COST_ARMS="run-no-gpu")
            self.assertFalse(os.path.exists(os.path.join(d, "out")))  # refused before it began
        self.assertEqual(status, 2)
        self.assertEqual(err, "step_cost_forked: unknown arm run-no-gpu in "
                              "KERNTIME_STEP_COST_ARMS; known: run-no-nvtx, run-no-api, "
                              "run-no-scopes, run-no-copies, run-no-sync-flush, "
                              "run-no-last-launch, run-no-checkpoint, run-kernels-only, "
                              "run-timeline, run-as-before, "
                              "run-tags-as-before, run-api-as-before, "
                              "run-zeroing-as-before\n")

    def test_a_folder_with_rounds_already_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(run_forked(d, 1)[0], 0)
            status, _, err = run_forked(d, 1)
        self.assertEqual(status, 2)
        self.assertIn("holds rounds already: give an empty folder", err)

    def test_the_kernel_count_of_a_report_without_a_trace_is_not_checked(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            with open(path, "w") as f:
                json.dump({"entries": []}, f)
            self.assertIsNone(forked.kernels_recorded(path))
            self.assertIsNone(forked.kernels_recorded(os.path.join(d, "absent.json")))

    def test_kernels_kerntime_lost_fail_the_run(self):
        with tempfile.TemporaryDirectory() as d:
            status, text, _ = run_forked(d, 2, FAKE_DROP="3")
        self.assertEqual(status, 1)
        self.assertIn(f"kerntime run: {2 * 15 * KERNELS_PER_STEP - 3} kernels in its 2 processes: "
                      "NOT the reader's count", text)

    def test_a_failing_child_names_its_arm_and_round_and_keeps_the_rounds_before(self):
        with tempfile.TemporaryDirectory() as d:
            # Only the run arm fails: round 1 runs bare and the reader first, then run fails.
            status, text, err = run_forked(d, 3, FAKE_STEP_FAILS="run")
        self.assertEqual(status, 1)
        # Everything kerntime run's program says comes on standard output, as it comes.
        self.assertIn("torch_step_forks: run, round 1: exit 1, no result", text)
        self.assertIn("RuntimeError: the fake step failed", text)
        self.assertIn("torch_step_forks: round 1 left out; 0 rounds done", text)
        self.assertIn("step_cost_forked: kerntime run ended with 1 after", text)
        self.assertIn("step_cost_forked: no round was done", err)


if __name__ == "__main__":
    unittest.main()
