# SPDX-License-Identifier: Apache-2.0
# A program `kerntime run` is measured on (.ci/run-measure, docs/run.md); it knows nothing of kerntime.
# A small PyTorch training step, launch-bound (tiny MLP) or not (large matmuls), plus a Triton
# kernel and a CUDA graph replay; mode "profiler" wraps the steps in torch.profiler and prints
# its per-kernel counts and totals as JSON; mode "plain" runs them bare (for kerntime run).
import json, sys, time
import torch
mode, size, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
torch.manual_seed(0)
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
for _ in range(5):
    step()
torch.cuda.synchronize()
def run():
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    torch.cuda.synchronize()
    return time.perf_counter() - t0
if mode == "profiler":
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        wall = run()
    kernels = {}
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA and getattr(e, "is_async", False) is False:
            pass
    for e in prof.key_averages():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            kernels[e.key] = [e.count, e.device_time_total * 1000.0]
    print(json.dumps({"wall_s": wall, "kernels": kernels}))
else:
    torch.cuda.profiler.start()  # kerntime run --capture-range=cudaProfilerApi records this part
    wall = run()
    torch.cuda.profiler.stop()
    print(json.dumps({"wall_s": wall}))
