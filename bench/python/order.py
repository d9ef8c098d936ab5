# SPDX-License-Identifier: Apache-2.0
"""Does what ran before change what kerntime.measure reads? The order benchmark (issue 28).

    python bench/python/order.py [--out FILE] [--pause S] [--ops a,b,...] [--separate]
                                 [--alone called,allocated,bare] [--repeat N]
    python bench/python/order.py --summarize FILE

Nine operations of different character (GEMM, attention, a reduction, elementwise, a norm, a
softmax, a cuDNN convolution, a Triton kernel, a copy) are measured with kerntime.measure (cold,
CUPTI headline, defaults):
  alone-called  each in a fresh process of its own, the only thing that process measures;
              like every order's process, it first makes every operation of the orders and
              calls each once, in one fixed order (order 1's, then gemm2), so that all these
              processes hold the same tensors and temporaries in the same places and differ
              only in what they measured (the target's reference; where memory lies moves the
              convolution by about 1 %, docs/order-history.md);
  alone       every operation made (the measured one first), only the measured one called;
  alone-bare  only the measured operation made and called: where memory lies, not what ran
              (--alone takes any of called, allocated, bare, comma-separated; called by
              default; the target is judged against the first of alone-called, alone,
              alone-bare that ran);
  --repeat N  every alone process and every order N times, interleaved; each figure is then the
              median of its N processes (a process's own level, about 1 % for the convolution
              by either reader, is not what the target asks about);
  order 1-3   all nine in one process, in three different orders, after the same
              preparation as alone-called;
  after-heat  softmax, a reduction, a norm and a copy, each right after 2 s of back-to-back
              8192^3 GEMMs (the GPU at its power limit).
An independent reader, torch.profiler, then measures the same sequence in the same process
(kerntime's CUPTI released first; --separate: in processes of its own), with the same cold
protocol: an L2-sized memset before every call, each call queued behind a 50 us spin so that
no launch gap enters it. Its figure per call is the sum of the call's kernel and copy durations and the span
from the first start to the last end; the medians of 200 calls are printed.

For each kerntime measurement the script also keeps what the GPU reported around it: the
engine's median SM clock per sample, and NVML's SM and memory clocks, power, temperature and
clock-event reasons just before and just after it (libnvidia-ml through ctypes).

Printed: per operation, kerntime alone and in each order, the deviation from alone, and the
reader's figures; the largest deviation in the three orders against the target max(1 %,
0.25 us). After heat the GPU itself runs slower (its power state), so there a deviation beyond
the target must be marked by the engine instead: NVML's slowed samples with their reason, or
the reduced-clock warning. Exit 1 when the target is missed or a deviation after heat is not
marked.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Callable, Dict, List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from order_report import summarize  # noqa: E402

ORDERS = {
    "order1": ["gemm", "softmax", "attention", "conv", "reduction", "norm", "triton", "copy",
               "elementwise"],
    "order2": ["elementwise", "copy", "triton", "norm", "reduction", "conv", "attention",
               "softmax", "gemm"],
    "order3": ["conv", "gemm", "copy", "attention", "softmax", "elementwise", "gemm2", "norm",
               "triton", "reduction"],
    # The case, heavier: softmax and others right after 3 s of back-to-back GEMMs.
    "after-heat": ["heat", "softmax", "heat", "reduction", "heat", "norm", "heat", "copy"],
}
HEAT_S = 2.0
OPS = ["gemm", "attention", "reduction", "elementwise", "norm", "softmax", "conv", "triton", "copy"]
CALLS = 200


# ---- NVML, through ctypes: what the GPU says about its clocks and power ----------------------

class Nvml:
    SM, MEM = 1, 2  # nvmlClockType_t

    def __init__(self, index: int) -> None:
        self.lib = None
        try:
            lib = ctypes.CDLL("libnvidia-ml.so.1")
            if lib.nvmlInit_v2() != 0:
                return
            handle = ctypes.c_void_p()
            if lib.nvmlDeviceGetHandleByIndex_v2(index, ctypes.byref(handle)) != 0:
                return
            self.lib, self.handle = lib, handle
        except OSError:
            pass

    def read(self) -> Dict[str, float]:
        if self.lib is None:
            return {}
        out: Dict[str, float] = {}
        value = ctypes.c_uint()
        for key, clock in (("sm_mhz", self.SM), ("mem_mhz", self.MEM)):
            if self.lib.nvmlDeviceGetClockInfo(self.handle, clock, ctypes.byref(value)) == 0:
                out[key] = value.value
        if self.lib.nvmlDeviceGetPowerUsage(self.handle, ctypes.byref(value)) == 0:
            out["power_w"] = value.value / 1000
        if self.lib.nvmlDeviceGetTemperature(self.handle, 0, ctypes.byref(value)) == 0:
            out["temp_c"] = value.value
        reasons = ctypes.c_ulonglong()
        for call in ("nvmlDeviceGetCurrentClocksEventReasons",
                     "nvmlDeviceGetCurrentClocksThrottleReasons"):
            if hasattr(self.lib, call):
                if getattr(self.lib, call)(self.handle, ctypes.byref(reasons)) == 0:
                    out["reasons"] = reasons.value
                break
        return out


# ---- the operations ------------------------------------------------------------------------

def make_ops(names: List[str]) -> Dict[str, Callable[[], object]]:
    import torch
    import torch.nn.functional as F

    torch.backends.cudnn.benchmark = False
    dev = "cuda"
    ops: Dict[str, Callable[[], object]] = {}
    for name in names:
        base = name.rstrip("0123456789")
        if base == "heat":
            a = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)

            def heat(a=a):  # back-to-back GEMMs for HEAT_S: the GPU at its power limit
                end = time.perf_counter() + HEAT_S
                while time.perf_counter() < end:
                    for _ in range(20):
                        torch.matmul(a, a)
                    torch.cuda.synchronize()

            ops[name] = heat
        elif base == "gemm":
            a = torch.randn(4096, 4096, device=dev, dtype=torch.bfloat16)
            b = torch.randn(4096, 4096, device=dev, dtype=torch.bfloat16)
            ops[name] = lambda a=a, b=b: torch.matmul(a, b)
        elif base == "attention":
            q, k, v = (torch.randn(8, 16, 2048, 128, device=dev, dtype=torch.bfloat16)
                       for _ in range(3))
            ops[name] = lambda q=q, k=k, v=v: F.scaled_dot_product_attention(q, k, v, is_causal=True)
        elif base == "reduction":
            x = torch.randn(64 << 20, device=dev)
            ops[name] = lambda x=x: x.sum()
        elif base == "elementwise":
            x, y = torch.randn(64 << 20, device=dev), torch.randn(64 << 20, device=dev)
            out = torch.empty_like(x)
            ops[name] = lambda x=x, y=y, out=out: torch.mul(x, y, out=out)
        elif base == "norm":
            x = torch.randn(8192, 4096, device=dev, dtype=torch.float16)
            w = torch.randn(4096, device=dev, dtype=torch.float16)
            ops[name] = lambda x=x, w=w: F.layer_norm(x, (4096,), w, w)
        elif base == "softmax":
            x = torch.randn(8192, 8192, device=dev, dtype=torch.float16)
            ops[name] = lambda x=x: torch.softmax(x, dim=-1)
        elif base == "conv":
            x = torch.randn(32, 64, 56, 56, device=dev, dtype=torch.float16)
            w = torch.randn(128, 64, 3, 3, device=dev, dtype=torch.float16)
            ops[name] = lambda x=x, w=w: F.conv2d(x, w, padding=1)
        elif base == "triton":
            x = torch.randn(8192, 8192, device=dev, dtype=torch.float16)
            out = torch.empty(8192, device=dev, dtype=torch.float32)
            ops[name] = lambda x=x, out=out: _row_sums[(8192,)](x, out, 8192, BLOCK=8192)
        elif base == "copy":
            src = torch.randn(64 << 20, device=dev)
            dst = torch.empty_like(src)
            ops[name] = lambda src=src, dst=dst: dst.copy_(src)
        else:
            raise SystemExit(f"order.py: unknown operation {name}")
    return ops


def _define_triton():
    import triton
    import triton.language as tl

    @triton.jit
    def kerntime_order_row_sums(x, out, n, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        i = tl.arange(0, BLOCK)
        v = tl.load(x + row * n + i, mask=i < n, other=0.0).to(tl.float32)
        tl.store(out + row, tl.sum(v, axis=0))

    return kerntime_order_row_sums


_row_sums = None


# ---- the two readers -----------------------------------------------------------------------

def measured(ops: Dict[str, Callable[[], object]], names: List[str], pause: float,
             warm: Optional[List[str]] = None):
    """The names a reader measures, in order: every one of them (or of `warm`) is called once
    first (compiled, autotuned, allocated), "heat" runs where the sequence has it, `pause` idles
    before each."""
    import torch

    for name in dict.fromkeys(warm or names):
        if name != "heat":
            ops[name]()
    torch.cuda.synchronize()
    for name in names:
        if name == "heat":
            ops[name]()
            continue
        if pause:
            time.sleep(pause)
        yield name


def kerntime_pass(ops: Dict[str, Callable[[], object]], names: List[str],
                  pause: float, warm: Optional[List[str]] = None) -> List[dict]:
    import torch
    import kerntime

    nvml = Nvml(torch.cuda.current_device())
    rows = []
    for name in measured(ops, names, pause, warm):
        before = nvml.read()
        started = time.perf_counter()
        m = kerntime.measure(ops[name], name=name)
        wall = time.perf_counter() - started
        after = nvml.read()
        clocks = [s.sm_clock_mhz for s in m.samples if s.sm_clock_mhz]
        gaps = [s.cupti_ns - s.cupti_sum_ns for s in m.samples
                if s.valid and s.cupti_ns is not None and s.cupti_sum_ns is not None]
        rows.append(dict(
            op=name, reader="kerntime", us=m.median_ns / 1e3, timer=m.headline_timer,
            sum_us=(m.median_cupti_sum_ns or 0) / 1e3,
            gap_us=statistics.median(gaps) / 1e3 if gaps else None,
            samples=len(m.headline_ns), wall_s=wall, sm_clock=m.median_sm_clock_mhz,
            sm_clock_first=clocks[:3], sm_clock_last=clocks[-3:],
            first_us=[x / 1e3 for x in m.headline_ns[:3]], last_us=[x / 1e3 for x in m.headline_ns[-3:]],
            nvml_before=before, nvml_after=after, warnings=list(m.warnings),
            slowed=m.slowed_samples, reasons=m.clock_event_reasons, power_w=m.median_power_w))
    return rows


class ProfiledCalls:
    """torch.profiler's cold protocol: each call queued behind a 50 us spin, after an L2-sized
    memset, so that no launch gap and no warm L2 enters it."""

    def __init__(self) -> None:
        import torch

        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from _common import spin

        self.gap = spin(50_000)
        l2 = torch.cuda.get_device_properties(torch.cuda.current_device()).L2_cache_size
        self.flush = torch.empty(l2, dtype=torch.uint8, device="cuda")

    def __call__(self, fn: Callable[[], object], calls: int = CALLS) -> List[List[tuple]]:
        """Each call's GPU activities, (start, end, name) in ns, the flush left out."""
        import torch
        from torch.profiler import ProfilerActivity, profile
        from _common import profiler_gpu_events

        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for i in range(calls):
                self.gap()
                self.flush.fill_(i & 0xFF)
                fn()
            torch.cuda.synchronize()
        grouped: List[List[tuple]] = []
        for start, end, kernel in profiler_gpu_events(prof):
            if "kerntime_bench_spin" in kernel:
                grouped.append([])
            elif grouped:
                grouped[-1].append((start, end, kernel))
        # Each call: the flush first, then the operation's work.
        return [c[1:] for c in grouped if len(c) > 1]


