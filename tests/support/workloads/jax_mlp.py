# SPDX-License-Identifier: Apache-2.0
"""A JAX jit training step of a small MLP (value_and_grad and an SGD update in one jitted
function): XLA launches through the driver API, and may group kernels into command buffers
(CUDA graphs).
    jax_mlp.py STEPS
Run with XLA_PYTHON_CLIENT_PREALLOCATE=false (the script sets it if unset). XLA's autotuning
launches candidate kernels at compile time, as many as its timings decide: the script sets
--xla_gpu_autotune_level=0 unless XLA_FLAGS is set, so that every process runs the same
kernels."""
import os
import sys

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
os.environ.setdefault("XLA_FLAGS", "--xla_gpu_autotune_level=0")

from _steps import need, result, skip, time_steps  # noqa: E402

steps = int(sys.argv[1])
jax = need("jax")
jnp = jax.numpy
if os.environ.get("WORKLOAD_ALLOW_CPU") != "1" and jax.default_backend() != "gpu":
    skip(f"JAX's default backend is {jax.default_backend()}, not gpu")

sizes = [512, 2048, 2048, 512]
keys = jax.random.split(jax.random.PRNGKey(0), len(sizes) + 1)
params = [(jax.random.normal(k, (m, n)) / jnp.sqrt(m), jnp.zeros((n,)))
          for k, m, n in zip(keys, sizes[:-1], sizes[1:])]
x = jax.random.normal(keys[-1], (256, sizes[0]))
y = jnp.roll(x, 1, axis=1)


def loss(params, x, y):
    h = x
    for i, (w, b) in enumerate(params):
        h = h @ w + b
        if i < len(params) - 1:
            h = jax.nn.gelu(h)
    return jnp.mean((h - y) ** 2)


@jax.jit
def train_step(params, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    return jax.tree_util.tree_map(lambda p, g: p - 1e-3 * g, params, grads), value


state = {"params": params, "loss": None}


def step():
    state["params"], state["loss"] = train_step(state["params"], x, y)


def synchronize():
    jax.block_until_ready(state["params"])


times = time_steps(step, steps, warmup=3, synchronize=synchronize)
result("jax-mlp", times, loss=float(state["loss"]))
