#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/python/order_position.py --summarize without a GPU: each predecessor's median over every
# process, and the median over processes of each one's difference from its own after-norm figure,
# so that a process's clock level does not pass for what ran before.
import contextlib
import importlib.util
import io
import json
import os
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
spec = importlib.util.spec_from_file_location(
    "order_position", os.path.join(ROOT, "bench", "python", "order_position.py"))
order_position = importlib.util.module_from_spec(spec)
spec.loader.exec_module(order_position)
ORDERS = [order_position.order.ORDERS[k] for k in ("order1", "order2", "order3")]
NORM_AFTER = ["norm", "reduction", "triton", "gemm2"]


def rows_of(pid, level, clock, shift):
    """One process: the norm at `level` us after itself, `shift[after]` more after the others."""
    out = [dict(after="first", round=0, pid=pid, us=level + shift.get("first", 0.0),
                sm_clock=clock, samples=20, warnings=[])]
    for r in range(3):
        for after in NORM_AFTER:
            us = level + shift.get(after, 0.0) + 0.01 * r
            out.append(dict(after=after, round=r, pid=pid, us=us, sm_clock=clock, samples=20,
                            warnings=[]))
    return out


class Predecessors(unittest.TestCase):
    def test_what_runs_right_before_an_operation_in_each_order_once(self):
        self.assertEqual(order_position.predecessors("norm", ORDERS), NORM_AFTER)
        self.assertEqual(order_position.predecessors("softmax", ORDERS),
                         ["softmax", "gemm", "attention"])
        # First in order 3: no predecessor there.
        self.assertEqual(order_position.predecessors("conv", ORDERS),
                         ["conv", "attention", "reduction"])


class Summarize(unittest.TestCase):
    def summarize(self, rows):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "position.jsonl")
            with open(path, "w") as f:
                f.write("not json: a line the script printed\n")
                for row in rows:
                    f.write(json.dumps(row) + "\n")
            text = io.StringIO()
            with contextlib.redirect_stdout(text):
                status = order_position.summarize(path)
            return status, text.getvalue()

    def test_a_predecessor_shows_apart_from_the_process_level(self):
        # Two processes 2 us apart (their clocks); after gemm2 each reads 0.5 us lower.
        rows = rows_of(100, 62.0, 1980, {"gemm2": -0.5}) + rows_of(200, 64.0, 1830, {"gemm2": -0.5})
        status, text = self.summarize(rows)
        self.assertEqual(status, 0)
        self.assertIn("norm: 2 processes", text)
        lines = {line.split("|")[1].strip(): line for line in text.splitlines()
                 if line.startswith("| ") and not line.startswith("| after")}
        self.assertEqual(set(lines), {"first", "norm", "reduction", "triton", "gemm2"})
        self.assertIn("| -0.500 |", lines["gemm2"])
        self.assertIn("| +0.000 |", lines["reduction"])
        # Over both processes the median mixes their levels: 62.00..62.02 and 64.00..64.02 -> 63.01.
        self.assertIn("| 63.010 |", lines["norm"])
        self.assertIn("100: first 62.00@1980, norm 62.01@1980", text)

    def test_no_process_with_its_own_figure_gives_no_difference(self):
        rows = [r for r in rows_of(100, 62.0, 1980, {}) if r["after"] != "norm"]
        status, text = self.summarize(rows)
        self.assertEqual(status, 0)
        triton = next(line for line in text.splitlines() if line.startswith("| triton"))
        self.assertEqual(triton, "| triton | 62.010 | 1980 | - |")

    def test_each_operation_has_its_own_table(self):
        rows = rows_of(100, 62.0, 1980, {"gemm2": -0.5})
        rows += [dict(r, op="softmax", after={"norm": "softmax"}.get(r["after"], r["after"]),
                      us=r["us"] + 200) for r in rows_of(100, 62.0, 1980, {"triton": 1.0})]
        _, text = self.summarize(rows)
        self.assertIn("norm: 1 processes", text)
        self.assertIn("softmax: 1 processes", text)
        self.assertIn("| softmax | 262.010 |", text)
        softmax = text[text.index("softmax: 1"):]
        self.assertIn("| triton | 263.010 | 1980 | +1.000 |", softmax)

    def test_a_process_without_its_own_after_norm_is_left_out_of_the_differences(self):
        rows = rows_of(100, 62.0, 1980, {"triton": 0.3})
        rows += [r for r in rows_of(200, 70.0, 1700, {"triton": 5.0}) if r["after"] != "norm"]
        _, text = self.summarize(rows)
        triton = next(line for line in text.splitlines() if line.startswith("| triton"))
        self.assertTrue(triton.endswith("| +0.300 |"), triton)


if __name__ == "__main__":
    unittest.main()
