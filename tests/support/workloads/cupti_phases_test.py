#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/scripts/cupti_phases.py without a GPU: phases turned into host time per launch, each
# compared with the kernel-only phase of its own cycle, and the whole script on a fake program
# that writes what the injection would.
import contextlib
import importlib.util
import io
import json
import os
import stat
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "bench", "scripts"))
spec = importlib.util.spec_from_file_location("cupti_phases",
                                              os.path.join(ROOT, "bench", "scripts", "cupti_phases.py"))
cp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cp)


def phase(cycle, name, kernels, seconds=0.1):
    return {"cycle": cycle, "phase": name, "kernels": kernels, "seconds": seconds}


class Summary(unittest.TestCase):
    def test_each_phase_against_kernels_of_its_own_cycle(self):
        # Two processes at different speeds (5 and 6 us a launch with kernel records only); API
        # records add 2 us a launch in both, copies nothing. The cycle where `api` saw too few
        # kernels (the program ending) is left out.
        rows = {"a": [], "b": []}
        for c in range(9):
            rows["a"] += [phase(c, "kernels", 20000), phase(c, "api", 14286),
                          phase(c, "copies", 20000)]
            rows["b"] += [phase(c, "kernels", 16667), phase(c, "api", 12500),
                          phase(c, "copies", 16667)]
        rows["b"].append(phase(9, "kernels", 16667))
        rows["b"].append(phase(9, "api", 150))
        lines = cp.summary(rows)
        self.assertEqual(lines[0].split(" cycles")[0], "18")
        api = [l for l in lines if l.strip().startswith("api")][0]
        copies = [l for l in lines if l.strip().startswith("copies")][0]
        self.assertIn("+2.000 us", api)
        self.assertIn("18 cycles", api)
        self.assertIn("+0.000 us", copies)
        kernels = [l for l in lines if l.strip().startswith("kernels")][0]
        self.assertIn("5.500 us", kernels)  # the median of 5 and 6, nothing compared


class Once(unittest.TestCase):
    def test_after_the_once_phase_over_before_it_per_process(self):
        # A once process whose launches run 10 % slower after its API phase at cycle 8, and a
        # control that stays. The first cycle with launches (warm-up, 40 % slower) and cycles with
        # too few kernels (before the program launches) are left out.
        def process(slower_after):
            rows = [phase(c, name, 100) for c in range(3) for name in ("kernels", "watch")]
            for c in range(3, 20):
                per_launch = 10e-6 * (1.4 if c == 3 else 1.0) * (slower_after if c > 8 else 1.0)
                if c == 8:
                    rows.append(phase(c, "api-once", 5000))
                rows += [phase(c, name, round(0.1 / per_launch)) for name in ("kernels", "watch")]
            return rows

        lines = cp.once_summary(8, [("once", {"a": process(1.1), "b": process(1.1)}),
                                    ("control", {"c": process(1.0)})])
        self.assertEqual(lines[0], "host time per launch after cycle 8 over before it, per process:")
        self.assertIn("  once     kernels    median +10.00 %  (+10.0 +10.0)", lines)
        self.assertIn("  once     watch      median +10.00 %  (+10.0 +10.0)", lines)
        self.assertIn("  control  kernels    median  +0.00 %  (+0.0)", lines)
        self.assertNotIn("api-once", "\n".join(lines))

    def test_a_process_without_two_cycles_before_is_left_out(self):
        rows = [phase(c, "kernels", 10000) for c in range(7, 20)]  # warm-up 7, then 8 only
        self.assertEqual(cp.before_after(rows, 9), {})
        self.assertEqual(set(cp.before_after(rows, 10)), {"kernels"})


FAKE = """\
#!{python}
import json, os
with open(os.environ["KERNTIME_PHASES_OUT"], "a") as f:
    for c in range(10):
        for name, kernels in (("kernels", 20000), ("api", 10000)):
            f.write(json.dumps({{"cycle": c, "phase": name, "kernels": kernels, "seconds": 0.1}}) + "\\n")
"""

