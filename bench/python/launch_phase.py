# SPDX-License-Identifier: Apache-2.0
"""Does the reduction's period count measurements or launches? (docs/order-history.md)

    python3 bench/python/launch_phase.py [EXTRA,...]

Every fourth events-only measurement of PyTorch's reduction (a memset, then the reduce kernel)
reads 0.5 to 1 us longer, all in the gap between the memset and the kernel, with the engine's L2
flush and not without it. What repeats could be a count of measurements (state the engine or
PyTorch sets up once per measurement) or a position in something the GPU's queue advances per
launch (a ring of launch parameters or commands, whose lines the flush has evicted). This probe
tells the two apart: it measures the reduction 12 times, 20 samples each, events only, and after
each measurement queues EXTRA tiny kernels (y.add_(1) on a one-element tensor) on the engine's
own stream, for EXTRA = 0, 1, 2 and 3 by default, in one process. If the slow measurements stay
at the same places for every EXTRA, the period counts measurements; if they move with EXTRA,
it follows the launches. One JSON line per measurement: the variant, its number and the median
event time in us.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from order_probe import events_us  # noqa: E402


def main() -> int:
    extras = [0, 1, 2, 3]
    if len(sys.argv) > 1:
        try:
            extras = [int(e) for e in sys.argv[1].split(",")]
        except ValueError:
            extras = []
        if not extras or min(extras) < 0:
            print("usage: launch_phase.py [EXTRA,...] (counts of extra launches, e.g. 0,1,2,3)",
                  file=sys.stderr)
            return 2
    import torch
    import kerntime

    kerntime.require_gpu()
    x = torch.randn(64 << 20, device="cuda")
    y = torch.zeros(1, device="cuda")
    engine = {}

    def reduction(x=x):
        # The engine makes its own stream current for a measurement: keep it, to launch on.
        stream = torch.cuda.current_stream()
        if stream != torch.cuda.default_stream():
            engine.setdefault("stream", stream)
        return x.sum()

    reduction()
    torch.cuda.synchronize()
    for extra in extras:
        for i in range(12):
            m = kerntime.measure(reduction, name="reduction", cupti=False, fixed_samples=20)
            print(json.dumps(dict(variant=f"{extra} launches between", what=f"#{i + 1}",
                                  n=len(m.headline_ns), events_us=events_us(m))), flush=True)
            if extra:
                with torch.cuda.stream(engine["stream"]):
                    for _ in range(extra):
                        y.add_(1)
                torch.cuda.synchronize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
