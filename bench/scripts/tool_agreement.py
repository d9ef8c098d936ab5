#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Per-kernel totals of the same PyTorch step measured two ways (docs/run.md, bench/scripts/run-measure):
# each side is a list of files, kerntime run reports (-o) or torch_step.py's profiler JSON
# (told apart by their contents), one per process. Prints, per kernel, each side's totals and
# the difference of the sides' means; then how many kernels agree within 1 % and how many
# vary less than 0.2 % between the processes of a side.
#
#   python3 bench/scripts/tool_agreement.py LABEL "a1.json a2.json ..." "b1.json b2.json ..."
import json
import statistics
import sys

label, ours_files, theirs_files = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()


def totals(path):
    data = json.load(open(path))
    if "trace" in data:  # a kerntime run report
        return {r["name"]: (r["instances"], r["total_ns"]) for r in data["trace"]["kernel_summary"]}
    # torch.profiler's: copies and memsets are not kernels; Optimizer.step is a CPU-side row.
    return {n: (c, t) for n, (c, t) in data["kernels"].items()
            if not n.startswith(("Memset", "Memcpy", "Optimizer"))}


def tool(paths):
    return "kerntime run" if "trace" in json.load(open(paths[0])) else "torch.profiler"


ours = [totals(p) for p in ours_files]
theirs = [totals(p) for p in theirs_files]
names = sorted(set().union(*theirs),
               key=lambda n: -statistics.mean(t.get(n, (0, 0))[1] for t in theirs))
print(f"-- {label}: {len(ours)} {tool(ours_files)} processes against {len(theirs)} "
      f"{tool(theirs_files)} processes (totals in us)")
print(f"   {'kernel':60s} {'count':>11s}  {'first side':>26s}  {'second side':>26s}  difference")
same_names = set(ours[0]) == set(theirs[0])
same_counts = True
within, spread_ok, rows = 0, 0, 0
for name in names:
    mine = [o.get(name, (0, 0)) for o in ours]
    other = [t.get(name, (0, 0)) for t in theirs]
    same_counts = same_counts and len({c for c, _ in mine + other}) == 1
    a = [t / 1e3 for _, t in mine]
    b = [t / 1e3 for _, t in other]
    if statistics.mean(b) == 0 or statistics.mean(a) == 0:
        print(f"   {name[:60]:60s} missing on the {'first' if statistics.mean(a) == 0 else 'second'} side")
        continue
    difference = (statistics.mean(a) - statistics.mean(b)) / statistics.mean(b) * 100
    spread = max((max(v) - min(v)) / statistics.mean(v) * 100 if statistics.mean(v) else 0
                 for v in (a, b))
    rows += 1
    within += abs(difference) <= 1.0
    spread_ok += spread < 0.2
    print(f"   {name[:60]:60s} {mine[0][0]:5d}/{other[0][0]:5d}  "
          f"{' '.join(f'{v:8.1f}' for v in a):>26s}  {' '.join(f'{v:8.1f}' for v in b):>26s}  "
          f"{difference:+6.2f} %")
only_ours = sorted(set(ours[0]) - set(theirs[0]))
print(f"   same names: {same_names and not only_ours}; same counts: {same_counts}; "
      f"kernels within 1 %: {within} of {rows}; spread within each tool < 0.2 %: {spread_ok} of {rows}"
      + (f"; only on the first side: {only_ours[:3]}" if only_ours else ""))
