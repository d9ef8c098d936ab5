# SPDX-License-Identifier: Apache-2.0
"""Where does a multi-activity operation's order deviation come from? (docs/order-history.md)

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

    python3 bench/python/order_probe.py --placement OUT.jsonl [conv]

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
    python3 bench/python/order_probe.py --channels INJECTION OUT.jsonl

The sequence probe found the period on events only too, so the GPU runs those measurements'
gap slower. This one measures the reduction 12 times, then a two-kernel elementwise operation 12
times, events only, in one process under INJECTION (build/<preset>/bench/run/
libkerntime_channel_reader_injection.so), a CUPTI reader apart from kerntime that records each
memset's and kernel's hardware channel. Per measurement it prints the median gap inside the
operation (memset to kernel, kernel to kernel) and the channels that ran its parts: if the slow
measurements' memsets ran on another channel, the period is the driver's choice of channel.
    python3 bench/python/order_probe.py --profiler-sequence OUT.jsonl

The C++ engine on a fixed 4-byte memset and a spin (bench/accuracy/memset_period) showed no
period. This measures the reduction 12 times in a row with torch.profiler alone (kerntime is
imported by the spin's helper, _common.py, but measures nothing: no Tracer, no engine;
order.py's cold protocol, 100 calls a measurement, 150 ms apart): the memset, the
memset-to-kernel gap, the kernel and the span per measurement; then again with each measurement
on the side stream made current through a new torch.cuda.ExternalStream, as kerntime.measure
binds its engine's stream, with one call on it before each measurement. A period here is
PyTorch's and the GPU's, whatever reads it.

    python3 bench/python/order_probe.py --pointers

kerntime's sequence, events only, with each call's output address and the caching allocator's
segments and bytes after each measurement: does the slow measurement's memory lie elsewhere?

    python3 bench/python/order_probe.py --python-memset

The C++ probe's shape (a 4-byte memset through CuPy, then a 70 us Triton spin) measured 12 times
from Python, events only, then the reduction 12 times in the same process: is the period the
Python path's, or the reduction's own?

    python3 bench/python/order_probe.py --reduction-variants

The reduction's 12 events-only measurements per variant in one process: 20 samples each, no L2
flush, the output tensor given, the defaults: which one, if any, loses the period?

`--placement OUT conv` moves the convolution's temporaries as the reduction's above (pads up to
32 MiB): does the convolution's time, by both readers, follow where its memory lies?
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import order  # noqa: E402
from channel_records import (channel_groups, channel_records, channel_summary,  # noqa: E402,F401
                             measurement_channels)

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


def events_us(m):
    """The median event time of a measurement's valid samples, us: it holds the gaps inside the
    operation, where the CUPTI headline of a one-part call would not."""
    return statistics.median(s.event_ns for s in m.samples if s.valid) / 1e3


def events_only_sequence(variant, fn, pause_s, **options):
    """`fn` called once, then measured 12 times on events only, `pause_s` apart: one JSON line
    per measurement with its median event time."""
    import torch
    import kerntime

    fn()
    torch.cuda.synchronize()
    for i in range(12):
        time.sleep(pause_s)
        m = kerntime.measure(fn, name=variant, cupti=False, **options)
        print(json.dumps(dict(variant=variant, what=f"#{i + 1}", n=len(m.headline_ns),
                              events_us=events_us(m))), flush=True)


def reader(fn, x_desc, profiled=None):
    """torch.profiler on the memset and the kernel of each call, order.py's cold protocol."""
    work = [c for c in (profiled or order.ProfiledCalls())(fn, 100) if len(c) == 2]
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


CONV_PADS = [0, 512, 65536, 1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20]


def spans(fn):
    """torch.profiler's span and sum per call (order.py's cold protocol), any number of parts."""
    work = order.ProfiledCalls()(fn, 100)
    return dict(reader_span=statistics.median(max(e for _, e, _ in c) - min(b for b, _, _ in c)
                                              for c in work) / 1e3,
                reader_sum=statistics.median(sum(e - b for b, e, _ in c) for c in work) / 1e3)


def placement(op="reduction"):
    import torch
    import kerntime

    import torch.nn.functional as F

    if op == "conv":
        x = torch.randn(32, 64, 56, 56, device="cuda", dtype=torch.float16)
        w = torch.randn(128, 64, 3, 3, device="cuda", dtype=torch.float16)
        work = lambda x=x, w=w: F.conv2d(x, w, padding=1)  # noqa: E731
    else:
        x = torch.randn(64 << 20, device="cuda")
        work = lambda x=x: x.sum()  # noqa: E731
    rows = []
    for pad in CONV_PADS if op == "conv" else PADS:
        def fn(pad=pad):
            keep = torch.empty(pad, dtype=torch.uint8, device="cuda") if pad else None
            out = work()
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
            fn = r.pop("fn")
            r.update(spans(fn) if op == "conv" else reader(fn, r["what"]))
    for r in rows:
        print(json.dumps(r))


