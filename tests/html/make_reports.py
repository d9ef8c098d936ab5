#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Synthetic kerntime reports for the HTML pages' tests: a report of many entries and samples
(the size bound), a history of reports with a planted step (the trend page), and a baseline and
candidate with planted changes (the compare page). Seeded: the same files every time.

  make_reports.py big OUT.json [--entries 1000] [--samples 1000000]
  make_reports.py trend FOLDER [--points 10] [--step-at 6] [--factor 1.10]
  make_reports.py pair BASE.json CAND.json
"""
import argparse
import json
import math
import os
import random

ENVIRONMENT = {
    "host": "ci-runner",
    "driver_version": "13.0",
    "driver_version_raw": 13000,
    "runtime_version": "13.0",
    "runtime_version_raw": 13000,
    "devices": [{"index": 0, "name": "NVIDIA H200", "compute_capability_major": 9,
                 "compute_capability_minor": 0, "multiprocessor_count": 132,
                 "total_memory_bytes": 150754820096, "l2_cache_bytes": 62914560,
                 "sm_clock_khz": 1980000, "memory_clock_khz": 3201000,
                 "memory_bus_width_bits": 6144, "ecc_enabled": True,
                 "pci_bus_id": "0000:19:00.0"}],
}

KERNEL_NAMES = [
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<"
    "at::native::AddFunctor<float>>(at::TensorIteratorBase&, at::native::AddFunctor<float> const&)"
    "::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::AddFunctor<float>>("
    "at::TensorIteratorBase&, at::native::AddFunctor<float> const&)::{lambda(int)#1})",
    "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_"
    "segment_k_off_kernel__5x_cublas",
    "saxpy", "reduce_sum<float, 256>", "transpose_tiled<32, 8>",
]


def report(entries, created="2026-12-03T12:00:00Z"):
    return {"schema": "kerntime-report/1", "tool": {"name": "kerntime", "version": "0.1.0"}, "created": created,
            "environment": ENVIRONMENT, "warnings": [], "entries": entries}


def entry(name, samples, runs=None):
    e = {"name": name, "unit": "ns", "timer": "cupti", "device": 0,
         "samples": [round(s, 3) for s in samples]}
    if runs and len(runs) > 1:
        e["runs"] = runs
    return e


def noisy(rng, level, count, noise=0.01):
    return [level * math.exp(rng.gauss(0.0, noise)) for _ in range(count)]


def big(args):
    rng = random.Random(args.seed)
    per = max(2, args.samples // args.entries)  # two runs of at least one sample each
    entries = []
    for i in range(args.entries):
        name = f"{KERNEL_NAMES[i % len(KERNEL_NAMES)]}/config={i}"
        level = 1000.0 * (1 + i % 97)
        if i % 7 == 0:  # bimodal: two clock states
            samples = noisy(rng, level, per // 2) + noisy(rng, level * 1.3, per - per // 2)
        else:
            samples = noisy(rng, level, per)
        entries.append(entry(name, samples, [per // 2, per - per // 2]))
    with open(args.out, "w") as f:
        json.dump(report(entries), f)


def trend(args):
    rng = random.Random(2)
    os.makedirs(args.folder, exist_ok=True)
    for old in os.listdir(args.folder):  # the points of an earlier call would join the trend
        if old.endswith(".json"):
            os.remove(os.path.join(args.folder, old))
    for p in range(args.points):
        entries = []
        for k, name in enumerate(KERNEL_NAMES):
            level = 2000.0 * (k + 1)
            if k == 1 and p >= args.step_at:
                level *= args.factor  # the planted step, in the GEMM
            if k == 3 and p >= args.step_at + 2:
                level *= 0.8  # a step down, two points later
            runs = []
            samples = []
            for _ in range(3):  # three processes, each with its own offset
                offset = math.exp(rng.gauss(0.0, 0.005))
                samples += noisy(rng, level * offset, 40)
                runs.append(40)
            entries.append(entry(name, samples, runs))
        created = f"2026-{1 + p // 28:02d}-{1 + p % 28:02d}T12:00:00Z"
        with open(os.path.join(args.folder, f"c{p:02d}.json"), "w") as f:
            json.dump(report(entries, created), f)


def pair(args):
    rng = random.Random(3)
    base, cand = [], []
    for k, name in enumerate(KERNEL_NAMES * 4):
        name = f"{name}/n={k}"
        level = 1500.0 * (k + 1)
        factor = 1.12 if k % 5 == 1 else (0.9 if k % 7 == 3 else 1.0)
        for side, f in ((base, 1.0), (cand, factor)):
            samples, runs = [], []
            for _ in range(5):
                offset = math.exp(rng.gauss(0.0, 0.004))
                samples += noisy(rng, level * f * offset, 30, 0.01)
                runs.append(30)
            side.append(entry(name, samples, runs))
    with open(args.base, "w") as f:
        json.dump(report(base), f)
    with open(args.cand, "w") as f:
        json.dump(report(cand, "2026-12-03T13:00:00Z"), f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    b = sub.add_parser("big")
    b.add_argument("out")
    b.add_argument("--entries", type=int, default=1000)
    b.add_argument("--samples", type=int, default=1_000_000)
    b.add_argument("--seed", type=int, default=1)
    t = sub.add_parser("trend")
    t.add_argument("folder")
    t.add_argument("--points", type=int, default=10)
    t.add_argument("--step-at", type=int, default=6)
    t.add_argument("--factor", type=float, default=1.10)
    p = sub.add_parser("pair")
    p.add_argument("base")
    p.add_argument("cand")
    args = parser.parse_args()
    {"big": big, "trend": trend, "pair": pair}[args.what](args)


if __name__ == "__main__":
    main()
