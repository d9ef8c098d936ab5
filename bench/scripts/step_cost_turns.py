#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The cost target of `kerntime run` (docs/run.md), with its arms interleaved turn by turn
# instead of process by process. step_cost.py runs one process per arm and round, one after the
# other; on a host whose speed drifts by 10 to 30 % between processes a few seconds apart (the
# H100 hosts of 2026-12-06), its rounds' margins spread over +-15 % of the step and no number of
# rounds that fits a device call gives a verdict. Here each session starts the four processes
# (bare, under the reader, under `kerntime run`, under torch.profiler) side by side, pinned to
# the same CPUs, and after their warm-up has them take turns: in each round every arm runs BLOCK
# timed steps (after TURN_LEAD_IN untimed ones) while the others wait on a FIFO
# (bench/run/torch_step.py, KERNTIME_STEP_TURNS). A round's four figures are each turn's median
# step time, taken within a second of one another, so the host's drift falls on all four alike.
# The rounds take the arms in balanced orders (balanced_orders), in which each arm follows every
# other equally often.
#
#   python3 bench/scripts/step_cost_turns.py KERNTIME READER OUT_DIR [SESSIONS] [ROUNDS] [BLOCK]
#   python3 bench/scripts/step_cost_turns.py --summarize OUT_DIR/turns.jsonl [MORE.jsonl ...]
#
# Defaults: 9 sessions; as many rounds (ROUNDS 0 or left out) as whole cycles of the balanced orders
# need to reach 30 (32 with four arms); BLOCK 25. Per round the target's margin is (run - reader) /
# bare, as in step_cost.py; a session's figure is the median of its rounds'. The verdict takes the
# median of the sessions' figures, with its distribution-free interval over sessions (not over
# rounds: what stays fixed for a process's life, such as where its memory lies, varies between
# sessions only). A session that ends is appended whole to OUT_DIR/turns.jsonl (a round a line, with
# its session and host), and each of its processes' last JSON line (with thread times under
# KERNTIME_STEP_THREADS=1) to OUT_DIR/processes.jsonl, which step_cost.py --threads reads.
# KERNTIME_STEP_COST_SIZE picks the step (default block1), KERNTIME_STEP_COST_ARMS adds breakdown
# arms (step_cost.py's), KERNTIME_STEP_COST_NO_PROFILER=1 leaves torch.profiler out, and
# KERNTIME_STEP_COST_SECONDS=S starts no session that could not end within S seconds. After each
# session, the kernels and GPU time each tracing arm recorded of the same steps go to
# OUT_DIR/kernels.jsonl: whether the kernels themselves run longer under `kerntime run`.
#
# Outside its turn each arm's processes (the tool's parent with its program) are stopped
# (SIGSTOP to the process group each arm starts in, SIGCONT for its turn), and a turn begins only
# once /proc shows every thread of the others stopped: no thread of one arm, a tool's own
# included, runs during another arm's turn. A tool's work paced by the clock comes due while its
# process is stopped and runs at the start of its next turn; kerntime's checkpoint, due every 2 s
# of wall time, so runs every few turns, where a process of step_cost.py's 200 steps (under a
# second of steps) may run none while its steps are timed.
import json
import os
import select
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "support", "reference_reader"))
import process_levels  # noqa: E402
import read_reference  # noqa: E402
import real_workloads  # noqa: E402
import step_cost  # noqa: E402

TURN_LEAD_IN = 2  # torch_step.py's untimed steps at the start of each turn
READY_SECONDS = 300  # a process's start and warm-up, four of them side by side
TURN_SECONDS = 120  # one block of steps


class Failure(Exception):
    pass


