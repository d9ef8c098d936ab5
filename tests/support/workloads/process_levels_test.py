#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/scripts/process_levels.py without a GPU: each variant's spread between processes, and the
# whole script on a fake Python whose step time depends on the variant's environment.
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
spec = importlib.util.spec_from_file_location(
    "process_levels", os.path.join(ROOT, "bench", "scripts", "process_levels.py"))
pl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pl)


class Summary(unittest.TestCase):
    def test_spread_is_relative_to_the_median(self):
        m, low, high, full, iqr = pl.spread([4.0, 5.0, 4.0, 6.0, 4.0])
        self.assertEqual((m, low, high), (4.0, 4.0, 6.0))
        self.assertAlmostEqual(full, 0.5)
        self.assertAlmostEqual(iqr, 0.25)  # quartiles 4.0 and 5.0

    def test_a_calmer_variant_is_named(self):
        # pinned on two levels (4 and 5 ms), malloc-thp within 1 %, no-aslr as noisy as pinned.
        rounds = [{"pinned": p, "no-aslr": a, "malloc-thp": t} for p, a, t in (
            (4.0, 5.0, 4.00), (5.0, 4.0, 4.02), (4.0, 4.0, 4.01), (5.0, 5.0, 4.03),
            (4.1, 5.1, 4.00), (5.1, 4.1, 4.04))]
        lines = pl.summary(rounds)
        self.assertEqual(lines[0], "6 rounds; median step time per process, ms, and the spread "
                                   "between processes:")
        self.assertTrue(lines[1].startswith("  pinned     median   4.550  min   4.000  max   5.100"),
                        lines[1])
        self.assertEqual(lines[-1], "IQR under half of pinned's: malloc-thp")


FAKE_PYTHON = """\
#!{python}
# Stands for python3 torch_step.py plain SIZE STEPS: slower in odd processes unless malloc-thp.
import json, os, sys
assert sys.argv[2:4] == ["plain", "block1"], sys.argv
counter = os.path.join(os.environ["FAKE_DIR"], "count")
n = int(open(counter).read()) if os.path.exists(counter) else 0
open(counter, "w").write(str(n + 1))
thp = os.environ.get("GLIBC_TUNABLES") == "glibc.malloc.hugetlb=1"
step = 4.0 if thp else 4.0 + (n % 2) * 0.8
print(json.dumps({{"wall_s": 1.0, "step_ms_median": step, "step_ms_max": step}}))
"""


class MeasureCpus(unittest.TestCase):
    def test_the_last_four_of_a_large_machine_unless_named(self):
        with mock.patch.dict(os.environ, {"KERNTIME_MEASURE_CPUS": "2,3"}):
            self.assertEqual(pl.measure_cpus(), "2,3")
        env = {k: v for k, v in os.environ.items() if k != "KERNTIME_MEASURE_CPUS"}
        with mock.patch.dict(os.environ, env, clear=True):
            with mock.patch.object(pl.os, "sched_getaffinity", return_value=set(range(16))):
                self.assertEqual(pl.measure_cpus(), "12,13,14,15")
            with mock.patch.object(pl.os, "sched_getaffinity", return_value={0, 1}):
                self.assertEqual(pl.measure_cpus(), "")  # too few to set four apart


class WholeScript(unittest.TestCase):
    def test_rounds_are_saved_and_judged(self):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "python")
            with open(fake, "w") as f:
                f.write(FAKE_PYTHON.format(python=sys.executable))
            os.chmod(fake, stat.S_IRWXU)
            env = {"PYTHON": fake, "KERNTIME_MEASURE_CPUS": "", "FAKE_DIR": d}
            os.environ.update(env)
            out = io.StringIO()
            try:
                with contextlib.redirect_stdout(out):
                    status = pl.main([os.path.join(d, "out"), "4", "10", "pinned,malloc-thp"])
            finally:
                for k in env:
                    del os.environ[k]
            text = out.getvalue()
            self.assertEqual(status, 0, text)
            self.assertIn("4 rounds;", text)
            self.assertTrue(text.rstrip().endswith("IQR under half of pinned's: malloc-thp"), text)
            with open(os.path.join(d, "out", "levels.jsonl")) as f:
                saved = [json.loads(line) for line in f]
            self.assertEqual(len(saved), 4)
            self.assertTrue(all(r["malloc-thp"] == 4.0 for r in saved), saved)
            pooled = io.StringIO()
            with contextlib.redirect_stdout(pooled):
                self.assertEqual(pl.main(["--summarize", os.path.join(d, "out", "levels.jsonl")]), 0)
            self.assertIn("4 rounds;", pooled.getvalue())

    def test_an_unknown_variant_is_bad_usage(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(pl.main(["out", "1", "10", "pinned,fast"]), 2)
        self.assertIn("unknown variant fast", err.getvalue())


if __name__ == "__main__":
    unittest.main()
