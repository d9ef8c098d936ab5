# SPDX-License-Identifier: Apache-2.0
"""A PyTorch training loop that never ends, to be stopped by SIGTERM in the middle of a step: an
MLP with AdamW, forward and backward (PyTorch launches the backward pass from its autograd
thread) inside the NVTX range "step", with no synchronization. No profiler runs. It creates the
file READY after its first steps.

    python torch_sigterm.py READY

Exit status 77: no PyTorch; 78: PyTorch sees no GPU.
"""
import pathlib
import sys

try:
    import torch
except ImportError:
    sys.exit(77)
if not torch.cuda.is_available():
    sys.exit(78)

torch.manual_seed(0)
model = torch.nn.Sequential(
    *[layer for _ in range(6) for layer in (torch.nn.Linear(512, 512), torch.nn.ReLU())]
).cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(256, 512, device="cuda")
step = 0
while True:
    with torch.cuda.nvtx.range("step"):
        loss = model(x).square().mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    step += 1
    if step == 20:
        torch.cuda.synchronize()
        pathlib.Path(sys.argv[1]).touch()