class Turns:
    """The FIFOs of one arm's process: `go` written with the steps of each turn, `done` read for
    the process's answers. Both are held open read-write here, so that neither side's open()
    waits for the other's."""

    def __init__(self, prefix):
        self.prefix = prefix
        for end in (".go", ".done"):
            os.mkfifo(prefix + end)
        self.go = os.open(prefix + ".go", os.O_RDWR)
        self.done = os.open(prefix + ".done", os.O_RDWR)
        self.pending = b""

    def send(self, text):
        os.write(self.go, (text + "\n").encode())

    def answer(self, process, seconds, what):
        """The next line the process writes, or Failure if it ends or `seconds` pass first."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"no answer to {what} within {seconds} s")
            ready, _, _ = select.select([self.done], [], [], min(left, 1.0))
            if ready:
                self.pending += os.read(self.done, 4096)
            elif process.poll() is not None:
                raise Failure(f"the process ended with {process.returncode} before {what}")
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode()

    def close(self):
        os.close(self.go)
        os.close(self.done)


def task_states(pid):
    """The state letter of each thread of process `pid`, from /proc; [] once it is gone."""
    states = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return states
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/stat") as f:
                states.append(f.read().rsplit(")", 1)[1].split()[0])
        except (OSError, IndexError):
            pass  # the thread ended
    return states


def group_members(pgid):
    """The processes of process group `pgid`."""
    members = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[2]) == pgid:
                        members.append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return members


def wait_stopped(pgid, seconds=5.0):
    """Waits until every thread of every process in group `pgid` is stopped, or its process
    ended: SIGSTOP is delivered asynchronously, thread by thread, and the next arm's turn must
    not begin while one still runs. Failure if one still runs after `seconds`."""
    deadline = time.monotonic() + seconds
    # Listed once: the steps start no process after their warm-up.
    members = group_members(pgid)
    while True:
        running = [pid for pid in members
                   if any(state not in "TtZX" for state in task_states(pid))]
        if not running:
            return
        if time.monotonic() > deadline:
            raise Failure(f"process {running[0]} still ran {seconds:.0f} s after SIGSTOP")
        time.sleep(0.0005)


def balanced_orders(n):
    """Orders of arms 0..n-1 in which each arm comes first equally often and follows every other
    arm equally often (a Williams design: n orders for even n, 2n for odd n). A round's figures
    depend on the arm before each (what it left in the caches and the GPU); a plain rotation of
    one order puts the same arm before another in n - 1 of n rounds."""
    first, low, high = [0], 1, n - 1
    while len(first) < n:
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    orders = [[(a + i) % n for a in first] for i in range(n)]
    return orders if n % 2 == 0 else orders + [order[::-1] for order in orders]


def tail(path, size=600):
    try:
        with open(path, errors="replace") as f:
            return f.read()[-size:].strip()
    except OSError:
        return ""


def session(index, arms, rounds, block, command, pin, out, host):
    """Runs one session; returns {arm: [block median ms per round]}. Once it has ended, its
    rounds are appended to turns.jsonl and its processes' last JSON lines to processes.jsonl."""
    folder = os.path.join(out, f"session-{index}")
    os.makedirs(folder)
    turns, processes, logs = {}, {}, {}
    try:
        for arm in arms:
            turns[arm] = Turns(os.path.join(folder, arm))
            args, env = command(arm, index)
            env["KERNTIME_STEP_TURNS"] = turns[arm].prefix
            logs[arm] = (os.path.join(folder, f"{arm}.out"), os.path.join(folder, f"{arm}.err"))
            with open(logs[arm][0], "w") as stdout, open(logs[arm][1], "w") as stderr:
                processes[arm] = subprocess.Popen(pin + args, env=env, stdout=stdout,
                                                  stderr=stderr, stdin=subprocess.DEVNULL,
                                                  start_new_session=True)

        def answer(arm, seconds, what):
            try:
                return turns[arm].answer(processes[arm], seconds, what)
            except Failure as failure:
                raise Failure(f"{arm}: {failure}: {tail(logs[arm][1])}") from None

        def group(arm, sent):
            try:
                os.killpg(processes[arm].pid, sent)
            except ProcessLookupError:
                return  # it ended: its next answer says so
            if sent == signal.SIGSTOP:
                try:
                    wait_stopped(processes[arm].pid)
                except Failure as failure:
                    raise Failure(f"{arm}: {failure}") from None

        for arm in arms:
            if answer(arm, READY_SECONDS, "its first turn") != "ready":
                raise Failure(f"{arm}: its first line was not 'ready'")
            group(arm, signal.SIGSTOP)
        figures = {arm: [] for arm in arms}
        orders = balanced_orders(len(arms))
        for r in range(rounds):
            # Balanced over each len(orders) rounds, and shifted by session.
            for arm in [arms[a] for a in orders[(r + index) % len(orders)]]:
                group(arm, signal.SIGCONT)
                turns[arm].send(str(block))
                figures[arm].append(
                    json.loads(answer(arm, TURN_SECONDS, f"round {r + 1}"))["step_ms_median"])
                group(arm, signal.SIGSTOP)
        for arm in arms:
            group(arm, signal.SIGCONT)
            turns[arm].send("end")
        rows = []
        for arm in arms:
            try:
                code = processes[arm].wait(timeout=TURN_SECONDS)
            except subprocess.TimeoutExpired:
                raise Failure(f"{arm}: still running {TURN_SECONDS} s after its last turn: "
                              f"{tail(logs[arm][1])}") from None
            row = step_cost.result_of(tail(logs[arm][0], 1 << 20), "")
            if code != 0 or row is None:
                raise Failure(f"{arm}: exit {code}, no result: {tail(logs[arm][1])}")
            rows.append(dict(row, arm=arm, round=index + 1))
        # A session is kept whole or not at all: --summarize never reads a session cut short.
        with open(os.path.join(out, "processes.jsonl"), "a") as kept:
            kept.writelines(json.dumps(row) + "\n" for row in rows)
        with open(os.path.join(out, "turns.jsonl"), "a") as saved:
            saved.writelines(json.dumps(dict({a: figures[a][r] for a in arms}, session=index,
                                             round=r + 1, block=block, host=host)) + "\n"
                             for r in range(rounds))
        return figures
    finally:
        for process in processes.values():
            try:  # the whole group: a tool's parent and its program, stopped or not
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
        for t in turns.values():
            t.close()


