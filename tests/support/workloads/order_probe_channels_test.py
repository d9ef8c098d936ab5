#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/python/order_probe.py --channels without a GPU: the channel reader's lines read back, split
# into one group per measurement at the idle GPU between them, and each group's gap and channels;
# and relay(), which runs a probe's child and keeps its JSON lines.
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
    "order_probe", os.path.join(ROOT, "bench", "python", "order_probe.py"))
probe = importlib.util.module_from_spec(spec)
spec.loader.exec_module(probe)

MS = 1_000_000


def reduction_sample(t, gap_ns, memset_channel):
    """A flush memset, the small memset and the reduce kernel of one sample, as reader lines."""
    return [
        f"memset {t} {t + 20_000} 13 5 1 62914560 -",
        f"memset {t + 30_000} {t + 31_000} 13 {memset_channel} 1 4 -",
        f"kernel {t + 31_000 + gap_ns} {t + 100_000} 13 5 1 0 void at::native::reduce_kernel<512>",
    ]


class Channels(unittest.TestCase):
    def test_groups_gaps_and_channels_per_measurement(self):
        lines = []
        # Two measurements 150 ms apart, written out of order as CUPTI's buffers may be.
        for i in range(25):
            lines += reduction_sample(i * 200_000, 1_500, 7)
        for i in range(25):
            lines += reduction_sample(150 * MS + i * 200_000, 2_400, 9)
        lines.reverse()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "channels.txt")
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            groups = probe.channel_groups(probe.channel_records(path))
        self.assertEqual([len(g) for g in groups], [75, 75])
        first, second = (probe.channel_summary(g) for g in groups)
        self.assertEqual(first["pairs"], 25)
        self.assertAlmostEqual(first["gap_us"], 1.5)
        self.assertEqual(first["memset_channels"], [(7, 1)])
        self.assertEqual(first["flush_channels"], [(5, 1)])
        self.assertAlmostEqual(second["gap_us"], 2.4)
        self.assertEqual(second["memset_channels"], [(9, 1)])

    def test_two_kernel_operations_pair_consecutive_elementwise_kernels(self):
        rows = [dict(kind="kernel", start=0, end=1000, stream=3, channel=2, type=1, bytes=0,
                     name="void at::native::vectorized_elementwise_kernel<4, add>"),
                dict(kind="kernel", start=1800, end=3000, stream=3, channel=2, type=1, bytes=0,
                     name="void at::native::vectorized_elementwise_kernel<4, mul>")]
        summary = probe.channel_summary(rows)
        self.assertEqual(summary["pairs"], 1)
        self.assertAlmostEqual(summary["gap_us"], 0.8)
        self.assertEqual(summary["kernel_channels"], [(2, 1)])


FAKE_CHILD = """\
import json, sys
if sys.argv[1] == "fail":
    sys.exit("no GPU here")
print("a line that is not JSON")
for i in range(3):
    print(json.dumps({"what": sys.argv[1], "i": i}))
"""


class Relay(unittest.TestCase):
    def run_relay(self, tmp, args, path, mode="w"):
        child = os.path.join(tmp, "child.py")
        with open(child, "w") as f:
            f.write(FAKE_CHILD)
        printed = io.StringIO()
        saved = probe.__file__
        probe.__file__ = child  # relay() runs the script it is in
        try:
            with contextlib.redirect_stdout(printed):
                code = probe.relay(args, path, lambda r: f"{r['what']} #{r['i']}", mode)
        finally:
            probe.__file__ = saved
        return code, printed.getvalue()

    def test_the_childs_json_lines_are_kept_and_shown(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.jsonl")
            code, printed = self.run_relay(tmp, ["first"], out)
            self.assertEqual(code, 0)
            self.assertEqual(printed.splitlines(), ["first #0", "first #1", "first #2"])
            code, _ = self.run_relay(tmp, ["second"], out, mode="a")
            with open(out) as f:
                rows = [json.loads(t) for t in f]
            self.assertEqual([(r["what"], r["i"]) for r in rows],
                             [("first", 0), ("first", 1), ("first", 2),
                              ("second", 0), ("second", 1), ("second", 2)])

    def test_a_failed_child_writes_nothing_and_says_why(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.jsonl")
            code, printed = self.run_relay(tmp, ["fail"], out)
            self.assertEqual(code, 1)
            self.assertIn("fail failed: no GPU here", printed)
            self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
