# SPDX-License-Identifier: Apache-2.0
# A program `kerntime run` is measured on (bench/scripts/run-measure, docs/run.md); it knows nothing of kerntime.
# A small PyTorch training step, launch-bound (tiny MLP) or not (large matmuls):
#   torch_step.py MODE SIZE STEPS [DELAY_US]
# SIZE small: a two-layer MLP, 64 wide, batch 32, SGD (21 kernels a step); large: the same
# 4096 wide, batch 4096; block: two transformer encoder layers (256 wide, 4 heads, SDPA, 8
# sequences of 128) under bf16 autocast with AdamW and NVTX ranges step > forward, backward,
# optimizer: launch-bound, over 100 kernels and, on a fast host, under 5 ms a step (the cost
# target of docs/run.md, bench/scripts/step_cost.py); block1: one such layer and a head of three
# linear layers with GELU, for a host too slow to run block in 5 ms.
# MODE plain: the steps bare; profiler: under torch.profiler, printing its per-kernel counts
# and totals as JSON; profiler-whole: the same, but the profiler runs from before the model is
# made (CUPTI then starts before the program's first CUDA allocation, as under kerntime run) and
# only the kernels of the measured steps are counted; profiler-time: under torch.profiler,
# printing only the times (no per-kernel table to build); graph / graph-profiler: one step captured in a CUDA graph and replayed
# STEPS times, bare or under torch.profiler (the GPU runs the same work however fast the host
# is); paced: the steps with a busy wait of DELAY_US before every PyTorch operation (a host
# that launches slower, as under a profiler). The measured steps sit between
# cudaProfilerStart and Stop, for kerntime run --capture-range=cudaProfilerApi.
# KERNTIME_STEP_PROBE=1 times a few host operations that involve no CUDA (an interpreter loop,
# page faults, system calls, a memory scan) before torch is imported, when no tool has started
# (they start with CUDA), and again after the steps; both go into the JSON as "probe" and
# "probe_after". The cost rounds keep them to tell a process's host level (docs/run.md).
# KERNTIME_STEP_TICKS=N times a fixed interpreter loop after every N measured steps, outside the
# steps' times, and puts each block's median step time beside it in the JSON as "blocks": the
# host's speed while the steps ran, for step_cost.py --ticks (the probe above showed the host's
# speed changing within a process, so a figure taken once cannot stand for the whole run).
# KERNTIME_STEP_TURNS=PREFIX runs the steps in turns with other processes (step_cost_turns.py):
# after the warm-up it writes "ready" into the FIFO PREFIX.done, then for each line N read from
# the FIFO PREFIX.go runs TURN_LEAD_IN steps untimed and N timed ones, synchronizes, and writes
# the N steps' median (ms) as a JSON line into PREFIX.done, until the line "end". STEPS is then
# not used; the figures printed at the end are over every timed step of every block.
import contextlib, json, os, statistics, sys, time


def host_probe():
    """The fastest of five runs of each host operation, ms."""
    def best(fn):
        times = []
        for _ in range(5):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return round(min(times) * 1e3, 4)

    def loop():
        x = 0
        for i in range(100_000):
            x += i

    def faults():  # 8,192 fresh pages, one byte each
        b = bytearray(32 << 20)
        b[::4096] = b"\1" * (len(b) // 4096)

    def syscalls():
        for _ in range(20_000):
            os.getppid()

    scanned = b"\2" * (64 << 20)  # written pages, not the shared zero page
    return {"loop_ms": best(loop), "faults_ms": best(faults), "syscalls_ms": best(syscalls),
            "scan_ms": best(lambda: scanned.find(b"\1"))}


def host_tick():
    """The median of three runs of a 10,000-step interpreter loop, ms: no CUDA, no allocation."""
    times = []
    for _ in range(3):
        t = time.perf_counter()
        x = 0
        for i in range(10_000):
            x += i
        times.append(time.perf_counter() - t)
    return round(statistics.median(times) * 1e3, 4)


probe = host_probe() if os.environ.get("KERNTIME_STEP_PROBE") else None
thread_cpu = None
if os.environ.get("KERNTIME_STEP_THREADS"):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import thread_cpu
threads = {}
tick_every = int(os.environ.get("KERNTIME_STEP_TICKS", "0"))
import torch
mode, size, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
whole = None
if mode == "profiler-whole":
    from torch.profiler import profile, ProfilerActivity
    whole = profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU])
    whole.__enter__()
torch.manual_seed(0)
if size in ("block", "block1"):
    def layer():
        return torch.nn.TransformerEncoderLayer(256, 4, 1024, dropout=0.0, batch_first=True,
                                                norm_first=True)
    if size == "block":
        model = torch.nn.Sequential(layer(), layer(), torch.nn.Linear(256, 256)).cuda()
    else:  # one layer and a deeper head: fewer host calls a step, still over 100 kernels
        model = torch.nn.Sequential(layer(), torch.nn.Linear(256, 256), torch.nn.GELU(),
                                    torch.nn.Linear(256, 256), torch.nn.GELU(),
                                    torch.nn.Linear(256, 256)).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randn(8, 128, 256, device="cuda")
    nvtx = torch.cuda.nvtx
    def step():
        with nvtx.range("step"):
            opt.zero_grad(set_to_none=True)
            with nvtx.range("forward"), torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(x).float().square().mean()
            with nvtx.range("backward"):
                loss.backward()
            with nvtx.range("optimizer"):
                opt.step()
