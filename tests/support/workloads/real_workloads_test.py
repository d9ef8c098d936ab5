#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/scripts/real_workloads.py (.ci/real-workloads) without a GPU: the comparison of a kerntime
# report with the reader's records, the table, and the whole script on a fake program and a fake
# `kerntime run`.
import contextlib
import importlib.util
import io
import json
import os
import stat
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
spec = importlib.util.spec_from_file_location("real_workloads",
                                              os.path.join(ROOT, "bench", "scripts", "real_workloads.py"))
rw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rw)
read_reference = rw.read_reference

GEMM = "void gemm<128>(const float*, float*)"
ADD = "add_kernel"


def arms(bare=10.0, reader=10.4, run=10.6):
    """Each arm exited 0 with that median step time, unless given as an Arm."""
    return {name: value if isinstance(value, rw.Arm) else rw.Arm(0, value)
            for name, value in (("bare", bare), ("reader", reader), ("run", run))}


def report(rows, warnings=()):
    return {"warnings": list(warnings), "trace": {
        "counts": {"kernels": sum(r[1] for r in rows)},
        "kernel_summary": [{"name": n, "instances": c, "total_ns": t, "median_ns": m}
                           for n, c, t, m in rows]}}


def reference(*records):
    kernels = read_reference.Kernels()
    for name, start, end in records:
        kernels.records.append(read_reference.Record(start, end, 0, 7, 1, 0, name))
    return kernels


# Two gemms of 10 and 12 us (median 11 us), three adds of 1 us.
REFERENCE = [(GEMM, 100, 10100), (GEMM, 20000, 32000), (ADD, 1, 1001), (ADD, 2, 1002),
             (ADD, 3, 1003)]


