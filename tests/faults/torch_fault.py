# SPDX-License-Identifier: Apache-2.0
"""A PyTorch program meeting a GPU fault as an exception: a custom kernel (through ctypes, as an
extension with a bad pointer would) writes where nothing is allocated, on a side stream, inside
the NVTX range "step"; torch.cuda.synchronize() then raises torch.AcceleratorError (RuntimeError
before PyTorch 2.8), which the program does not catch.

    python torch_fault.py LIBRARY     (LIBRARY: kerntime_fault_launcher, its kerntime_launch_fault)

Exit status 77: no PyTorch; 78: PyTorch sees no GPU (the test fails or skips on them).
"""
import ctypes
import sys
import threading

try:
    import torch
except ImportError:
    sys.exit(77)
if not torch.cuda.is_available():
    sys.exit(78)

launcher = ctypes.CDLL(sys.argv[1])
launcher.kerntime_launch_fault.argtypes = [ctypes.c_int, ctypes.c_void_p]

x = torch.ones(1 << 20, device="cuda")
y = (x * 2).sum()
torch.cuda.synchronize()  # everything before the fault has finished
side = torch.cuda.Stream()
print(f"stream {side.cuda_stream:#x}", flush=True)
print(f"thread {threading.get_native_id()}", flush=True)
with torch.cuda.stream(side):
    torch.cuda.nvtx.range_push("step")
    launcher.kerntime_launch_fault(0, side.cuda_stream)  # an illegal address
    torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
print("not reached", flush=True)