else:
    width = 64 if size == "small" else 4096
    model = torch.nn.Sequential(torch.nn.Linear(width, width), torch.nn.ReLU(), torch.nn.Linear(width, width)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(32 if size == "small" else 4096, width, device="cuda")
    def step():
        with torch.cuda.nvtx.range("step"):
            opt.zero_grad(set_to_none=True)
            loss = model(x).square().mean()
            loss.backward()
            opt.step()
profiled = mode in ("profiler", "profiler-time", "graph-profiler")
if mode == "graph-profiler":
    torch.profiler._utils._init_for_cuda_graphs()  # CUPTI must see the graph built (torch's advice)
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):  # warm-up; a graph must be captured after it, on a side stream
    for _ in range(5):
        step()
torch.cuda.current_stream().wait_stream(side)
torch.cuda.synchronize()
work = step
if mode.startswith("graph"):
    graph = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        step()
    work = graph.replay
    torch.cuda.synchronize()
pacing = None
if mode == "paced":
    from torch.utils._python_dispatch import TorchDispatchMode
    delay_ns = int(float(sys.argv[4]) * 1000) if len(sys.argv) > 4 else 0
    class Paced(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            end = time.perf_counter_ns() + delay_ns
            while time.perf_counter_ns() < end:
                pass
            return func(*args, **(kwargs or {}))
    pacing = Paced()
step_s = []
blocks = []  # [median step ms of the block, host tick ms after it]
turns = os.environ.get("KERNTIME_STEP_TURNS")
# Steps run untimed at the start of each turn: the caches the other processes' turns left cold
# are warm again before the timed ones, as they are in a process that runs its steps unbroken.
TURN_LEAD_IN = 2
untimed = []  # the lead-in steps run, counted for the thread times a step


def run_turns(clock):
    with open(turns + ".go") as go, open(turns + ".done", "w", buffering=1) as done:
        done.write("ready\n")
        for line in iter(go.readline, ""):
            if line.strip() == "end":
                break
            for _ in range(TURN_LEAD_IN):
                work()
            untimed.append(TURN_LEAD_IN)
            block = []
            for _ in range(int(line)):
                t = clock()
                work()
                block.append(clock() - t)
            torch.cuda.synchronize()
            step_s.extend(block)
            done.write(json.dumps({"step_ms_median": statistics.median(block) * 1e3}) + "\n")


def run():
    window = (torch.autograd.profiler.record_function("measured") if whole is not None
              else contextlib.nullcontext())
    with window:
        torch.cuda.profiler.start()  # kerntime run --capture-range=cudaProfilerApi records this part
        clock = time.perf_counter
        before = thread_cpu.snapshot() if thread_cpu else None
        t0 = clock()
        with pacing if pacing is not None else contextlib.nullcontext():
            if turns:
                run_turns(clock)
            for i in range(0 if turns else steps):
                t = clock()
                work()
                step_s.append(clock() - t)
                if tick_every and (i + 1) % tick_every == 0:
                    blocks.append([statistics.median(step_s[-tick_every:]) * 1e3, host_tick()])
        torch.cuda.synchronize()
        wall = clock() - t0
        if thread_cpu:
            threads.update(thread_cpu.per_step(before, thread_cpu.snapshot(),
                                               len(step_s) + sum(untimed)))
        torch.cuda.profiler.stop()
    return wall
def steps_ms():
    out = {"step_ms_median": statistics.median(step_s) * 1e3, "step_ms_max": max(step_s) * 1e3}
    if probe is not None:
        out.update(probe=probe, probe_after=host_probe())
    if tick_every:
        out.update(blocks=blocks)
    if threads:
        out.update(threads=threads)
    return out
if whole is not None:
    wall = run()
    torch.cuda.synchronize()
    whole.__exit__(None, None, None)
    events = whole.events()
    measured = [e for e in events if e.name == "measured" and
                e.device_type == torch.autograd.DeviceType.CPU][0].time_range
    kernels = {}
    for e in events:
        # "measured" itself also appears on the GPU timeline (its annotation), not a kernel.
        if (e.device_type == torch.autograd.DeviceType.CUDA and e.name != "measured" and
                e.time_range.start >= measured.start and e.time_range.end <= measured.end):
            count, total = kernels.get(e.name, [0, 0.0])
            kernels[e.name] = [count + 1, total + e.time_range.elapsed_us() * 1000.0]
    print(json.dumps({"wall_s": wall, **steps_ms(), "kernels": kernels}))
elif profiled:
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        wall = run()
    if mode == "profiler-time":
        print(json.dumps({"wall_s": wall, **steps_ms()}))
        sys.exit(0)
    kernels = {}
    for e in prof.key_averages():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            kernels[e.key] = [e.count, e.device_time_total * 1000.0]
    print(json.dumps({"wall_s": wall, **steps_ms(), "kernels": kernels}))
else:
    wall = run()
    print(json.dumps({"wall_s": wall, **steps_ms()}))