class Compare(unittest.TestCase):
    def test_agreement_gives_the_differences_and_no_failure(self):
        row = rw.compare("p", arms(), report([(GEMM, 2, 22220.0, 11110.0), (ADD, 3, 2970.0, 990.0)]),
                         reference(*REFERENCE))
        self.assertEqual(row.failures, [])
        self.assertEqual((row.run_kernels, row.reader_kernels), (5, 5))
        self.assertAlmostEqual(row.total_diff, 25190 / 25000 - 1)
        # Only the gemm is over 5 us: the add's -1 % does not count.
        self.assertAlmostEqual(row.worst_median_diff, 0.01)
        self.assertEqual((row.worst_median_name, row.long_kernels), (GEMM, 1))
        self.assertAlmostEqual(row.cost("bare"), 0.06)
        self.assertAlmostEqual(row.cost("reader"), 10.6 / 10.4 - 1)

    def test_a_different_count_fails(self):
        row = rw.compare("p", arms(), report([(GEMM, 2, 22000.0, 11000.0), (ADD, 2, 2000.0, 1e3)]),
                         reference(*REFERENCE))
        self.assertIn("kernel count: kerntime run 4, reader 5", row.failures)
        self.assertTrue(any(f.startswith("1 kernels counted differently, e.g. add_kernel: 2 vs 3")
                            for f in row.failures), row.failures)

    def test_a_name_on_one_side_only_fails_even_with_equal_totals(self):
        row = rw.compare("p", arms(), report([(GEMM, 2, 22000.0, 11000.0), ("other", 3, 3e3, 1e3)]),
                         reference(*REFERENCE))
        self.assertNotIn("kernel count", " ".join(row.failures))
        self.assertIn("1 kernel names only in kerntime run, e.g. other", row.failures)
        self.assertIn("1 kernel names only in the reader, e.g. add_kernel", row.failures)

    def test_exits_skips_and_missing_outputs_fail(self):
        row = rw.compare("p", arms(run=rw.Arm(3, None, stderr_tail="boom"),
                                   reader=rw.Arm(77, None, skipped="cannot import jax")),
                         None, None)
        self.assertEqual(row.failures, ["reader: skipped: cannot import jax", "run: exit 3: boom",
                                        "run: no report", "reader: no output file"])
        row = rw.compare("p", arms(bare=None), report([(ADD, 3, 3e3, 1e3)]),
                         reference(*REFERENCE[2:]))
        self.assertEqual(row.failures, ["bare: printed no workload-result line"])
        self.assertIsNone(row.cost("bare"))

    def test_incomplete_records_are_noted_not_counted(self):
        kernels = reference(*REFERENCE[2:])
        kernels.incomplete.append(read_reference.Record(0, 0, 0, 7, 9, 0, ADD))
        row = rw.compare("p", arms(), report([(ADD, 3, 3e3, 1e3)]), kernels)
        self.assertEqual(row.failures, [])
        self.assertIn("the reader has 1 records without timestamps (not counted)", row.notes)

    def test_helpers_without_gpu_work_are_listed_once_never_warned_about(self):
        rows = [(GEMM, 2, 22220.0, 11110.0), (ADD, 3, 2970.0, 990.0)]
        listing = ("kerntime run: 2 processes started CUDA and launched no GPU work: "
                   "pid 3070 (python), pid 3071 (python)")
        row = rw.compare("p", arms(run=rw.Arm(0, 10.6, stderr_tail="table\n" + listing + "\n")),
                         report(rows), reference(*REFERENCE))
        self.assertEqual(row.failures, [])
        self.assertIn(listing[len("kerntime run: "):], row.notes)
        twice = rw.Arm(0, 10.6, stderr_tail=listing + "\n" + listing + "\n")
        row = rw.compare("p", arms(run=twice), report(rows), reference(*REFERENCE))
        self.assertEqual(row.failures, ["the processes without GPU work were listed 2 times"])
        warned = report(rows, ["vm.pid3070: no CUDA work was recorded: the process started CUDA"])
        row = rw.compare("p", arms(), warned, reference(*REFERENCE))
        self.assertEqual(row.failures, ["a process without GPU work was warned about: vm.pid3070: "
                                        "no CUDA work was recorded: the process started CUDA"])

    def test_parse_output(self):
        self.assertEqual(rw.parse_output("x\nworkload-result {\"step_ms_median\": 2.5}\n"),
                         (2.5, None, {}))
        self.assertEqual(rw.parse_output('workload-result {"step_ms_median": 2.5, "step_ms": [2.5], '
                                         '"generate_ms_median": 40.0}'),
                         (2.5, None, {"generate": 40.0}))
        self.assertEqual(rw.parse_output("skipped: no cupy\n"), (None, "no cupy", {}))
        self.assertEqual(rw.parse_output("workload-result {bad\n"), (None, None, {}))

    def test_another_phase_is_noted_with_its_costs(self):
        phased = arms()
        for arm, ms in zip(rw.ARMS, (40.0, 41.0, 42.0)):
            phased[arm].phases = {"generate": ms}
        row = rw.compare("p", phased, report([(ADD, 3, 3e3, 1e3)]), reference(*REFERENCE[2:]))
        self.assertIn("generate ms: bare 40.000, reader 41.000, run 42.000 (run vs bare +5.0 %, "
                      "vs reader +2.4 %)", row.notes)

    def test_the_table(self):
        good = rw.compare("good", arms(), report([(ADD, 3, 3e3, 1e3)]), reference(*REFERENCE[2:]))
        bad = rw.compare("bad", arms(), report([(ADD, 2, 2e3, 1e3)]), reference(*REFERENCE[2:]))
        text = rw.markdown([good, bad])
        lines = text.splitlines()
        self.assertEqual(lines[2], "| good | 0 / 0 / 0 | 3 / 3 | +0.000 % | - | "
                                   "10.000 / 10.400 / 10.600 | +6.0 % | +1.9 % | ok |")
        self.assertTrue(lines[3].startswith("| bad | 0 / 0 / 0 | 2 / 3 |"), lines[3])
        self.assertTrue(lines[3].endswith("| FAIL |"), lines[3])
        self.assertIn("- **bad**: FAIL: kernel count: kerntime run 2, reader 3", text)


FAKE_PROGRAM = """\
import os, sys, time
if len(sys.argv) > 3:  # hangs: writes its pid where the test finds it
    with open(sys.argv[3] + "." + str(os.getpid()), "w"):
        pass
    time.sleep(60)
prefix = os.environ.get("KERNTIME_REFERENCE_OUT")
if prefix:  # the reader's output, as the reader would write it
    with open(f"{prefix}.{os.getpid()}.tsv", "w") as f:
        for i in range(int(sys.argv[1])):
            f.write(f"{1000 * i + 1}\\t{1000 * i + 8001}\\t0\\t7\\t{i}\\t0\\tfake_kernel(int)\\n")
print('workload-result {"step_ms_median": 4.0}')
sys.exit(int(sys.argv[2]))
"""

# `kerntime run -o REPORT --process-reports DIR -- PROGRAM...`: runs it, writes a report of
# FAKE_KERNELS kernels.
FAKE_KERNTIME = """\
#!{python}
import json, os, subprocess, sys
args = sys.argv[1:]
assert args[0] == "run" and "--" in args, args
out = args[args.index("-o") + 1]
status = subprocess.run(args[args.index("--") + 1:]).returncode
n = int(os.environ["FAKE_KERNELS"])
json.dump({{"warnings": [], "trace": {{"counts": {{"kernels": n}}, "kernel_summary": [
    {{"name": "fake_kernel(int)", "instances": n, "total_ns": 8000.0 * n, "median_ns": 8000.0}}]}}}},
    open(out, "w"))
sys.exit(status)
"""


