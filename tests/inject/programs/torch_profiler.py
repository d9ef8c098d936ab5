# SPDX-License-Identifier: Apache-2.0
"""torch.profiler recording inside a program that `kerntime run` records: 20 matmuls, then 20
under torch.profiler (CPU and CUDA activities), then 20 more. It prints how many CUDA kernels
the profiler got, so the test can tell which of the two CUPTI clients received the records.

Exit status 77: no PyTorch; 78: PyTorch sees no GPU.
"""
import sys

try:
    import torch
    from torch.profiler import ProfilerActivity, profile
except ImportError:
    sys.exit(77)
if not torch.cuda.is_available():
    sys.exit(78)

a = torch.randn(1024, 1024, device="cuda")
for _ in range(20):
    b = a @ a
torch.cuda.synchronize()
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    for _ in range(20):
        b = a @ a
    torch.cuda.synchronize()
device_events = [e for e in prof.events() if "CUDA" in str(getattr(e, "device_type", ""))]
print(f"profiler cuda kernels: {len(device_events)}", flush=True)
for _ in range(20):
    b = a @ a
torch.cuda.synchronize()
