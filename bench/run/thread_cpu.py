# SPDX-License-Identifier: Apache-2.0
"""Where a process's CPU went while it ran its steps: each thread's CPU time and its time waiting
for a CPU (the scheduler's run queue), from /proc/self/task/*/schedstat, which counts both in
nanoseconds. A tool that costs a program no work on the program's threads can still cost it steps
by taking the CPUs those threads wait for; the wait column shows that, the CPU column the work.

Beside them, what tells work from a slower CPU: each thread's user-mode instructions and cycles
(hardware counters through perf_event_open, where the kernel and the virtual machine lend them),
and its context switches and minor page faults (/proc). Instructions do not move with the host's
speed, so they tell a tool's extra work apart from the process-to-process noise of step times.

    before = thread_cpu.snapshot(); ...steps...; thread_cpu.per_step(before, snapshot(), steps)
gives {group: [CPU us a step, wait us a step, threads, {counter: per step}]}, where a group is
"main" for the process's first thread and the thread's name (its comm) for the others: kerntime
names its threads kerntime-read and kerntime-work."""
import ctypes
import os
import platform
import struct

# perf_event_open(2): the syscall's number, and the attribute's first version (64 bytes).
_SYSCALL = {"x86_64": 298, "aarch64": 241}.get(platform.machine())
_HARDWARE, _CYCLES, _INSTRUCTIONS = 0, 0, 1
_EXCLUDE_KERNEL, _EXCLUDE_HV = 1 << 5, 1 << 6
_TIME_ENABLED, _TIME_RUNNING = 1, 2
_FD_CLOEXEC = 8
_COUNTERS = (("instructions", _INSTRUCTIONS), ("cycles", _CYCLES))
_open = {}  # tid -> {counter: fd}; -1 where the counter could not be opened
_libc = None


def _perf_open(tid, config):
    """A user-mode hardware counter of thread `tid`, counting from now; -1 where none is lent."""
    global _libc
    if _SYSCALL is None:
        return -1
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    attr = struct.pack("=IIQQQQQIIQ", _HARDWARE, 64, config, 0, 0, _TIME_ENABLED | _TIME_RUNNING,
                       _EXCLUDE_KERNEL | _EXCLUDE_HV, 0, 0, 0)
    buf = ctypes.create_string_buffer(attr, 64)
    fd = _libc.syscall(_SYSCALL, buf, ctypes.c_int(tid), ctypes.c_int(-1), ctypes.c_int(-1),
                       ctypes.c_ulong(_FD_CLOEXEC))
    return fd if fd >= 0 else -1


def _perf_read(fd):
    """The counter's count, scaled where the PMU multiplexed it; None where it never ran."""
    try:
        value, enabled, running = struct.unpack("=QQQ", os.read(fd, 24))
    except OSError:
        return None
    if running == 0:
        return None
    return value * enabled / running if running < enabled else float(value)


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


def snapshot(counters=True):
    """{tid: (name, cpu_ns, wait_ns, {counter: value})} of every thread of this process now. The
    first snapshot that sees a thread opens its hardware counters, which count from then on."""
    threads = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                cpu, wait = (int(v) for v in f.read().split()[:2])
            extra = _proc_counts(tid) if counters else {}
        except (OSError, ValueError, IndexError):
            continue  # the thread ended meanwhile, or the kernel keeps no schedstat
        if counters:
            fds = _open.setdefault(int(tid), {c: _perf_open(int(tid), config)
                                              for c, config in _COUNTERS})
            for counter, fd in fds.items():
                value = _perf_read(fd) if fd >= 0 else None
                if value is not None:
                    extra[counter] = value
        threads[int(tid)] = (name, cpu, wait, extra)
    return threads


def per_step(before, after, steps):
    """What each group of threads took between two snapshots, per step: CPU and wait in us, the
    counters in their own units. A thread started between them counts from zero; one that ended
    is missing (its time is lost). A counter shows only where every thread of the group had it
    in both snapshots."""
    pid = os.getpid()
    groups = {}
    per = max(steps, 1)
    for tid, (name, cpu, wait, *rest) in after.items():
        extra = rest[0] if rest else {}
        _, cpu0, wait0, *rest0 = before.get(tid, (name, 0, 0))
        # A thread started between the snapshots counts its /proc counts from zero; its hardware
        # counters were opened by `after` and would read nothing, so its group shows none.
        extra0 = rest0[0] if rest0 else ({} if tid in before else
                                         {k: 0.0 for k in extra if k not in dict(_COUNTERS)})
        group = groups.setdefault("main" if tid == pid else name, [0.0, 0.0, 0, {}, set()])
        group[0] += (cpu - cpu0) / 1e3 / per
        group[1] += (wait - wait0) / 1e3 / per
        group[2] += 1
        for counter in set(extra) | set(extra0) | group[4]:
            if counter in extra and counter in extra0 and counter not in group[4]:
                group[3][counter] = group[3].get(counter, 0.0) + (extra[counter] -
                                                                  extra0[counter]) / per
            else:
                group[4].add(counter)
                group[3].pop(counter, None)
    return {name: [round(g[0], 2), round(g[1], 2), g[2], {k: round(v, 2)
                                                           for k, v in sorted(g[3].items())}]
            for name, g in sorted(groups.items())}
