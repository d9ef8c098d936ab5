# SPDX-License-Identifier: Apache-2.0
"""The channel reader's records (bench/run/channel_reader_injection.cpp) read back for
order_probe.py --channels and memset_period.py: one group per measurement, split at the idle GPU
between measurements, and each group's gap between a small memset and the kernel after it, with
the hardware channels of each part. Pure functions: tested without a GPU
(tests/support/workloads/order_probe_channels_test.py)."""

import statistics


def channel_records(path):
    """The reader's records in start order: dicts of kind, start, end, stream, channel, type."""
    rows = []
    with open(path) as f:
        for text in f:
            parts = text.rstrip("\n").split(" ", 7)
            if len(parts) < 8:
                continue
            rows.append(dict(kind=parts[0], start=int(parts[1]), end=int(parts[2]),
                             stream=int(parts[3]), channel=int(parts[4]), type=int(parts[5]),
                             bytes=int(parts[6]), name=parts[7]))
    rows.sort(key=lambda r: r["start"])
    return rows


def channel_groups(rows, idle_ns=60_000_000):
    """Records split where the GPU was idle for idle_ns: one group per measurement."""
    groups, last_end = [], None
    for r in rows:
        if last_end is None or r["start"] - last_end > idle_ns:
            groups.append([])
        groups[-1].append(r)
        last_end = r["end"] if last_end is None else max(last_end, r["end"])
    return groups


def channel_summary(group, small_memset=1 << 20):
    """Median gap inside the operation and the channels of its parts, for one measurement."""
    inside, memset_channels, kernel_channels, flush_channels = [], set(), set(), set()
    by_stream = {}
    for r in group:
        by_stream.setdefault(r["stream"], []).append(r)
    for stream_rows in by_stream.values():
        for a, b in zip(stream_rows, stream_rows[1:]):
            if a["kind"] == "memset" and a["bytes"] < small_memset and b["kind"] == "kernel":
                inside.append(b["start"] - a["end"])
                memset_channels.add((a["channel"], a["type"]))
                kernel_channels.add((b["channel"], b["type"]))
            elif a["kind"] == "kernel" and b["kind"] == "kernel" and "elementwise" in a["name"] \
                    and "elementwise" in b["name"]:
                inside.append(b["start"] - a["end"])
                kernel_channels.add((b["channel"], b["type"]))
        for r in stream_rows:
            if r["kind"] == "memset" and r["bytes"] >= small_memset:
                flush_channels.add((r["channel"], r["type"]))
    return dict(pairs=len(inside), gap_us=statistics.median(inside) / 1e3 if inside else None,
                memset_channels=sorted(memset_channels), kernel_channels=sorted(kernel_channels),
                flush_channels=sorted(flush_channels))


def measurement_channels(records_path, measurements):
    """channel_summary of each of the last `measurements` groups of the reader's records: the
    earlier groups are the operations' first calls before any measurement."""
    groups = [g for g in channel_groups(channel_records(records_path)) if len(g) > 20]
    return [channel_summary(g) for g in groups[-measurements:]] if measurements else []
