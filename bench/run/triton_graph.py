# SPDX-License-Identifier: Apache-2.0
# A program `kerntime run` is measured on (bench/scripts/run-measure, docs/run.md); it knows nothing of kerntime.
# A Triton kernel launched 100 times and a torch CUDA graph of 3 kernels replayed 50 times.
import torch, triton, triton.language as tl
@triton.jit
def kerntime_triton_add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(out + i, tl.load(x + i, mask=m) + tl.load(y + i, mask=m), mask=m)
n = 1 << 20
a = torch.randn(n, device="cuda"); b = torch.randn(n, device="cuda"); c = torch.empty_like(a)
for _ in range(100):
    kerntime_triton_add[(n // 1024,)](a, b, c, n, BLOCK=1024)
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    for _ in range(3): c.add_(1)
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    c.add_(1); c.mul_(2); c.sub_(1)
for _ in range(50):
    g.replay()
torch.cuda.synchronize()
print("ok")
