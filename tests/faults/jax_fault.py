# SPDX-License-Identifier: Apache-2.0
"""A JAX program meeting a GPU fault as an exception: after jit-compiled work has finished, a
custom kernel (through ctypes, as an extension with a bad pointer would) writes where nothing is
allocated, inside the NVTX range "step", on a stream of its own in the primary context JAX uses.
JAX's next computation then raises (XLA's runtime error naming CUDA_ERROR_ILLEGAL_ADDRESS),
which the program does not catch. XLA launches and synchronizes through the driver API.

    python jax_fault.py LIBRARY     (LIBRARY: kerntime_fault_launcher)

Exit status 77: no JAX; 78: JAX sees no GPU (the test fails or skips on them).
"""
import ctypes
import os
import sys
import threading

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
# No autotuning: its candidate kernels would only lengthen the list of kernels that may have run.
os.environ.setdefault("XLA_FLAGS", "--xla_gpu_autotune_level=0")
try:
    import jax
    import jax.numpy as jnp
except ImportError:
    sys.exit(77)
try:
    if not jax.devices("gpu"):
        sys.exit(78)
except RuntimeError:
    sys.exit(78)

launcher = ctypes.CDLL(sys.argv[1])
launcher.kerntime_fault_stream.restype = ctypes.c_void_p
launcher.kerntime_launch_fault.argtypes = [ctypes.c_int, ctypes.c_void_p]
launcher.kerntime_range_push.argtypes = [ctypes.c_char_p]

step = jax.jit(lambda a: jnp.tanh(a @ a) + 1.0)
x = jnp.ones((256, 256), dtype=jnp.float32)
step(x).block_until_ready()  # compiled, and everything before the fault has finished
stream = launcher.kerntime_fault_stream()
if not stream:
    sys.stderr.write("jax_fault.py: no stream\n")
    sys.exit(2)
print(f"stream {stream:#x}", flush=True)
print(f"thread {threading.get_native_id()}", flush=True)
launcher.kerntime_range_push(b"step")
launcher.kerntime_launch_fault(0, stream)  # an illegal address
launcher.kerntime_range_pop()
step(x).block_until_ready()
print("not reached", flush=True)
