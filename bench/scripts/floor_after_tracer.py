#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The launch floor after a Tracer stopped, over many fresh processes (docs/benchmarks.md).

    python3 bench/scripts/floor_after_tracer.py PROGRAM [PROCESSES] [ENGINES] [OUT.jsonl]

Runs PROGRAM (build/<preset>/bench/accuracy/floor_after_tracer) PROCESSES times (default 30), each
a fresh process in which a Tracer measures a 10 us spin and stops, then ENGINES engines (default
8) in turn calibrate their floor and measure the spin with events only. Prints, per engine index,
the floors and the errors against the truth, and how many missed max(2 %, 0.25 us): if the first
engine after the Tracer misses where later ones do not, the miss follows the Tracer's end.
"""
import json
import statistics
import subprocess
import sys


def summary(rows):
    """Lines per engine index from the programs' JSON rows."""
    lines = []
    engines = sorted({r["engine"] for r in rows if r["what"] == "events-only"})
    for e in engines:
        mine = [r for r in rows if r["what"] == "events-only" and r["engine"] == e]
        floors = [r["floor_ns"] for r in mine]
        errors = [r["headline_ns"] - r["truth_ns"] for r in mine]
        bound = [max(0.02 * r["truth_ns"], 250.0) for r in mine]
        missed = sum(abs(err) > b for err, b in zip(errors, bound))
        lines.append(f"engine {e}: {len(mine)} processes, floor median {statistics.median(floors):.0f} "
                     f"ns ({min(floors):.0f} to {max(floors):.0f}), error median "
                     f"{statistics.median(errors):+.0f} ns ({min(errors):+.0f} to "
                     f"{max(errors):+.0f}), missed {missed}")
    return lines


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    program = argv[0]
    processes = int(argv[1]) if len(argv) > 1 else 30
    engines = argv[2] if len(argv) > 2 else "8"
    rows = []
    for p in range(processes):
        done = subprocess.run([program, engines], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"process {p + 1}: exit {done.returncode}: {done.stderr.strip()[-400:]}",
                  file=sys.stderr)
            continue
        rows += [dict(json.loads(t), process=p) for t in done.stdout.splitlines()
                 if t.startswith("{")]
    if len(argv) > 3:
        with open(argv[3], "w") as out:
            out.writelines(json.dumps(r) + "\n" for r in rows)
    if not rows:
        print("floor_after_tracer: no process gave a result", file=sys.stderr)
        return 1
    for line in summary(rows):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
