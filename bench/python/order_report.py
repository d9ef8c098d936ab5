# SPDX-License-Identifier: Apache-2.0
"""The order benchmark's summary (bench/python/order.py): its rows, measured or read back, as the
tables and the verdict. Repetitions of a run collapse to their medians; the target,
max(1 %, 0.25 us), is judged against the first of REFERENCES that was run (saved runs from
before "alone-called" existed have "alone", or only "alone-bare")."""

from __future__ import annotations

import statistics
from typing import Dict, List, Optional


def limit(us: float) -> float:
    return max(0.01 * us, 0.25)


MEDIAN_FIELDS = ("us", "sum_us", "gap_us", "span_us", "sm_clock")
# The alone runs, the target's reference first: every operation made and called once before the
# measurement (as in the orders); made, only the measured one called; only the measured one made.
REFERENCES = ("alone-called", "alone", "alone-bare")


def sum_deviations(rows: List[dict], names: List[str], orders: Dict[str, List[str]],
                   ref: str) -> tuple:
    """kerntime's per-kernel sums in the three orders against `ref`'s: the largest deviation as
    a fraction, and the operations beyond max(1 %, 0.25 us) of their sum. A sum stays where the
    gaps between kernels move with memory placement (docs/order-history.md)."""
    worst, missed = 0.0, []
    for op in names:
        alone = next((r for r in rows if r["reader"] == "kerntime" and r["run"] == ref and
                      r["op"] == op), None)
        if not alone or not alone.get("sum_us"):
            continue
        devs = [abs(r["sum_us"] - alone["sum_us"]) for r in rows
                if r["reader"] == "kerntime" and r["run"] in orders and r["run"] != "after-heat"
                and r["op"].rstrip("0123456789") == op and r.get("sum_us")]
        if devs:
            worst = max(worst, max(devs) / alone["sum_us"])
            if max(devs) > limit(alone["sum_us"]):
                missed.append(op)
    return worst, missed


def clock_beside(run: str, deviation: float, row: dict, alone: dict) -> str:
    """One miss in the orders with the engine's SM clock of its samples and of alone's."""
    text = f"{row['op']} {run} {deviation:+.2f} us"
    clock, reference = row.get("sm_clock"), alone.get("sm_clock")
    if not clock or not reference:
        return text + " (no clock reading)"
    return (f"{text} at {clock:.0f} MHz against {reference:.0f} MHz alone "
            f"({(clock / reference - 1) * 100:+.1f} %)")


def collapse(rows: List[dict]) -> List[dict]:
    """One row per reader, run and operation: the median of its repetitions' figures, with the
    repetitions' headlines kept as `reps_us`."""
    groups: Dict[tuple, List[dict]] = {}
    for r in rows:
        groups.setdefault((r["reader"], r["run"], r["op"]), []).append(r)
    out = []
    for same in groups.values():
        merged = dict(same[0])
        for field in MEDIAN_FIELDS:
            # A sum of 0 means no CUPTI sum (events only): it is no figure to take a median of.
            values = [r[field] for r in same
                      if r.get(field) is not None and (field != "sum_us" or r[field] > 0)]
            if values:
                merged[field] = statistics.median(values)
        merged["reps_us"] = [r["us"] for r in same]
        out.append(merged)
    return out


