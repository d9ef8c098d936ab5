# SPDX-License-Identifier: Apache-2.0
"""The host's speed while a cost round's steps ran, from the ticks torch_step.py takes under
KERNTIME_STEP_TICKS=N: the same interpreter loop timed after every N steps.

A diagnostic, not a correction. The host probe (docs/run-cost-history.md, 2026-12-04) found the loop 1.6
times slower after the steps in the processes under the reader and under `kerntime run` than in
the bare ones, with CUDA idle: a tool's threads slow the program's own CPU work, and that is part
of what the tool costs. So step times must not be scaled by a tick taken inside the tool's
process, which would scale that cost away; what the ticks show is how much slower each tool's
process runs plain interpreter work than the bare process of the same round, and how closely a
process's step time follows its host's speed from block to block.
"""

from __future__ import annotations

import statistics
from typing import Sequence


def median_tick(blocks: Sequence[Sequence[float]]) -> float:
    """A process's median tick over its blocks, ms."""
    return statistics.median(tick for _, tick in blocks)


def spread(values: Sequence[float]) -> float:
    """Interquartile range over the median: how far processes of one arm differ."""
    if len(values) < 2:
        return 0.0
    low, _, high = statistics.quantiles(values, n=4, method="inclusive")
    return (high - low) / statistics.median(values)

