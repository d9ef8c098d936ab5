# SPDX-License-Identifier: Apache-2.0
"""Does an operation of the order benchmark read otherwise after what ran before it, at one clock?

    python bench/python/order_position.py [--op NAME] [--out FILE] [--rounds N]
    python bench/python/order_position.py --summarize FILE

The order benchmark's norm (layer_norm over 8192x4096 fp16) read 0.6 to 0.9 us under its
alone figure in every order on an H100 (docs/benchmarks.md, 2026-12-06), while the reader
moved the other way, and per process its time followed the engine's SM clock. Here one process
prepares exactly as order.py's processes do (every operation of the orders made and called
once, order 1's, then gemm2), measures the operation (--op, default norm) once first (as
alone-called does), then for N rounds measures it right after each of its predecessors in the
three orders (for the norm: reduction in order 1, triton in order 2, gemm2 in order 3) and after
itself, in a rotated order. Each line: the operation, the predecessor, the headline, the
engine's median SM clock. --summarize prints per operation and predecessor the median time and
clock over every process, and the median of each process's difference from its own figure after
itself: what ran before, at the process's clock.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import order  # noqa: E402  (its operations and orders; torch is imported only to measure)


def predecessors(op: str, orders) -> list:
    """The operation itself, then what runs right before it in each order, once each."""
    out = [op]
    for names in orders:
        if op in names and names.index(op) > 0 and names[names.index(op) - 1] not in out:
            out.append(names[names.index(op) - 1])
    return out


def summarize(path: str) -> int:
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.startswith("{")]
    for op in dict.fromkeys(row.get("op", "norm") for row in rows):
        summarize_op(op, [row for row in rows if row.get("op", "norm") == op])
    return 0


def summarize_op(op: str, rows: list) -> None:
    by_pid = defaultdict(lambda: defaultdict(list))
    for row in rows:
        by_pid[row["pid"]][row["after"]].append(row)
    afters = list(dict.fromkeys(["first", op] + [row["after"] for row in rows]))
    print(f"{op}: {len(by_pid)} processes")
    print(f"| after | {op}, median us | SM clock, median MHz |"
          f" minus after-{op}, median of processes (us) |")
    print("|---|---:|---:|---:|")
    for after in afters:
        mine = [r for r in rows if r["after"] == after]
        if not mine:
            continue
        diffs = []
        for phases in by_pid.values():
            if phases.get(after) and phases.get(op):
                diffs.append(statistics.median(r["us"] for r in phases[after]) -
                             statistics.median(r["us"] for r in phases[op]))
        print(f"| {after} | {statistics.median(r['us'] for r in mine):.3f} | "
              f"{statistics.median(r['sm_clock'] for r in mine):.0f} | "
              f"{format(statistics.median(diffs), '+.3f') if diffs else '-'} |")
    print("\nper process: after -> median us @ median MHz")
    for pid, phases in by_pid.items():
        print(f"  {pid}: " + ", ".join(
            f"{after} {statistics.median(r['us'] for r in phases[after]):.2f}"
            f"@{statistics.median(r['sm_clock'] for r in phases[after]):.0f}"
            for after in afters if phases.get(after)))
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--op", default="norm", choices=order.OPS + ["gemm2"])
    parser.add_argument("--out", default=None)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--summarize", default=None)
    args = parser.parse_args()
    if args.summarize:
        return summarize(args.summarize)

    import torch
    import kerntime

    order._row_sums = order._define_triton()
    names = order.ORDERS["order1"] + ["gemm2"]
    ops = order.make_ops(names)
    for name in names:
        ops[name]()
    torch.cuda.synchronize()
    out = open(args.out, "a") if args.out else None  # closed at exit; flushed per row
    before_op = predecessors(args.op, [order.ORDERS[k] for k in ("order1", "order2", "order3")])

    def measure(after: str, round_: int) -> None:
        m = kerntime.measure(ops[args.op], name=args.op)
        row = dict(op=args.op, after=after, round=round_, pid=os.getpid(),
                   us=round(m.median_ns / 1e3, 3), sm_clock=round(m.median_sm_clock_mhz or 0),
                   samples=len(m.headline_ns), warnings=list(m.warnings))
        print(json.dumps(row), flush=True)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()

    measure("first", 0)
    for r in range(args.rounds):
        for i in range(len(before_op)):
            before = before_op[(i + r) % len(before_op)]
            kerntime.measure(ops[before], name=before)
            measure(before, r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
