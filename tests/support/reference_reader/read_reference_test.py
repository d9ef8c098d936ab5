#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# read_reference.py on synthetic files: what it counts, sums, takes the median of, and refuses.
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_reference  # noqa: E402

A = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float> >(int)"
B = "triton_poi_fused_add_0"


def line(start, end, name, stream=7, correlation=1, graph=0, device=0):
    return f"{start}\t{end}\t{device}\t{stream}\t{correlation}\t{graph}\t{name}\n"


class ReadReference(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.prefix = os.path.join(self.dir.name, "ref")

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.dir.name, name), "w") as f:
            f.write(text)

    def test_counts_totals_and_medians_per_process_and_merged(self):
        self.write("ref.100.tsv", line(1000, 1100, A) + line(2000, 2300, A) + line(3000, 3250, A)
                   + line(4000, 4010, B, graph=5))
        self.write("ref.200.tsv", line(5000, 5400, A) + line(6000, 6020, B))
        per_pid = read_reference.load(self.prefix)
        self.assertEqual(sorted(per_pid), [100, 200])
        first = per_pid[100]
        self.assertEqual(first.counts(), {A: 3, B: 1})
        self.assertEqual(first.totals_ns(), {A: 650, B: 10})
        self.assertEqual(first.medians_ns(), {A: 250.0, B: 10.0})
        self.assertEqual(first.total_ns(), 660)
        self.assertEqual(first.records[3].graph_id, 5)
        merged = read_reference.merge(per_pid.values())
        self.assertEqual(merged.count(), 6)
        self.assertEqual(merged.counts(), {A: 4, B: 2})
        self.assertEqual(merged.medians_ns()[A], 275.0)  # 100 250 300 400
        self.assertEqual(merged.medians_ns()[B], 15.0)

    def test_a_name_with_spaces_and_no_trailing_newline(self):
        self.write("ref.1.tsv", line(10, 20, "a b  c").rstrip("\n"))
        record = read_reference.load(self.prefix)[1].records[0]
        self.assertEqual(record.name, "a b  c")
        self.assertEqual((record.start_ns, record.end_ns, record.stream_id, record.duration_ns),
                         (10, 20, 7, 10))

    def test_records_without_timestamps_are_incomplete_and_not_counted(self):
        self.write("ref.1.tsv", line(0, 0, A) + line(500, 400, A) + line(100, 200, A))
        kernels = read_reference.load(self.prefix)[1]
        self.assertEqual(kernels.count(), 1)
        self.assertEqual(len(kernels.incomplete), 2)
        self.assertEqual(read_reference.summary(kernels)["incomplete"], 2)

    def test_an_empty_file_is_a_process_without_kernels(self):
        self.write("ref.3.tsv", "")
        per_pid = read_reference.load(self.prefix)
        self.assertEqual(list(per_pid), [3])
        self.assertEqual(per_pid[3].count(), 0)

    def test_only_this_prefix_files(self):
        self.write("ref.1.tsv", line(1, 2, A))
        self.write("ref.x.2.tsv", line(1, 2, A))     # the prefix ref.x
        self.write("refs.3.tsv", line(1, 2, A))      # the prefix refs
        self.write("ref.4.tsv.tmp", line(1, 2, A))
        self.assertEqual(list(read_reference.load(self.prefix)), [1])

    def test_a_malformed_line_names_its_file_and_line(self):
        self.write("ref.9.tsv", line(1, 2, A) + "1\t2\t3\n")
        with self.assertRaisesRegex(ValueError, r"ref\.9\.tsv:2: expected 7"):
            read_reference.load(self.prefix)
        self.write("ref.9.tsv", "1\tx\t0\t0\t0\t0\tname\n")
        with self.assertRaisesRegex(ValueError, r"ref\.9\.tsv:1: .*number"):
            read_reference.load(self.prefix)

    def test_the_command(self):
        self.write("ref.5.tsv", line(100, 300, A) + line(400, 500, B))
        import contextlib
        import io
        import json
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(read_reference.main([self.prefix, "--json"]), 0)
        result = json.loads(out.getvalue())
        self.assertEqual(result["all"]["kernels"], 2)
        self.assertEqual(result["processes"]["5"]["names"][A], {"count": 1, "total_ns": 200,
                                                                "median_ns": 200.0})
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(read_reference.main([self.prefix + "none"]), 2)
        self.assertIn("no file", err.getvalue())


if __name__ == "__main__":
    unittest.main()