def python_memset_sequence():
    """The C++ probe's shape from Python: a 4-byte cudaMemsetAsync (CuPy) then a 70 us spin
    (Triton), events only, 12 measurements; then the reduction's 12 in the same process."""
    import cupy
    import torch
    from _common import spin

    target = torch.zeros(128, device="cuda")
    wait = spin(70_000)

    def memset_then_spin(ptr=target.data_ptr()):
        cupy.cuda.runtime.memsetAsync(ptr, 0, 4, cupy.cuda.get_current_stream().ptr)
        wait()

    x = torch.randn(64 << 20, device="cuda")
    for name, fn in (("memset+spin", memset_then_spin), ("reduction", lambda x=x: x.sum())):
        events_only_sequence(name, fn, 0.15)


REDUCTION_VARIANTS = {
    "fixed 20 samples": dict(fixed_samples=20),
    "no L2 flush": dict(l2_flush=False),
    "output given": dict(),
    "defaults": dict(),
}


def reduction_variants():
    """The reduction's 12 events-only measurements once per variant, in one process: a constant
    number of calls per measurement, no L2 flush, the output tensor given (torch.sum(out=)), and
    the defaults again last. The period restarts with each variant if it counts measurements of
    one callable."""
    import torch

    x = torch.randn(64 << 20, device="cuda")
    out = torch.empty((), device="cuda")
    for variant, options in REDUCTION_VARIANTS.items():
        if variant == "output given":
            fn = lambda x=x, out=out: torch.sum(x, 0, out=out)  # noqa: E731
        else:
            fn = lambda x=x: x.sum()  # noqa: E731
        events_only_sequence(variant, fn, 0.05, **options)


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
        r["events_us"] = events_us(m)
        print(json.dumps(r), flush=True)
        if kind == "tracer-restarted":
            kerntime.release_tracer()


def profiler_sequence(external=False):
    """torch.profiler alone, 12 measurements; `external`: each on a side stream made current
    through a fresh torch.cuda.ExternalStream, as kerntime.measure binds its engine's stream."""
    import torch

    x = torch.randn(64 << 20, device="cuda")
    fn = lambda x=x: x.sum()  # noqa: E731
    fn()
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        profiled = order.ProfiledCalls()
    for i in range(12):
        time.sleep(0.15)
        if external:
            with torch.cuda.stream(torch.cuda.ExternalStream(side.cuda_stream)):
                fn()
                r = reader(fn, "same input", profiled)
        else:
            r = reader(fn, "same input", profiled)
        print(json.dumps(dict(variant="torch.profiler" + (" external" if external else ""),
                              what=f"#{i + 1}", **r)), flush=True)


def pointer_sequence():
    """kerntime's sequence, each call's output address and the allocator's state noted."""
    import torch
    import kerntime

    x = torch.randn(64 << 20, device="cuda")
    seen = []

    def fn(x=x):
        out = x.sum()
        seen.append(out.data_ptr())
        return out

    fn()
    torch.cuda.synchronize()
    for i in range(12):
        seen.clear()
        m = kerntime.measure(fn, name="reduction", cupti=False)
        stats = torch.cuda.memory_stats()
        print(json.dumps(dict(variant="pointers", what=f"#{i + 1}", events_us=events_us(m),
                              n=len(m.headline_ns), calls=len(seen),
                              outputs=sorted({hex(p) for p in seen}),
                              segments=stats.get("segment.all.current"),
                              reserved=stats.get("reserved_bytes.all.current"),
                              allocated=stats.get("allocated_bytes.all.current"),
                              allocs=stats.get("allocation.all.allocated"))), flush=True)


CHANNEL_MEASUREMENTS = 12


def channels_child():
    import torch
    import kerntime

    x = torch.randn(64 << 20, device="cuda")
    y = torch.randn(1 << 20, device="cuda")
    ops = {"reduction": lambda x=x: x.sum(), "two-kernel": lambda y=y: y.add(1).mul_(2)}
    for name, fn in ops.items():
        fn()
        torch.cuda.synchronize()
        for i in range(CHANNEL_MEASUREMENTS):
            # An idle GPU between measurements marks where each one's records begin.
            time.sleep(0.15)
            m = kerntime.measure(fn, name=name, cupti=False)
            torch.cuda.synchronize()
            print(json.dumps(dict(op=name, what=f"#{i + 1}", events_us=events_us(m),
                                  n=len(m.headline_ns))), flush=True)
        time.sleep(0.15)


