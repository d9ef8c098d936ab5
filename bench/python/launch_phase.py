# SPDX-License-Identifier: Apache-2.0
"""What does the reduction's period count? (docs/order-history.md)

    python3 bench/python/launch_phase.py [SEQUENCE ...]

Every fourth events-only measurement of PyTorch's reduction (a memset, then the reduce kernel)
reads 0.5 to 1 us longer, all in the gap between the memset and the kernel, with the engine's L2
flush and not without it, at the same places whether the measurements are 50 or 150 ms apart.
Each sequence here measures the reduction 12 times (20 samples each, events only) in one
process and changes one thing between its measurements:

  launches-N      N tiny kernels (y.add_(1) on one element) queued on the engine's own stream:
                  the slow places move with N if the period follows launches on that stream
                  (a ring of launch parameters or commands)
  measurements-K  K measurements of that tiny kernel: the slow places move with K if the period
                  counts the process's measurements of anything
  fresh-engine    a new kerntime.Engine for every measurement (a new stream, events, flush
                  buffer and blocking-kernel control block): the period goes if it lives in
                  the engine's per-device resources

Default: launches-0 launches-1 launches-2 launches-3 measurements-1 measurements-2
measurements-3 fresh-engine. One JSON line per measurement: the sequence, its number, the count
of samples and the median event time in us.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from order_probe import events_us  # noqa: E402

DEFAULT = ["launches-0", "launches-1", "launches-2", "launches-3", "measurements-1",
           "measurements-2", "measurements-3", "fresh-engine"]


def parse(sequence):
    """(kind, count) of a sequence's name, or None when it names none."""
    kind, _, count = sequence.rpartition("-")
    if sequence == "fresh-engine":
        return "fresh-engine", 0
    if kind in ("launches", "measurements") and count.isdigit():
        return kind, int(count)
    return None


def main() -> int:
    sequences = sys.argv[1:] or DEFAULT
    unknown = [s for s in sequences if parse(s) is None]
    if unknown:
        print(f"launch_phase.py: unknown sequence {unknown[0]}; known: launches-N, "
              f"measurements-K, fresh-engine", file=sys.stderr)
        return 2
    import torch
    import kerntime
    from kerntime import _process

    kerntime.require_gpu()
    x = torch.randn(64 << 20, device="cuda")
    y = torch.zeros(1, device="cuda")
    engine = {}

    def reduction(x=x):
        # The engine makes its own stream current for a measurement: keep it, to launch on.
        stream = torch.cuda.current_stream()
        if stream != torch.cuda.default_stream():
            engine["stream"] = stream
        return x.sum()

    def tiny(y=y):
        return y.add_(1)

    reduction()
    tiny()
    torch.cuda.synchronize()
    for sequence in sequences:
        kind, count = parse(sequence)
        for i in range(12):
            if kind == "fresh-engine":
                _process._engine = None  # the next measure() makes a new Engine
            m = kerntime.measure(reduction, name="reduction", cupti=False, fixed_samples=20)
            print(json.dumps(dict(variant=sequence, what=f"#{i + 1}", n=len(m.headline_ns),
                                  events_us=events_us(m))), flush=True)
            if kind == "launches" and count:
                with torch.cuda.stream(engine["stream"]):
                    for _ in range(count):
                        tiny()
                torch.cuda.synchronize()
            for _ in range(count if kind == "measurements" else 0):
                kerntime.measure(tiny, name="tiny", cupti=False, fixed_samples=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
