#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/scripts/floor_after_tracer.py without a GPU: its summary per engine index, and the whole
# script on a fake program whose first engine after the Tracer calibrates high.
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
    "floor_after_tracer", os.path.join(ROOT, "bench", "scripts", "floor_after_tracer.py"))
fa = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fa)

FAKE = """\
#!{python}
import json, sys
print(json.dumps({{"what": "traced", "engine": 0, "floor_ns": 3104, "fixed_cost_ns": 576,
                  "events_ns": 13184, "headline_ns": 10560, "truth_ns": 10560}}))
for e in range(1, int(sys.argv[1]) + 1):
    floor = 3328 if e == 1 else 3008
    print(json.dumps({{"what": "events-only", "engine": e, "floor_ns": floor,
                      "fixed_cost_ns": 576, "events_ns": 12992,
                      "headline_ns": 12992 - floor + 576, "truth_ns": 10560}}))
"""


class WholeScript(unittest.TestCase):
    def test_the_first_engine_after_the_tracer_is_told_apart(self):
        with tempfile.TemporaryDirectory() as d:
            program = os.path.join(d, "floor_after_tracer")
            with open(program, "w") as f:
                f.write(FAKE.format(python=sys.executable))
            os.chmod(program, stat.S_IRWXU)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(fa.main([program, "3", "2", os.path.join(d, "rows.jsonl")]), 0)
            self.assertEqual(out.getvalue().splitlines(), [
                "engine 1: 3 processes, floor median 3328 ns (3328 to 3328), error median -320 ns "
                "(-320 to -320), missed 3",
                "engine 2: 3 processes, floor median 3008 ns (3008 to 3008), error median +0 ns "
                "(+0 to +0), missed 0",
            ])
            with open(os.path.join(d, "rows.jsonl")) as f:
                self.assertEqual(len(f.readlines()), 9)  # 3 processes x (traced + 2 engines)

    def test_no_program_is_bad_usage(self):
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(fa.main([]), 2)


if __name__ == "__main__":
    unittest.main()