def session_figures(figures):
    """A session's figures: per tool its cost over bare, and the margin (run - reader) / bare,
    each the median over the session's rounds of the round's own ratio."""
    bare = figures["bare"]
    out = {arm: statistics.median(v / b - 1 for v, b in zip(figures[arm], bare))
           for arm in figures if arm != "bare"}
    out["margin"] = statistics.median((run - reader) / b for run, reader, b in
                                      zip(figures["run"], figures["reader"], bare))
    out["bare_ms"] = statistics.median(bare)
    return out


def verdict(sessions):
    """The lines that judge the target over the sessions' figures (session_figures)."""
    n = len(sessions)
    lines = []
    labels = {"reader": "the reader", "run": "kerntime run", "profiler": "torch.profiler"}
    arms = [a for a in sessions[0] if a not in ("margin", "bare_ms")]
    for arm in arms:
        m, low, high = step_cost.median_interval([s[arm] for s in sessions])
        lines.append(f"cost of {labels.get(arm, arm)}: {m * 100:+.1f} % of the bare step (median "
                     f"of {n} sessions, interval [{low * 100:+.1f}, {high * 100:+.1f}] %)")
    m, low, high = step_cost.median_interval([s["margin"] for s in sessions])
    bound = step_cost.BOUND
    shown = (step_cost.judged(low, high) if step_cost.covers(n) else
             "too few sessions for a 95 % interval")
    lines.append(f"(run - reader) / bare: {m * 100:+.2f} % (median of {n} sessions, interval "
                 f"[{low * 100:+.2f}, {high * 100:+.2f}] %), bound +{bound * 100:.0f} %: {shown}")
    run = statistics.median(s["run"] for s in sessions)
    reader = statistics.median(s["reader"] for s in sessions)
    lines.append(f"kerntime run cost {run * 100:+.1f}% vs reader {reader * 100:+.1f}%: "
                 f"{step_cost.outcome(m, low, high, n)}")
    return lines


def kernel_times(out, index, arms):
    """{arm: (kernels, GPU ns)} of session `index`'s tracing arms, each from its own records: the
    reader's files and each `kerntime run` arm's report. Every arm runs the same steps, so where
    the GPU time differs the kernels themselves ran longer or shorter under that tool, a cost the
    step pays only where it waits for the GPU. An arm whose records are missing is left out."""
    times = {}
    for arm in arms:
        if arm in ("reader", "reader-flush"):
            kernels = read_reference.merge(
                read_reference.load(os.path.join(out, f"cost-{arm}-{index}")).values())
            if kernels.count():
                times[arm] = (kernels.count(), kernels.total_ns())
        elif arm.startswith("run"):
            try:
                with open(os.path.join(out, f"cost-{arm}-{index}.json")) as f:
                    rows = real_workloads.kerntime_kernels(json.load(f)).values()
            except (OSError, ValueError):
                continue
            if rows:
                times[arm] = (sum(r[0] for r in rows), sum(r[1] for r in rows))
    return times