FAKE_RUN = """\
#!{python}
import json, os, sys
assert sys.argv[1:3] == ["run", "-o"] and sys.argv[4:] == ["--", "the-program", "arg"], sys.argv
assert os.environ["KERNTIME_RUN_COST_PHASES"] == "100"
with open(os.environ["KERNTIME_RUN_COST_PHASES_OUT"], "a") as f:
    for c in range(10):
        for name, launches in (("idle", 11111), ("kerntime", 10000)):
            f.write(json.dumps({{"cycle": c, "phase": name, "launches": launches,
                                "kernels": launches, "seconds": 0.1}}) + "\\n")
"""


def run_script(args):
    """cupti_phases.main(args) unpinned: (exit status, standard output, standard error)."""
    out, err = io.StringIO(), io.StringIO()
    os.environ["KERNTIME_MEASURE_CPUS"] = ""
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cp.main(args)
    finally:
        del os.environ["KERNTIME_MEASURE_CPUS"]
    return status, out.getvalue(), err.getvalue()


class WholeScript(unittest.TestCase):
    def test_processes_under_the_injection_and_the_summary(self):
        with tempfile.TemporaryDirectory() as d:
            program = os.path.join(d, "program")
            with open(program, "w") as f:
                f.write(FAKE.format(python=sys.executable))
            os.chmod(program, stat.S_IRWXU)
            status, out, _ = run_script([os.path.join(d, "phases.so"), os.path.join(d, "out"),
                                         "2", "--", program])
            self.assertEqual(status, 0, out)
            self.assertIn("20 cycles of 2 process(es)", out)
            self.assertIn("+5.000 us", out)
            self.assertEqual(len(os.listdir(os.path.join(d, "out"))), 2)
            with contextlib.redirect_stdout(io.StringIO()) as again:
                cp.main(["--summarize"] + [os.path.join(d, "out", f"phases-{i}.jsonl")
                                           for i in range(2)])
            self.assertIn("+5.000 us", again.getvalue())
        # A process that dies by a signal after writing 4 cycles: judged with what it wrote, and the
        # script says so and fails.
        with tempfile.TemporaryDirectory() as d:
            program = os.path.join(d, "program")
            with open(program, "w") as f:
                f.write(FAKE.format(python=sys.executable).replace("range(10)", "range(4)") +
                        "os.kill(os.getpid(), 11)\n")
            os.chmod(program, stat.S_IRWXU)
            status, out, err = run_script([os.path.join(d, "phases.so"), os.path.join(d, "out"),
                                           "2", "--", program])
            self.assertEqual(status, 1)
            self.assertIn("process 1: exit -11", err)
            self.assertIn("process 2: exit -11", err)
            self.assertIn("2 processes (2 failed)", out)
            self.assertIn("8 cycles of 2 process(es)", out)
            self.assertIn("+5.000 us", out)
        # Under `kerntime run` (a fake one that checks its command line and writes what the
        # injection's cost phases would): `kerntime` against `idle` of the same cycle.
        with tempfile.TemporaryDirectory() as d:
            kerntime = os.path.join(d, "kerntime")
            with open(kerntime, "w") as f:
                f.write(FAKE_RUN.format(python=sys.executable))
            os.chmod(kerntime, stat.S_IRWXU)
            status, out, _ = run_script(["--kerntime-run", kerntime, os.path.join(d, "out"), "2",
                                         "--", "the-program", "arg"])
            self.assertEqual(status, 0, out)
            self.assertIn("against `idle` in the same cycle", out)
            self.assertIn("20 cycles of 2 process(es)", out)
            line = [l for l in out.splitlines() if l.strip().startswith("kerntime")][0]
            self.assertIn("+1.000 us", line)  # 10 us a launch against 9
        # A command line without the program is refused.
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(cp.main(["phases.so", "out"]), 2)


if __name__ == "__main__":
    unittest.main()