class WholeScript(unittest.TestCase):
    def run_script(self, kernels_in_report, exit_status=0, hang=False, options=()):
        with tempfile.TemporaryDirectory() as d:
            build = os.path.join(d, "build")
            os.makedirs(os.path.join(build, "src", "cli"))
            os.makedirs(os.path.join(build, "tests", "support", "reference_reader"))
            kerntime = os.path.join(build, "src", "cli", "kerntime")
            with open(kerntime, "w") as f:
                f.write(FAKE_KERNTIME.format(python=sys.executable))
            os.chmod(kerntime, stat.S_IRWXU)
            open(os.path.join(build, "tests", "support", "reference_reader",
                              "libkerntime_reference_reader.so"), "w").close()
            program = os.path.join(d, "fake.py")
            with open(program, "w") as f:
                f.write(FAKE_PROGRAM)
            saved = rw.programs, rw.streams_binary
            pids = os.path.join(d, "pid")
            rw.programs = lambda python, streams: {
                "fake": [sys.executable, program, "12", str(exit_status)] + ([pids] if hang else [])}
            rw.streams_binary = lambda build, work: ""
            os.environ["FAKE_KERNELS"] = str(kernels_in_report)
            out = io.StringIO()
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                    status = rw.main([os.path.join(d, "t.md"), "--build", build,
                                      "--work", os.path.join(d, "work")] + list(options))
            finally:
                rw.programs, rw.streams_binary = saved
            with open(os.path.join(d, "t.md")) as f:
                written = f.read()
            self.assertEqual(written, out.getvalue().rstrip("\n") + "\n")
            self.hung = [int(f.split(".")[-1]) for f in os.listdir(d) if f.startswith("pid.")]
            return status, written

    def test_agreeing_program_passes(self):
        status, text = self.run_script(12)
        self.assertEqual(status, 0, text)
        self.assertIn("| fake | 0 / 0 / 0 | 12 / 12 | +0.000 % | +0.00 % (1 kernels) | "
                      "4.000 / 4.000 / 4.000 | +0.0 % | +0.0 % | ok |", text)
        self.assertIn("1 passed, 0 failed", text)

    def test_a_count_that_disagrees_fails_the_script(self):
        status, text = self.run_script(11)
        self.assertEqual(status, 1)
        self.assertIn("kernel count: kerntime run 11, reader 12", text)
        self.assertIn("0 passed, 1 failed: fake", text)

    def test_a_program_past_its_timeout_is_ended_with_its_process_group(self):
        import time
        started = time.monotonic()
        status, text = self.run_script(12, hang=True, options=["--timeout", "2"])
        self.assertLess(time.monotonic() - started, 30)
        self.assertEqual(status, 1)
        self.assertIn("| fake | 124 / 124 / 124 |", text)
        self.assertIn("(timed out after 2 s)", text)
        self.assertEqual(len(self.hung), 3)  # bare, reader, and the program under kerntime run
        time.sleep(0.5)
        for pid in self.hung:  # gone, or a zombie that nobody has reaped yet
            try:
                with open(f"/proc/{pid}/stat") as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
            except FileNotFoundError:
                continue
            self.assertEqual(state, "Z", f"process {pid} still runs")

    def test_a_program_that_fails_fails_the_script(self):
        status, text = self.run_script(12, exit_status=5)
        self.assertEqual(status, 1)
        self.assertIn("| fake | 5 / 5 / 5 |", text)


class MissingPackages(unittest.TestCase):
    # python -S: no site-packages, so each workload lacks its package whatever is installed.
    def test_every_workload_says_skipped_and_why(self):
        import subprocess
        commands = {"hf_lm.py": ["gpt2", "2", "1"], "resnet50.py": ["2"],
                    "compiled.py": ["default", "2"], "jax_mlp.py": ["2"], "cupy_raw.py": ["2"]}
        missing = {"hf_lm.py": "torch", "resnet50.py": "torch", "compiled.py": "torch",
                   "jax_mlp.py": "jax", "cupy_raw.py": "cupy"}
        self.assertEqual(sorted(commands), sorted(f for f in os.listdir(HERE)
                                                  if f.endswith(".py") and not f.startswith("_")
                                                  and not f.endswith("_test.py")))
        for script, args in commands.items():
            done = subprocess.run([sys.executable, "-S", os.path.join(HERE, script)] + args,
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 77, (script, done.stdout, done.stderr))
            self.assertTrue(done.stdout.startswith(f"skipped: cannot import {missing[script]}: "),
                            (script, done.stdout))
            self.assertEqual(rw.parse_output(done.stdout)[1][:len("cannot import")],
                             "cannot import")


if __name__ == "__main__":
    unittest.main()
