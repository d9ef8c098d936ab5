# SPDX-License-Identifier: Apache-2.0
"""Where a process's CPU went while it ran its steps: each thread's CPU time and its time waiting
for a CPU (the scheduler's run queue), from /proc/self/task/*/schedstat, which counts both in
nanoseconds. A tool that costs a program no work on the program's threads can still cost it steps
by taking the CPUs those threads wait for; the wait column shows that, the CPU column the work.

    before = thread_cpu.snapshot(); ...steps...; thread_cpu.per_step(before, snapshot(), steps)
gives {group: [CPU us a step, wait us a step, threads]}, where a group is "main" for the process's
first thread and the thread's name (its comm) for the others: kerntime names its threads
kerntime-read and kerntime-work."""
import os


def snapshot():
    """{tid: (name, cpu_ns, wait_ns)} of every thread of this process now."""
    threads = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                cpu, wait = (int(v) for v in f.read().split()[:2])
        except (OSError, ValueError):
            continue  # the thread ended meanwhile, or the kernel keeps no schedstat
        threads[int(tid)] = (name, cpu, wait)
    return threads


def per_step(before, after, steps):
    """What each group of threads took between two snapshots, per step, in us. A thread started
    between them counts from zero; one that ended is missing (its time is lost)."""
    pid = os.getpid()
    groups = {}
    for tid, (name, cpu, wait) in after.items():
        _, cpu0, wait0 = before.get(tid, (name, 0, 0))
        group = groups.setdefault("main" if tid == pid else name, [0.0, 0.0, 0])
        group[0] += (cpu - cpu0) / 1e3 / max(steps, 1)
        group[1] += (wait - wait0) / 1e3 / max(steps, 1)
        group[2] += 1
    return {name: [round(g[0], 2), round(g[1], 2), g[2]] for name, g in sorted(groups.items())}
