# SPDX-License-Identifier: Apache-2.0
"""torch.compile of a small MLP's training step (forward and backward compiled, AdamW eager):
    compiled.py default|reduce-overhead STEPS
reduce-overhead records the compiled graphs as CUDA graphs and replays them (cudagraph trees),
so most kernels run from graph launches."""
import sys

from _steps import need_torch_cuda, result, time_steps

mode, steps = sys.argv[1], int(sys.argv[2])
torch = need_torch_cuda()
torch.manual_seed(0)
width = 1024
model = torch.nn.Sequential(
    torch.nn.Linear(width, 4 * width), torch.nn.GELU(), torch.nn.Linear(4 * width, width),
    torch.nn.LayerNorm(width), torch.nn.Linear(width, width)).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
compiled = torch.compile(model, mode=None if mode == "default" else mode)
x = torch.randn(256, width, device="cuda")
target = torch.randn(256, width, device="cuda")


def step():
    with torch.cuda.nvtx.range("step"):
        if mode == "reduce-overhead":
            torch.compiler.cudagraph_mark_step_begin()
        optimizer.zero_grad(set_to_none=True)
        loss = torch.nn.functional.mse_loss(compiled(x), target)
        loss.backward()
        optimizer.step()


result(f"compile-{mode}", time_steps(step, steps, warmup=5, synchronize=torch.cuda.synchronize))
