# SPDX-License-Identifier: Apache-2.0
"""Where a process's CPU went while it ran its steps: each thread's CPU time and its time waiting
for a CPU (the scheduler's run queue), from /proc/self/task/*/schedstat, which counts both in
nanoseconds. A tool that costs a program no work on the program's threads can still cost it steps
by taking the CPUs those threads wait for; the wait column shows that, the CPU column the work.

Beside them, each thread's context switches and minor page faults (/proc), which do not move
with the host's speed: a tool that makes the program's threads block or fault shows there.

    before = thread_cpu.snapshot(); ...steps...; thread_cpu.per_step(before, snapshot(), steps)
gives {group: [CPU us a step, wait us a step, threads, {count: per step}]}, where a group is
"main" for the process's first thread and the thread's name (its comm) for the others: kerntime
names its threads kerntime-read and kerntime-work."""
import os


def _proc_counts(tid):
    """Context switches (voluntary, involuntary) and minor page faults of thread `tid`."""
    out = {}
    with open(f"/proc/self/task/{tid}/status") as f:
        for line in f:
            if line.startswith("voluntary_ctxt_switches:"):
                out["voluntary_switches"] = float(line.split()[1])
            elif line.startswith("nonvoluntary_ctxt_switches:"):
                out["involuntary_switches"] = float(line.split()[1])
    with open(f"/proc/self/task/{tid}/stat") as f:
        # The fields after the name, which may hold spaces, in parentheses; minflt is field 10.
        out["minor_faults"] = float(f.read().rsplit(")", 1)[1].split()[7])
    return out


def snapshot():
    """{tid: (name, cpu_ns, wait_ns, {count: value})} of every thread of this process now."""
    threads = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                cpu, wait = (int(v) for v in f.read().split()[:2])
            extra = _proc_counts(tid)
        except (OSError, ValueError, IndexError):
            continue  # the thread ended meanwhile, or the kernel keeps no schedstat
        threads[int(tid)] = (name, cpu, wait, extra)
    return threads


def per_step(before, after, steps):
    """What each group of threads took between two snapshots, per step: CPU and wait in us, the
    counts in their own units. A thread started between them counts from zero; one that ended
    is missing (its time is lost). A count shows only where every thread of the group has it in
    both snapshots."""
    pid = os.getpid()
    groups = {}
    per = max(steps, 1)
    for tid, (name, cpu, wait, *rest) in after.items():
        extra = rest[0] if rest else {}
        _, cpu0, wait0, *rest0 = before.get(tid, (name, 0, 0))
        extra0 = rest0[0] if rest0 else ({} if tid in before else dict.fromkeys(extra, 0.0))
        group = groups.setdefault("main" if tid == pid else name, [0.0, 0.0, 0, {}, set()])
        group[0] += (cpu - cpu0) / 1e3 / per
        group[1] += (wait - wait0) / 1e3 / per
        group[2] += 1
        for count in set(extra) | set(extra0) | group[4]:
            if count in extra and count in extra0 and count not in group[4]:
                group[3][count] = group[3].get(count, 0.0) + (extra[count] - extra0[count]) / per
            else:
                group[4].add(count)
                group[3].pop(count, None)
    return {name: [round(g[0], 2), round(g[1], 2), g[2], {k: round(v, 2)
                                                           for k, v in sorted(g[3].items())}]
            for name, g in sorted(groups.items())}