def summarize(rows: List[dict], names: List[str], orders: Dict[str, List[str]],
              pause: float) -> int:
    """Prints the summary of `rows`; 1 when the target is missed or a deviation after heat is
    not marked by the engine, else 0."""
    rows = collapse(rows)

    def figure(reader: str, run: str, op: str) -> Optional[dict]:
        for r in rows:
            if r["reader"] == reader and r["run"] == run and r["op"] == op:
                return r
        return None

    present = [k for k in REFERENCES if any(r["run"] == k for r in rows)]
    ref = present[0] if present else REFERENCES[0]
    others = present[1:]  # the other references, each shown against ref, for the record
    print(f"Order benchmark: kerntime.measure (cold, defaults); medians in us; "
          f"pause {pause} s; reference: {ref}")
    head = f"{'operation':12s} {ref:>12s}" + "".join(f" {k:>12s}" for k in others) + \
        "".join(f" {o:>11s}" for o in orders) + \
        f" {'worst':>8s} {'limit':>6s}  reader {ref} / orders (sum; span)"
    print(head)
    worst_all = 0.0
    missed = []
    # After heat the GPU itself is slower (its power state): there the engine must mark the
    # measurement (NVML's slowed samples, the reduced-clock warning) rather than read "alone".
    heat_unmarked, heat_marked = [], []
    # Each miss in the orders beside the engine's SM clock there and alone: a GPU whose clock
    # moved with what ran before moves the kernel's real time, which the verdict still counts.
    beyond = []
    worst_other = {k: 0.0 for k in others}  # the orders against the other references
    for op in names:
        alone = figure("kerntime", ref, op)
        if alone is None:  # a run cut short before this operation's reference
            print(f"{op:12s} {'-':>12s}  not measured {ref}: left out of the verdict")
            continue
        other = {k: figure("kerntime", k, op) for k in others}
        cells, worst = [], 0.0
        for run, order in orders.items():
            seen = [r for r in rows if r["reader"] == "kerntime" and r["run"] == run and
                    r["op"].rstrip("0123456789") == op]
            devs = [r["us"] - alone["us"] for r in seen]
            cells.append(" ".join(f"{d:+.2f}" for d in devs) or "-")
            if run == "after-heat":
                for r, d in zip(seen, devs):
                    if abs(d) <= limit(alone["us"]):
                        continue
                    said = r.get("slowed", 0) > 0 or any("SM clock" in w for w in r["warnings"])
                    (heat_marked if said else heat_unmarked).append(
                        f"{op} {d:+.2f} us ({d / alone['us'] * 100:+.2f} %"
                        + (f", {r.get('slowed', 0)} of {r['samples']} samples slowed by "
                           f"{r.get('reasons') or 'nothing NVML named'}" if said else "") + ")")
                continue
            worst = max([worst] + [abs(d) for d in devs])
            beyond += [clock_beside(run, d, r, alone) for r, d in zip(seen, devs)
                       if abs(d) > limit(alone["us"])]
            for k, o in other.items():
                if o:
                    worst_other[k] = max([worst_other[k]] +
                                         [abs(r["us"] - o["us"]) / o["us"] for r in seen])
        worst_all = max(worst_all, worst / alone["us"])
        if worst > limit(alone["us"]):
            missed.append(op)
        truth = [figure("torch.profiler", run, op) for run in [ref] + list(orders)]
        shown = " / ".join(f"{t['us']:.2f};{t['span_us']:.2f}" for t in truth if t)
        other_cells = "".join(f" {o['us'] - alone['us']:+12.2f}" if o else f" {'-':>12s}"
                              for o in other.values())
        print(f"{op:12s} {alone['us']:12.2f}{other_cells}" + "".join(f" {c:>11s}" for c in cells) +
              f" {worst:8.2f} {limit(alone['us']):6.2f}  {shown}")
    for k in others:
        print(f"({k}: minus {ref}; the orders' largest deviation from {k}: "
              f"{worst_other[k] * 100:.2f} %)")
    worst_sum, missed_sum = sum_deviations(rows, names, orders, ref)
    print(f"the per-kernel sum (median_cupti_sum_ns) in the three orders: largest deviation "
          f"{worst_sum * 100:.2f} %; max(1 %, 0.25 us) of the sum: "
          f"{'met' if not missed_sum else 'missed by ' + ', '.join(missed_sum)} "
          f"(for the record: the target is on the headline)")
    print(f"\nthe reader's own deviation from its {ref} (its figure: the span), same runs")
    reader_worst = 0.0
    for op in names:
        alone = figure("torch.profiler", ref, op)
        seen = [r for r in rows if r["reader"] == "torch.profiler" and r["run"] != ref and
                r["op"].rstrip("0123456789") == op]
        devs = [r["span_us"] - alone["span_us"] for r in seen] if alone else []
        if devs:
            in_orders = [abs(d) for r, d in zip(seen, devs) if r["run"].startswith("order")]
            reader_worst = max([reader_worst] + [d / alone["span_us"] for d in in_orders])
            print(f"  {op:12s} {ref} {alone['span_us']:.2f}: " +
                  ", ".join(f"{r['run']} {d:+.2f}" for r, d in zip(seen, devs)))
    print(f"  largest in the three orders: {reader_worst * 100:.2f} %")

    def both_readers(op: str):
        """(run, kerntime's row, the reader's row) of every run where both measured `op`."""
        for run in [ref] + others + list(orders):
            k, t = figure("kerntime", run, op), figure("torch.profiler", run, op)
            if k and t:
                yield run, k, t

    print("\nkerntime's headline minus the reader's span (same run), us")
    for op in names:
        print(f"  {op:12s} " + ", ".join(f"{run} {k['us'] - t['span_us']:+.2f}"
                                         for run, k, t in both_readers(op)))
    print("\nmulti-activity operations: kerntime's sum and gap (span - sum) / the reader's, us")
    for op in names:
        line = [f"{run} {k['sum_us']:.2f}+{k['gap_us']:.2f} / "
                f"{t['us']:.2f}+{t['span_us'] - t['us']:.2f}"
                for run, k, t in both_readers(op) if (k.get("gap_us") or 0) > 0.05]
        if line:
            print(f"  {op:12s} " + ", ".join(line))
    print("\nclocks (engine median SM MHz; NVML before: sm/mem MHz, W, C, reasons)")
    for r in rows:
        if r["reader"] == "kerntime":
            b = r.get("nvml_before", {})
            print(f"  {r['run']:12s} {r['op']:12s} {r['us']:9.2f} us  n={r['samples']:4d} "
                  f"wall={r['wall_s']:.2f}s  engine {r['sm_clock'] or 0:.0f} MHz "
                  f"first {[round(c) for c in r['sm_clock_first']]} last "
                  f"{[round(c) for c in r['sm_clock_last']]}  NVML {b.get('sm_mhz')}/"
                  f"{b.get('mem_mhz')} {b.get('power_w', 0):.0f}W {b.get('temp_c')}C "
                  f"{b.get('reasons', 0):#x}  engine's NVML: {r.get('slowed', '-')} slowed "
                  f"({r.get('reasons') or '-'}), {r.get('power_w') or 0:.0f} W  "
                  f"first us {[round(x, 2) for x in r['first_us']]}"
                  + (f"  warnings: {r['warnings']}" if r["warnings"] else ""))
    if any(len(r["reps_us"]) > 1 for r in rows):
        print("\nkerntime's headline per repetition (the tables above take their medians), us")
        for op in names:
            cells = [f"{r['run']} " + "/".join(f"{u:.2f}" for u in r["reps_us"]) for r in rows
                     if r["reader"] == "kerntime" and r["op"].rstrip("0123456789") == op]
            print(f"  {op:12s} " + ", ".join(cells))
    print(f"\nlargest deviation from {ref} in the three orders: {worst_all * 100:.2f} %; target "
          f"max(1 %, 0.25 us): {'met' if not missed else 'missed by ' + ', '.join(missed)}")
    if beyond:
        print("beyond the target in the orders, with the engine's median SM clock: " +
              "; ".join(beyond))
    if "after-heat" in orders:
        print("after heat, beyond the target and marked by the engine: " +
              ("; ".join(heat_marked) or "none"))
        print("after heat, beyond the target and NOT marked: " + ("; ".join(heat_unmarked) or "none"))
    return 0 if not missed and not heat_unmarked else 1

