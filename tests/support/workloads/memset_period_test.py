#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/scripts/memset_period.py without a GPU: which measurements stand out, and the whole script
# on a fake program whose default mode has the period and whose kernel mode does not.
import contextlib
import importlib.util
import io
import os
import stat
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
spec = importlib.util.spec_from_file_location(
    "memset_period", os.path.join(ROOT, "bench", "scripts", "memset_period.py"))
mp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mp)

FAKE = """\
#!{python}
import json, sys
mode = sys.argv[1]
if mode == "no-flush":
    sys.exit("no GPU here")
for i in range(1, 13):
    slow = mode == "default" and i % 4 == 3
    print(json.dumps({{"mode": mode, "measurement": i, "samples": 45,
                      "events_ns": 77500.0 + (1000.0 if slow else 0.0) + i}}))
"""


class StandingOut(unittest.TestCase):
    def test_only_measurements_half_a_microsecond_above_the_median(self):
        rows = [dict(measurement=i, events_ns=77500.0 + (i % 4 == 3) * 1000.0 + (i == 5) * 400.0)
                for i in range(1, 13)]
        self.assertEqual(mp.standing_out(rows), [3, 7, 11])


class WholeScript(unittest.TestCase):
    def test_the_period_is_named_per_mode_and_a_failed_mode_is_reported(self):
        with tempfile.TemporaryDirectory() as d:
            program = os.path.join(d, "memset_period")
            with open(program, "w") as f:
                f.write(FAKE.format(python=sys.executable))
            os.chmod(program, stat.S_IRWXU)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = mp.main([program, "", "default,no-flush,kernel"])
        self.assertEqual(rc, 0)
        text = out.getvalue()
        self.assertIn("default: measurements more than 0.5 us above the median: [3, 7, 11]", text)
        self.assertIn("kernel: measurements more than 0.5 us above the median: none", text)
        self.assertIn("default  #3   events   78.503 us n= 45", text)
        self.assertIn("no-flush: exit 1: no GPU here", err.getvalue())

    def test_no_arguments_prints_the_usage(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(mp.main([]), 2)
        self.assertIn("memset_period.py PROGRAM", err.getvalue())


if __name__ == "__main__":
    unittest.main()