def kernel_line(times):
    """The kernels and GPU time of each tracing arm, and each `kerntime run` arm's GPU time over
    the reader's; None without the reader's."""
    if "reader" not in times:
        return None
    count, total = times["reader"]
    parts = [f"reader {count} in {total / 1e6:.3f} ms"]
    for arm, (kernels, gpu_ns) in times.items():
        if arm != "reader":
            parts.append(f"{arm} {kernels} in {gpu_ns / 1e6:.3f} ms "
                         f"({(gpu_ns / total - 1) * 100:+.2f} % of the reader's)")
    return "  kernels and their GPU time: " + "; ".join(parts)


def kernel_summary(ratios):
    """Per `kerntime run` arm, its kernels' GPU time over the reader's: {arm: [ratio - 1 per
    session]} to lines."""
    lines = []
    for arm, values in ratios.items():
        m, low, high = step_cost.median_interval(values)
        spread = (f"interval [{low * 100:+.2f}, {high * 100:+.2f}] %"
                  if step_cost.covers(len(values)) else "too few for a 95 % interval")
        lines.append(f"GPU time of {arm}'s kernels over the reader's: {m * 100:+.2f} % (median of "
                     f"{len(values)} sessions, {spread})")
    return lines


def session_line(index, figures, own):
    rounds = len(figures["bare"])
    return (f"session {index + 1}: {rounds} rounds, bare {own['bare_ms']:.3f} ms; " +
            ", ".join(f"{arm} {own[arm] * 100:+.1f} %" for arm in figures if arm != "bare") +
            f"; (run - reader) / bare {own['margin'] * 100:+.2f} %")


def summarize(paths):
    """The verdict on the rounds saved in `paths` (each OUT_DIR/turns.jsonl), a session being
    the rounds of one file with one session number."""
    by_session = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("{"):
                    row = json.loads(line)
                    by_session.setdefault((path, row["session"]), []).append(row)
    if not by_session:
        print("step_cost_turns --summarize: no rounds", file=sys.stderr)
        return 2
    hosts = {}
    for key in sorted(by_session):
        rows = by_session[key]
        arms = [a for a in rows[0] if a not in ("session", "round", "block", "host")]
        figures = {arm: [r[arm] for r in rows] for arm in arms}
        own = session_figures(figures)
        hosts.setdefault(rows[0].get("host", "host not recorded"), []).append(own)
        print(f"{key[0]} " + session_line(key[1], figures, own))
    # Sessions of several hosts are judged host by host first: hosts' levels differ by more
    # than the margin the target bounds.
    if len(hosts) > 1:
        for host, sessions in hosts.items():
            print(f"{host}: {len(sessions)} sessions")
            for line in verdict(sessions):
                print("  " + line)
        print("pooled over the hosts:")
    for line in verdict([s for sessions in hosts.values() for s in sessions]):
        print(line)
    return 0


