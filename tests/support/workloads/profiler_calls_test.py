#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/python/profiler_calls.py without a GPU: the calls of side_by_side.py's torch.profiler
# reference told apart by their markers, the flush after each left out, the call's own fills
# and a call that is itself a spin kept.
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "bench", "python"))
import profiler_calls as pc  # noqa: E402

MARK = "kerntime_bench_spin"
FLUSH = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<unsigned char>>"
ZERO = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>"


def timeline(*calls, flushed=True):
    """Marker, flush, then each call's (length, name) activities, 10 ns apart."""
    events, t = [], 0
    for call in calls:
        for length, name in [(2000, MARK)] + ([(500, FLUSH)] if flushed else []) + list(call):
            events.append((t, t + length, name))
            t += length + 10
    return events


class CallsOf(unittest.TestCase):
    def test_the_flush_is_left_out_and_a_calls_own_fill_is_kept(self):
        events = timeline([(100, "gemm"), (40, ZERO), (30, "add")], [(100, "gemm"), (30, "add")])
        groups = pc.calls_of(events, 2, flushed=True)
        self.assertEqual([[n for _, _, n in g] for g in groups], [["gemm", ZERO, "add"],
                                                                  ["gemm", "add"]])
        self.assertEqual(pc.spans_ns(groups), [100 + 10 + 40 + 10 + 30, 100 + 10 + 30])
        self.assertEqual(pc.sums_ns(groups), [170.0, 130.0])

    def test_a_call_that_is_itself_a_spin_is_the_calls(self):
        events = timeline([(10_000, MARK)], [(10_000, MARK)], [(10_000, MARK)])
        groups = pc.calls_of(events, 3, flushed=True)
        self.assertEqual([len(g) for g in groups], [1, 1, 1])
        self.assertEqual(pc.spans_ns(groups), [10_000.0] * 3)
        unflushed = pc.calls_of(timeline([(10_000, MARK)], [(10_000, MARK)], flushed=False), 2,
                                flushed=False)
        self.assertEqual(pc.spans_ns(unflushed), [10_000.0, 10_000.0])

    def test_activities_before_the_first_marker_belong_to_no_call(self):
        events = [(-100, -50, "warm-up")] + timeline([(100, "a")], [(100, "a")])
        groups = pc.calls_of(events, 2, flushed=True)
        self.assertEqual([[n for _, _, n in g] for g in groups], [["a"], ["a"]])

    def test_a_missing_flush_is_an_error_not_a_call_short_of_its_first_kernel(self):
        events = timeline([(100, "gemm")], flushed=False)
        with self.assertRaisesRegex(ValueError, "call 1: expected the L2 flush after its marker"):
            pc.calls_of(events, 1, flushed=True)


if __name__ == "__main__":
    unittest.main()
