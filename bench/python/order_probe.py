# SPDX-License-Identifier: Apache-2.0
"""Where does a multi-activity operation's order deviation come from? (issue 28, docs/benchmarks.md)

    python3 bench/python/order_probe.py --all REPEATS OUT.jsonl [VARIANT,...]

The reduction of order.py (a memset, then a reduce kernel) is measured with kerntime.measure in
fresh processes: alone; with every operation made and called once but none measured
(`allocated`); after the operations before it in orders 1 and 3; right after the attention or the
Triton kernel. Each process measures it three times: first, again, and on a fresh input tensor,
then a convolution and a GEMM twice each. Per measurement it prints kerntime's headline (the span),
the sum of the activities' durations and the median gap (span - sum); torch.profiler then reads the
same input in the same process: the memset, the gap, the kernel and the span. Every variant runs
under both engine pipelines (KERNTIME_ENGINE_PIPELINE=overlap, the default, and quiet: the host
writes nothing to the GPU's queue while a sample runs).

    python3 bench/python/order_probe.py --placement OUT.jsonl

The allocator-state candidate, in one process: the reduction is measured with a pad of P bytes
allocated inside the call before the sum (P = 0, 512, ... ; nothing is launched for it), which
moves the reduction's temporary buffers (the memset's target among them) by P within the
allocator's segment, the same P in every call. Each P is measured twice by kerntime, then read by
torch.profiler on the same callable. If the gap between the memset and the kernel follows P for
both readers, it is a property of where the buffers lie, not of the history of measurements.

    python3 bench/python/order_probe.py --sequence OUT.jsonl

The placement probe found the high gap on every fourth measurement of its process. This one
measures the same reduction 12 times in a row in each of three processes: with CUPTI (the
process's Tracer kept); with the Tracer stopped and started again between measurements; and
events only (cupti=False), where the gap is inside the event time and no CUPTI record is made.
If the events-only times show the same period, the GPU itself runs the gap slower; if the period
restarts with the Tracer, it comes from the engine's CUPTI use.
"""
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import order  # noqa: E402

VARIANTS = {
    "alone": (["reduction"], []),
    "allocated": (order.OPS, []),  # every op made and called once, none measured before
    "order1": (order.ORDERS["order1"], order.ORDERS["order1"][:4]),
    "order3": (order.ORDERS["order3"], order.ORDERS["order3"][:-1]),
    "after-attention": (["attention", "reduction"], ["attention"]),
    "after-triton": (["triton", "reduction"], ["triton"]),
}


def describe(m):
    spans = [s.cupti_ns for s in m.samples if s.valid and s.cupti_ns]
    sums = [s.cupti_sum_ns for s in m.samples if s.valid and s.cupti_sum_ns]
    gaps = [a - b for a, b in zip(spans, sums)]
    return dict(us=m.median_ns / 1e3, sum_us=(m.median_cupti_sum_ns or 0) / 1e3,
                gap_us=statistics.median(gaps) / 1e3 if gaps else None,
                n=len(m.headline_ns), clock=m.median_sm_clock_mhz,
                spans=[round(x / 1e3, 2) for x in spans][:60],
                sums=[round(x / 1e3, 2) for x in sums][:60])


def reader(fn, x_desc):
    """torch.profiler on the memset and the kernel of each call, order.py's cold protocol."""
    work = [c for c in order.ProfiledCalls()(fn, 100) if len(c) == 2]
    memset = statistics.median(c[0][1] - c[0][0] for c in work) / 1e3
    between = statistics.median(c[1][0] - c[0][1] for c in work) / 1e3
    kernel = statistics.median(c[1][1] - c[1][0] for c in work) / 1e3
    span = statistics.median(c[1][1] - c[0][0] for c in work) / 1e3
    return dict(reader_memset=memset, reader_gap=between, reader_kernel=kernel, reader_span=span,
                where=x_desc)


def child(variant):
    import torch
    import kerntime

    order._row_sums = order._define_triton()
    made, before = VARIANTS[variant]
    ops = order.make_ops(made)
    for name, fn in ops.items():
        if name != "heat":
            fn()
    torch.cuda.synchronize()
    for name in before:
        kerntime.measure(ops[name], name=name)
    rows = []

    def row(what, fn, name):
        rows.append(dict(variant=variant, what=what, **describe(kerntime.measure(fn, name=name))))

    x = ops["reduction"]
    row("reduction", x, "reduction")
    row("again", x, "reduction")
    y = torch.randn(64 << 20, device="cuda")
    fresh = lambda y=y: y.sum()
    fresh()
    row("fresh input", fresh, "fresh")
    more = order.make_ops(["conv", "gemm"])
    for name, fn in more.items():
        fn()
        row(f"{name} first", fn, name)
        row(f"{name} again", fn, name)
    kerntime.release_tracer()
    rows[0].update(reader(x, "same input"))
    rows[2].update(reader(fresh, "fresh input"))
    for r in rows:
        print(json.dumps(r))