def profiler_pass(ops: Dict[str, Callable[[], object]], names: List[str],
                  pause: float, warm: Optional[List[str]] = None) -> List[dict]:
    profiled = ProfiledCalls()
    rows = []
    for name in measured(ops, names, pause, warm):
        work = profiled(ops[name])
        sums = [sum(e - s for s, e, _ in c) for c in work]
        spans = [max(e for _, e, _ in c) - min(s for s, _, _ in c) for c in work]
        rows.append(dict(op=name, reader="torch.profiler", us=statistics.median(sums) / 1e3,
                         span_us=statistics.median(spans) / 1e3, calls=len(work),
                         kernels_per_call=statistics.median(len(c) for c in work),
                         kernels=sorted({k for c in work for _, _, k in c})[:4]))
    return rows


def child(args) -> int:
    global _row_sums
    _row_sums = _define_triton()
    names = args.ops.split(",")
    # Both readers measure the same tensors: where memory lies is part of what a kernel reads.
    made = args.make.split(",") if args.make else names
    # With --warm, every process makes and calls the same operations in the same order (the
    # measured ones after, if missing), so that their memory lies alike; without, the measured
    # ones are made first and only they are called.
    warm = list(dict.fromkeys(args.warm.split(",") + names)) if args.warm else None
    ops = make_ops(list(dict.fromkeys(made + names if warm else names + made)))
    rows = []
    if args.reader in ("kerntime", "both"):
        rows += kerntime_pass(ops, names, args.pause, warm)
    if args.reader == "both":
        import kerntime

        kerntime.release_tracer()  # CUPTI to torch.profiler
    if args.reader in ("torch.profiler", "both"):
        rows += profiler_pass(ops, names, args.pause, warm)
    for row in rows:
        print(json.dumps(row))
    return 0