def channels(injection, out_path):
    with tempfile.TemporaryDirectory() as tmp:
        records = os.path.join(tmp, "channels.txt")
        env = dict(os.environ, CUDA_INJECTION64_PATH=os.path.abspath(injection),
                   KERNTIME_CHANNEL_READER_OUT=records)
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "channels"],
                              capture_output=True, text=True, env=env)
        if done.returncode != 0:
            print("channels failed:", done.stderr[-1500:])
            return 1
        measured = [json.loads(t) for t in done.stdout.splitlines() if t.startswith("{")]
        summaries = measurement_channels(records, len(measured))
    with open(out_path, "w") as out:
        for m, summary in zip(measured, summaries):
            r = dict(m, **summary)
            out.write(json.dumps(r) + "\n")
            print(f"{r['op']:10s} {r['what']:4s} events {r['events_us']:8.2f} n={r['n']:3d} "
                  f"gap {r['gap_us'] or 0:5.2f} ({r['pairs']} pairs) memset ch {r['memset_channels']} "
                  f"kernel ch {r['kernel_channels']} flush ch {r['flush_channels']}", flush=True)
    if len(summaries) < len(measured):
        print(f"channels: {len(summaries)} record groups for {len(measured)} measurements")
    return 0


def line(rep: int, pipeline: str, variant: str, r: dict) -> str:
    text = (f"{rep} {pipeline:7s} {variant:16s} {r['what']:12s} {r['us']:8.2f} "
            f"sum {r['sum_us']:7.2f} gap {r['gap_us'] or 0:5.2f} n={r['n']:3d} "
            f"clk {r['clock'] or 0:.0f}")
    if "reader_memset" in r:
        text += (f"  reader memset {r['reader_memset']:.2f} gap {r['reader_gap']:.2f} "
                 f"kernel {r['reader_kernel']:.2f} span {r['reader_span']:.2f}")
    return text


def relay(child_args, out_path, show, mode="w") -> int:
    """Runs this script with `child_args` in a fresh process; when it succeeds, writes its JSON
    lines to `out_path` (opened with `mode`) and prints show(row) for each. 1, with the child's
    error, when it failed."""
    done = subprocess.run([sys.executable, os.path.abspath(__file__)] + child_args,
                          capture_output=True, text=True)
    if done.returncode != 0:
        print(" ".join(child_args), "failed:", done.stderr[-1500:])
        return 1
    with open(out_path, mode) as out:
        for text in done.stdout.splitlines():
            if text.startswith("{"):
                out.write(text + "\n")
                print(show(json.loads(text)), flush=True)
    return 0


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "profiler-sequence":
        profiler_sequence()
        profiler_sequence(external=True)
        return 0
    if sys.argv[1] == "--pointers":
        pointer_sequence()
        return 0
    if sys.argv[1] == "--profiler-sequence":
        if len(sys.argv) < 3:
            print("usage: order_probe.py --profiler-sequence OUT.jsonl", file=sys.stderr)
            return 2
        return relay(["profiler-sequence"], sys.argv[2], lambda r: (
            f"{r['variant']} {r['what']:4s} memset {r['reader_memset']:.2f} gap "
            f"{r['reader_gap']:.2f} kernel {r['reader_kernel']:.2f} span "
            f"{r['reader_span']:.2f}"))
    if sys.argv[1] == "placement":
        placement(sys.argv[2] if len(sys.argv) > 2 else "reduction")
        return 0
    if sys.argv[1] == "--python-memset":
        python_memset_sequence()
        return 0
    if sys.argv[1] == "--reduction-variants":
        reduction_variants()
        return 0
    if sys.argv[1] == "channels":
        channels_child()
        return 0
    if sys.argv[1] == "--channels":
        return channels(sys.argv[2], sys.argv[3])
    if sys.argv[1] in SEQUENCES:
        sequence(sys.argv[1])
        return 0
    if sys.argv[1] == "--sequence":
        pipeline = os.environ.get("KERNTIME_ENGINE_PIPELINE", "overlap")
        open(sys.argv[2], "w").close()  # one file for the three kinds, made even if all fail
        for kind in SEQUENCES:
            relay([kind], sys.argv[2], lambda r, kind=kind: (
                line(0, pipeline, kind, r) + f"  events {r['events_us']:.2f}"), mode="a")
        return 0
    if sys.argv[1] == "--placement":
        op = sys.argv[3] if len(sys.argv) > 3 else "reduction"
        if len(sys.argv) < 3 or op not in ("reduction", "conv"):
            print("usage: order_probe.py --placement OUT.jsonl [reduction|conv]", file=sys.stderr)
            return 2
        pipeline = os.environ.get("KERNTIME_ENGINE_PIPELINE", "overlap")

        def show(r):
            text = line(0, pipeline, "placement", r)
            if "reader_sum" in r:
                text += f"  reader sum {r['reader_sum']:.2f} span {r['reader_span']:.2f}"
            return text

        return relay(["placement", op], sys.argv[2], show)
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