PADS = [0, 512, 1024, 1536, 2048, 3072, 4096, 8192, 16384, 65536]


def placement():
    import torch
    import kerntime

    x = torch.randn(64 << 20, device="cuda")
    rows = []
    for pad in PADS:
        def fn(x=x, pad=pad):
            keep = torch.empty(pad, dtype=torch.uint8, device="cuda") if pad else None
            out = x.sum()
            del keep
            return out

        fn()
        torch.cuda.synchronize()
        for what in ("first", "again"):
            rows.append(dict(variant="placement", what=f"pad {pad} {what}",
                             **describe(kerntime.measure(fn, name=f"pad{pad}"))))
        rows[-2]["fn"] = fn
    kerntime.release_tracer()
    for r in rows:
        if "fn" in r:
            r.update(reader(r.pop("fn"), r["what"]))
    for r in rows:
        print(json.dumps(r))


SEQUENCES = ("tracer-kept", "tracer-restarted", "events-only")


def sequence(kind):
    import torch
    import kerntime

    x = torch.randn(64 << 20, device="cuda")
    fn = lambda x=x: x.sum()  # noqa: E731
    fn()
    torch.cuda.synchronize()
    for i in range(12):
        m = kerntime.measure(fn, name="reduction", cupti=kind != "events-only")
        r = dict(variant=kind, what=f"#{i + 1}", **describe(m))
        r["events_us"] = statistics.median(s.event_ns for s in m.samples if s.valid) / 1e3
        print(json.dumps(r), flush=True)
        if kind == "tracer-restarted":
            kerntime.release_tracer()


def line(rep: int, pipeline: str, variant: str, r: dict) -> str:
    text = (f"{rep} {pipeline:7s} {variant:16s} {r['what']:12s} {r['us']:8.2f} "
            f"sum {r['sum_us']:7.2f} gap {r['gap_us'] or 0:5.2f} n={r['n']:3d} "
            f"clk {r['clock'] or 0:.0f}")
    if "reader_span" in r:
        text += (f"  reader memset {r['reader_memset']:.2f} gap {r['reader_gap']:.2f} "
                 f"kernel {r['reader_kernel']:.2f} span {r['reader_span']:.2f}")
    return text


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "placement":
        placement()
        return 0
    if sys.argv[1] in SEQUENCES:
        sequence(sys.argv[1])
        return 0
    if sys.argv[1] == "--sequence":
        with open(sys.argv[2], "w") as out:
            for kind in SEQUENCES:
                done = subprocess.run([sys.executable, os.path.abspath(__file__), kind],
                                      capture_output=True, text=True)
                if done.returncode != 0:
                    print(kind, "failed:", done.stderr[-1500:])
                    continue
                for text in done.stdout.splitlines():
                    if text.startswith("{"):
                        r = json.loads(text)
                        out.write(text + "\n")
                        print(line(0, "overlap", kind, r) + f"  events {r['events_us']:.2f}",
                              flush=True)
        return 0
    if sys.argv[1] == "--placement":
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "placement"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            print("placement failed:", done.stderr[-1500:])
            return 1
        with open(sys.argv[2], "w") as out:
            for text in done.stdout.splitlines():
                if text.startswith("{"):
                    r = json.loads(text)
                    out.write(text + "\n")
                    print(line(0, "overlap", "placement", r), flush=True)
        return 0
    if sys.argv[1] != "--all":
        child(sys.argv[1])
        return 0
    reps = int(sys.argv[2])
    chosen = sys.argv[4].split(",") if len(sys.argv) > 4 else list(VARIANTS)
    with open(sys.argv[3], "w") as out:
        for rep in range(reps):
            for variant in chosen:
                for pipeline in ("overlap", "quiet"):
                    env = dict(os.environ, KERNTIME_ENGINE_PIPELINE=pipeline)
                    done = subprocess.run([sys.executable, os.path.abspath(__file__), variant],
                                          capture_output=True, text=True, env=env)
                    if done.returncode != 0:
                        print(variant, "failed:", done.stderr[-800:], flush=True)
                        continue
                    for text in done.stdout.splitlines():
                        if text.startswith("{"):
                            r = dict(json.loads(text), pipeline=pipeline)
                            out.write(json.dumps(r) + "\n")
                            out.flush()
                            print(line(rep, pipeline, variant, r), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
