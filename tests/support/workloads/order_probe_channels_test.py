#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/python/order_probe.py --channels without a GPU: the channel reader's lines read back, split
# into one group per measurement at the idle GPU between them, and each group's gap and channels.
import importlib.util
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


if __name__ == "__main__":
    unittest.main()
