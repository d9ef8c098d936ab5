#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A memset then a kernel, measured 12 times per process, in four modes (docs/order-history.md).

    python3 bench/scripts/memset_period.py PROGRAM [INJECTION] [MODE,...]

Runs PROGRAM (build/<preset>/bench/accuracy/memset_period) once per mode (default: default,
fixed, no-flush, kernel), each a fresh process, and prints per measurement its median event time
and, with INJECTION (build/<preset>/bench/run/libkerntime_channel_reader_injection.so), the
memset-to-kernel gap and the hardware channels from that independent CUPTI reader. Then, per
mode, the measurements whose event time stands out: more than 0.5 us above the mode's median. In
PyTorch the 3rd, 7th and 11th stood out by about 1 us; a mode in which none do removed the cause.
"""
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODES = ["default", "fixed", "no-flush", "kernel"]
STANDS_OUT_NS = 500.0


def _order_probe():
    spec = importlib.util.spec_from_file_location(
        "order_probe", os.path.join(ROOT, "bench", "python", "order_probe.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def standing_out(rows):
    """The measurement numbers whose event time is STANDS_OUT_NS above the median of the rows."""
    middle = statistics.median(r["events_ns"] for r in rows)
    return [r["measurement"] for r in rows if r["events_ns"] - middle > STANDS_OUT_NS]


def run_mode(program, mode, injection):
    """The program's rows for one mode, each with the reader's gap and channels when injected."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        records = os.path.join(tmp, "channels.txt")
        if injection:
            env.update(CUDA_INJECTION64_PATH=os.path.abspath(injection),
                       KERNTIME_CHANNEL_READER_OUT=records)
        done = subprocess.run([program, mode], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise RuntimeError(f"{mode}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
        rows = [json.loads(t) for t in done.stdout.splitlines() if t.startswith("{")]
        if injection and os.path.exists(records):
            for row, summary in zip(rows, _order_probe().measurement_channels(records, len(rows))):
                row.update(summary)
    return rows


def line(row):
    text = f"{row['mode']:8s} #{row['measurement']:<3d} events {row['events_ns'] / 1e3:8.3f} us " \
           f"n={row['samples']:3d}"
    if "gap_us" in row:
        text += (f"  gap {row['gap_us'] or 0:5.2f} us ({row['pairs']} pairs) memset ch "
                 f"{row['memset_channels']} kernel ch {row['kernel_channels']}")
    return text


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    program = argv[0]
    injection = argv[1] if len(argv) > 1 and argv[1] else None
    modes = argv[2].split(",") if len(argv) > 2 else MODES
    verdicts = []
    for mode in modes:
        try:
            rows = run_mode(program, mode, injection)
        except RuntimeError as e:
            print(f"memset_period: {e}", file=sys.stderr)
            continue
        for row in rows:
            print(line(row), flush=True)
        if rows:
            verdicts.append(f"{mode}: measurements more than {STANDS_OUT_NS / 1e3:.1f} us above "
                            f"the median: {standing_out(rows) or 'none'}")
    for v in verdicts:
        print(v)
    return 0 if verdicts else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