# ---- the driver ----------------------------------------------------------------------------

ALONE_RUNS = {"called": "alone-called", "allocated": "alone", "bare": "alone-bare"}


def alone_kinds(text: str) -> List[str]:
    """--alone's value as run names: "called,bare" -> ["alone-called", "alone-bare"]."""
    words = [w.strip() for w in text.split(",") if w.strip()]
    if not words or any(w not in ALONE_RUNS for w in words):
        raise argparse.ArgumentTypeError(
            f"--alone takes {', '.join(ALONE_RUNS)} (comma-separated), not {text!r}")
    return [ALONE_RUNS[w] for w in dict.fromkeys(words)]


def run_child(reader: str, names: List[str], pause: float = 0.0,
              make: Optional[List[str]] = None, warm: Optional[List[str]] = None) -> List[dict]:
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--reader", reader,
           "--ops", ",".join(names), "--pause", str(pause), "--make", ",".join(make or names),
           "--warm", ",".join(warm or [])]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"order.py: {reader} {names}: exit {done.returncode}: {done.stderr[-1500:]}")
    return [json.loads(l) for l in done.stdout.splitlines() if l.startswith("{")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--reader", default="kerntime", help=argparse.SUPPRESS)
    parser.add_argument("--make", default="", help=argparse.SUPPRESS)
    parser.add_argument("--warm", default="", help=argparse.SUPPRESS)
    parser.add_argument("--alone", default="called", type=alone_kinds,
                        help="the alone references, comma-separated: called (every operation of "
                             "the orders made and called once, the target's reference), "
                             "allocated (made, only the measured one called), bare (only it "
                             "made); default: called")
    parser.add_argument("--ops", default=",".join(OPS), help="operations (default: all nine)")
    parser.add_argument("--pause", type=float, default=0.0,
                        help="seconds of idle before each measurement in an order")
    parser.add_argument("--out", help="write every row as JSON lines here")
    parser.add_argument("--separate", action="store_true",
                        help="the reader in processes of its own (default: after kerntime in the "
                             "same process, on the same sequence)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run every alone process and every order N times; figures are medians")
    parser.add_argument("--summarize", metavar="JSONL", help="only print the summary of a saved run")
    args = parser.parse_args()
    if args.child:
        return child(args)

    names = args.ops.split(",")
    orders = {k: [n for n in v if n.rstrip("0123456789") in names or n == "heat"]
              for k, v in ORDERS.items()}
    rows: List[dict] = []
    if args.summarize:
        with open(args.summarize) as f:
            rows = [json.loads(line) for line in f if line.startswith("{")]
        orders = {k: v for k, v in orders.items() if any(r["run"] == k for r in rows)}
    else:
        out = open(args.out, "w") if args.out else None
        readers = ["kerntime", "torch.profiler"] if args.separate else ["both"]
        # The heated order and what it needs first: a run cut short still answers it.
        heated = [n for n in orders.get("after-heat", []) if n != "heat"]
        kinds = args.alone
        every = list(dict.fromkeys(n for k, v in orders.items() if k != "after-heat" for n in v))
        alone = [(kind, [n]) for n in heated for kind in kinds] + \
            [(kind, [n]) for n in names if n not in heated for kind in kinds]
        per_op = len(kinds)
        first = per_op * len(heated)
        plan = alone[:first] + [(k, v) for k, v in orders.items() if k == "after-heat"] + \
            alone[first:] + [(k, v) for k, v in orders.items() if k != "after-heat"]
        # Repetitions interleave whole rounds, so that a drift of the GPU's state over the run
        # falls on every configuration alike; the heated order runs once.
        rounds = [(r, run, sequence) for r in range(max(1, args.repeat))
                  for run, sequence in plan if r == 0 or run != "after-heat"]
        for r, run, sequence in rounds:
            # alone-called and the orders: one preparation, in one order; alone: made, not
            # called; alone-bare: only its own.
            make = sequence if run == "alone-bare" else every
            warm = None if run in ("alone", "alone-bare") else every
            for reader in readers:
                for row in run_child(reader, sequence,
                                     0.0 if run.startswith("alone") else args.pause, make, warm):
                    rows.append(dict(row, run=run, rep=r))
                    if out:  # as they come: a run cut short keeps what it measured
                        out.write(json.dumps(rows[-1]) + "\n")
                        out.flush()

    return summarize(rows, names, orders, args.pause)

if __name__ == "__main__":
    sys.exit(main())
