# SPDX-License-Identifier: Apache-2.0
"""A CuPy program of RawKernels (compiled by NVRTC, launched through the driver API) and one of
CuPy's own reductions: per step 10 x (saxpy, then a scale), then a sum.
    cupy_raw.py STEPS"""
import sys

from _steps import need, result, skip, time_steps

steps = int(sys.argv[1])
cp = need("cupy")
try:
    cp.cuda.runtime.getDeviceCount()
except Exception as e:
    skip(f"CuPy finds no GPU: {e}")

source = r"""
extern "C" __global__ void workload_saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void workload_scale(float* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= s;
}
"""
saxpy = cp.RawKernel(source, "workload_saxpy")
scale = cp.RawKernel(source, "workload_scale")
n = 1 << 20
x = cp.arange(n, dtype=cp.float32) / n
y = cp.zeros(n, dtype=cp.float32)
grid, block = ((n + 255) // 256,), (256,)
total = {"value": None}


def step():
    for _ in range(10):
        saxpy(grid, block, (cp.float32(0.5), x, y, cp.int32(n)))
        scale(grid, block, (y, cp.float32(0.99), cp.int32(n)))
    total["value"] = y.sum()


times = time_steps(step, steps, warmup=3, synchronize=cp.cuda.Device().synchronize)
result("cupy-rawkernel", times, sum=float(total["value"]))
