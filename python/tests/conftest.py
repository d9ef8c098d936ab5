# SPDX-License-Identifier: Apache-2.0
# Tests of the kerntime package. Those marked `gpu` need a usable GPU: without one they skip
# with the reason, or fail when KERNTIME_REQUIRE_GPU=1 (the device run, where a skip would hide
# a broken setup). CPU tests need no GPU and run in CI (.ci/run).
import importlib
import os

import pytest

import kerntime

REQUIRE_GPU = os.environ.get("KERNTIME_REQUIRE_GPU") == "1"


def not_here(reason):
    """Skips, or fails when the run requires the GPU and its software."""
    if REQUIRE_GPU:
        pytest.fail(f"KERNTIME_REQUIRE_GPU=1: {reason}")
    pytest.skip(reason)


def need(module):
    """Imports `module` (torch, cupy, triton), or skips / fails without it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        not_here(f"{module} is not importable ({error})")


@pytest.fixture(autouse=True)
def _gpu_gate(request):
    if request.node.get_closest_marker("gpu") is None:
        return
    status = kerntime.gpu_status()
    if not status.usable:
        not_here(f"no usable GPU: {status.message}")


SPIN_SOURCE = r"""
extern "C" __global__ void kerntime_spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}
"""


@pytest.fixture(scope="session")
def cupy_spin():
    """spin(ns): a callable launching one CuPy RawKernel that busy-waits `ns` on %globaltimer."""
    cupy = need("cupy")
    kernel = cupy.RawKernel(SPIN_SOURCE, "kerntime_spin")

    def make(ns):
        arg = cupy.uint64(ns)

        def spin():
            kernel((1,), (1,), (arg,))

        return spin

    make(1000)()
    cupy.cuda.runtime.deviceSynchronize()
    return make


@pytest.fixture(scope="session")
def torch_cuda():
    torch = need("torch")
    if not torch.cuda.is_available():
        not_here("torch.cuda.is_available() is False")
    torch.cuda.init()
    return torch