def main(argv):
    if argv[:1] == ["--summarize"] and len(argv) > 1:
        return summarize(argv[1:])
    if len(argv) < 3:
        print("usage: step_cost_turns.py KERNTIME READER OUT_DIR [SESSIONS] [ROUNDS] [BLOCK]",
              file=sys.stderr)
        return 2
    kerntime, reader, out = argv[0], os.path.abspath(argv[1]), os.path.abspath(argv[2])
    count = int(argv[3]) if len(argv) > 3 else 9
    rounds = int(argv[4]) if len(argv) > 4 else 0
    block = int(argv[5]) if len(argv) > 5 else 25
    if os.path.exists(os.path.join(out, "turns.jsonl")):
        print(f"step_cost_turns: {out} holds rounds already: give an empty folder",
              file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    cpus = process_levels.measure_cpus()
    pin, variant_env = process_levels.wrap("pinned", cpus)
    size = os.environ.get("KERNTIME_STEP_COST_SIZE", "block1")
    python = os.environ.get("PYTHON", "python3")
    # STEPS is not used in turns; torch_step.py still wants the argument.
    program = [python, os.path.join(ROOT, "bench", "run", "torch_step.py"), "plain", size, "0"]
    base_env = {k: v for k, v in os.environ.items()
                if k not in ("CUDA_INJECTION64_PATH", "KERNTIME_REFERENCE_OUT")}
    base_env.update(variant_env)
    arms = ["bare", "reader", "run"] + ([] if os.environ.get("KERNTIME_STEP_COST_NO_PROFILER")
                                        else ["profiler"])
    arms += [a for a in os.environ.get("KERNTIME_STEP_COST_ARMS", "").split(",") if a]
    for arm in arms:
        known = (arm in ("bare", "reader", "reader-flush", "run", "profiler") or
                 arm.startswith("cupti-") or step_cost.run_arm(arm) is not None)
        if not known or arms.count(arm) > 1:
            print(f"step_cost_turns: {'unknown' if not known else 'repeated'} arm {arm}",
                  file=sys.stderr)
            return 2
    cycle = len(balanced_orders(len(arms)))
    # By default the least number of whole balanced cycles that reaches 30 rounds.
    rounds = rounds or -(-30 // cycle) * cycle
    if rounds % cycle:
        print(f"step_cost_turns: {rounds} rounds are not whole cycles of the {cycle} balanced "
              f"orders of {len(arms)} arms: the last orders weigh less", flush=True)

    def command(arm, index):
        return step_cost.arm_command(arm, index, program, base_env, kerntime, reader, out)

    # A time limit's SIGTERM (or a closed terminal's SIGHUP) unwinds through each session's
    # cleanup, which kills its arms' process groups: stopped, they would otherwise stay so.
    def leave(sent, _frame):
        raise SystemExit(128 + sent)

    for sent in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sent, leave)
    limit = float(os.environ.get("KERNTIME_STEP_COST_SECONDS", "inf"))
    host = step_cost.host_fingerprint()
    began = time.monotonic()
    sessions, longest = [], 0.0
    ratios = {}  # per run arm, its kernels' GPU time over the reader's, a value a session
    first_reader_count = 0  # the reader's kernels in session 1, for the step's kernels a step
    print(f"torch_step.py {size}; {count} sessions of {rounds} rounds, each arm {block} steps a "
          f"turn; CPUs {cpus if pin else 'not pinned'}; arms {', '.join(arms)}", flush=True)
    for index in range(count):
        start = time.monotonic()
        if start - began + longest > limit:
            print(f"step_cost_turns: {index} sessions done; another would end past the limit "
                  f"of {limit:.0f} s", flush=True)
            break
        try:
            figures = session(index, arms, rounds, block, command, pin, out, host)
        except Failure as failure:
            print(f"step_cost_turns: session {index + 1}: {failure}", file=sys.stderr)
            return 1
        longest = max(longest, time.monotonic() - start)
        sessions.append(session_figures(figures))
        print(session_line(index, figures, sessions[-1]) +
              f" ({time.monotonic() - start:.0f} s)", flush=True)
        times = kernel_times(out, index, arms)
        if index == 0:
            first_reader_count = times.get("reader", (0, 0))[0]
        line = kernel_line(times)
        if line:
            for arm, (_, gpu_ns) in times.items():
                if arm.startswith("run"):
                    ratios.setdefault(arm, []).append(gpu_ns / times["reader"][1] - 1)
            print(line, flush=True)
            with open(os.path.join(out, "kernels.jsonl"), "a") as kept:
                kept.writelines(json.dumps(dict(arm=arm, session=index, kernels=kernels,
                                                gpu_ns=gpu_ns, host=host)) + "\n"
                                for arm, (kernels, gpu_ns) in times.items())
    if not sessions:
        print("step_cost_turns: no session was done", file=sys.stderr)
        return 1
    steps = rounds * (block + TURN_LEAD_IN) + step_cost.WARMUP_STEPS
    per_step = first_reader_count / steps
    bare = statistics.median(s["bare_ms"] for s in sessions)
    print(f"the step: about {per_step:.0f} kernels (the reader's count in session 1 over its "
          f"{steps} steps), {bare:.3f} ms bare: " +
          ("a launch-bound step as the target defines it" if per_step >= 100 and bare <= 5
           else "NOT the step the target defines (at least 100 kernels, at most 5 ms)"))
    for line in kernel_summary(ratios) + verdict(sessions):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
