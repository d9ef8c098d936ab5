# SPDX-License-Identifier: Apache-2.0
"""A CuPy program meeting a GPU fault as an exception: a RawKernel of its own writes through a bad
pointer on a CuPy stream, inside the NVTX range "step"; the stream's synchronize() then raises
CuPy's CUDARuntimeError (cudaErrorIllegalAddress), which the program does not catch.

    python cupy_fault.py LIBRARY     (LIBRARY: kerntime_fault_launcher, for its NVTX range)

Exit status 77: no CuPy; 78: CuPy sees no GPU (the test fails or skips on them).
"""
import ctypes
import sys
import threading

try:
    import cupy
except ImportError:
    sys.exit(77)
try:
    if cupy.cuda.runtime.getDeviceCount() < 1:
        sys.exit(78)
except cupy.cuda.runtime.CUDARuntimeError:
    sys.exit(78)

ranges = ctypes.CDLL(sys.argv[1])
ranges.kerntime_range_push.argtypes = [ctypes.c_char_p]

WRITE = r"""
extern "C" __global__ void cupy_illegal_address_kernel(unsigned long long address) {
  reinterpret_cast<volatile int*>(address)[threadIdx.x] = 1;
}
"""
kernel = cupy.RawKernel(WRITE, "cupy_illegal_address_kernel")
x = cupy.ones(1 << 20, dtype=cupy.float32)
(x * 2).sum()
cupy.cuda.Device().synchronize()  # everything before the fault has finished
stream = cupy.cuda.Stream(non_blocking=True)
print(f"stream {stream.ptr:#x}", flush=True)
print(f"thread {threading.get_native_id()}", flush=True)
ranges.kerntime_range_push(b"step")
kernel((1,), (32,), (cupy.uint64(0x10),), stream=stream)  # the first page: never mapped
ranges.kerntime_range_pop()
stream.synchronize()
print("not reached", flush=True)
