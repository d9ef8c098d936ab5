# SPDX-License-Identifier: Apache-2.0
"""Telling apart the calls of a torch.profiler reference (no torch needed: tested on the CPU).

Each reference call is launched as a marker kernel, then the L2 flush, then the call, as the
engine queues a sample (its blocking kernel, its flush, the call); so after each marker the
first activity is the flush, left out, and the rest until the next marker are the call's. A call
whose own kernel has the marker's name (a spin measured against itself) stays the call's: a
marker opens the next call only once the current one has an activity of its own."""

from __future__ import annotations

from typing import List, Sequence, Tuple

MARKER = "kerntime_bench_spin"
Activity = Tuple[int, int, str]  # start ns, end ns, name


def calls_of(events: Sequence[Activity], calls: int, flushed: bool) -> List[List[Activity]]:
    """Each call's activities from the profiler's GPU activities `events` (by start time) of
    `calls` reference calls; with `flushed`, the flush after each marker is checked (a fill or
    memset) and dropped. Raises ValueError when the events are not in that order."""
    head = 1 if flushed else 0  # the activities after a marker that are not the call's
    groups: List[List[Activity]] = []
    for event in events:
        opens = MARKER in event[2] and len(groups) < calls and (not groups or
                                                                len(groups[-1]) > head)
        if opens:
            groups.append([])
        elif groups:
            groups[-1].append(event)
    if flushed:
        for number, group in enumerate(groups, 1):
            name = group[0][2].lower() if group else ""
            if "fill" not in name and "memset" not in name:
                raise ValueError(f"call {number}: expected the L2 flush after its marker, got "
                                 f"{group[0][2] if group else 'nothing'}")
    return [group[head:] for group in groups if len(group) > head]


def spans_ns(groups: Sequence[Sequence[Activity]]) -> List[float]:
    """Each call's span, from its first activity's start to its last one's end (ns)."""
    return [float(max(e for _, e, _ in g) - min(s for s, _, _ in g)) for g in groups]


def sums_ns(groups: Sequence[Sequence[Activity]]) -> List[float]:
    """Each call's activities' own durations added, gaps left out (ns)."""
    return [float(sum(e - s for s, e, _ in g)) for g in groups]
