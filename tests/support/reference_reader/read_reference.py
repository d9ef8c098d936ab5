#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads what the reference reader (libkerntime_reference_reader.so) wrote: the files
PREFIX.PID.tsv, one per process, one kernel record a line:

    start_ns  end_ns  device_id  stream_id  correlation_id  graph_id  demangled_name

(tab-separated). Standard library only. As a module:

    import read_reference
    per_pid = read_reference.load("/tmp/ref")      # {pid: Kernels}
    everything = read_reference.merge(per_pid.values())
    everything.counts()["my_kernel(float*)"], everything.medians_ns(), everything.total_ns()

A record whose timestamps are missing (start or end 0, or end before start: a kernel still
running at a forced flush) is kept in `incomplete` and counts nowhere else.

As a command, prints per process and in all each kernel's count, total and median:

    python3 read_reference.py PREFIX [--json]
"""
import glob
import json
import os
import re
import statistics
import sys
from dataclasses import dataclass, field
from typing import Dict, Iterable, List


@dataclass(frozen=True)
class Record:
    start_ns: int
    end_ns: int
    device_id: int
    stream_id: int
    correlation_id: int
    graph_id: int
    name: str

    @property
    def duration_ns(self) -> int:
        return self.end_ns - self.start_ns


@dataclass
class Kernels:
    """The kernel records of one process, or of several merged."""
    records: List[Record] = field(default_factory=list)
    incomplete: List[Record] = field(default_factory=list)

    def count(self) -> int:
        return len(self.records)

    def total_ns(self) -> int:
        return sum(r.duration_ns for r in self.records)

    def durations_ns(self) -> Dict[str, List[int]]:
        by_name: Dict[str, List[int]] = {}
        for r in self.records:
            by_name.setdefault(r.name, []).append(r.duration_ns)
        return by_name

    def counts(self) -> Dict[str, int]:
        return {name: len(d) for name, d in self.durations_ns().items()}

    def totals_ns(self) -> Dict[str, int]:
        return {name: sum(d) for name, d in self.durations_ns().items()}

    def medians_ns(self) -> Dict[str, float]:
        return {name: float(statistics.median(d)) for name, d in self.durations_ns().items()}


def parse_line(line: str, where: str = "") -> Record:
    """One TSV line (with or without its newline) as a Record; ValueError names `where`."""
    fields = line.rstrip("\n").split("\t", 6)
    if len(fields) != 7:
        raise ValueError(f"{where}: expected 7 tab-separated fields, found {len(fields)}")
    try:
        numbers = [int(f) for f in fields[:6]]
    except ValueError as e:
        raise ValueError(f"{where}: a field that should be a number is not ({e})") from None
    return Record(*numbers, fields[6])


def read_tsv(path: str) -> Kernels:
    kernels = Kernels()
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            record = parse_line(line, f"{path}:{number}")
            complete = record.start_ns > 0 and record.end_ns >= record.start_ns
            (kernels.records if complete else kernels.incomplete).append(record)
    return kernels


def files(prefix: str) -> Dict[int, str]:
    """{pid: path} of the files PREFIX.PID.tsv (not those of a longer prefix)."""
    directory, base = os.path.split(prefix)
    pattern = re.compile(re.escape(base) + r"\.(\d+)\.tsv$")
    found = {}
    for path in glob.glob(os.path.join(glob.escape(directory), glob.escape(base) + ".*.tsv")):
        match = pattern.fullmatch(os.path.basename(path))
        if match:
            found[int(match.group(1))] = path
    return found


def load(prefix: str) -> Dict[int, Kernels]:
    """{pid: Kernels} for every process that wrote PREFIX.PID.tsv (an empty file: a process
    that started CUDA and ran no kernel)."""
    return {pid: read_tsv(path) for pid, path in sorted(files(prefix).items())}


def merge(parts: Iterable[Kernels]) -> Kernels:
    merged = Kernels()
    for part in parts:
        merged.records.extend(part.records)
        merged.incomplete.extend(part.incomplete)
    return merged


def summary(kernels: Kernels) -> dict:
    counts, totals, medians = kernels.counts(), kernels.totals_ns(), kernels.medians_ns()
    return {"kernels": kernels.count(), "total_ns": kernels.total_ns(),
            "incomplete": len(kernels.incomplete),
            "names": {n: {"count": counts[n], "total_ns": totals[n], "median_ns": medians[n]}
                      for n in sorted(counts, key=lambda n: -totals[n])}}


def main(argv: List[str]) -> int:
    args = [a for a in argv if a != "--json"]
    if len(args) != 1:
        print("usage: read_reference.py PREFIX [--json]", file=sys.stderr)
        return 2
    per_pid = load(args[0])
    if not per_pid:
        print(f"read_reference.py: no file {args[0]}.PID.tsv", file=sys.stderr)
        return 2
    result = {"processes": {str(pid): summary(k) for pid, k in per_pid.items()},
              "all": summary(merge(per_pid.values()))}
    if "--json" in argv:
        print(json.dumps(result, indent=1))
        return 0
    for label, s in list(result["processes"].items()) + [("all", result["all"])]:
        print(f"{'pid ' + label if label != 'all' else 'all processes'}: {s['kernels']} kernels, "
              f"{s['total_ns'] / 1e6:.3f} ms, {s['incomplete']} incomplete")
        for name, row in s["names"].items():
            print(f"  {row['count']:9d} {row['total_ns'] / 1e3:12.1f} us "
                  f"{row['median_ns'] / 1e3:10.3f} us  {name[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
