# SPDX-License-Identifier: Apache-2.0
"""The engine's stream as the current stream of PyTorch and CuPy, for one measurement.

The function under measurement launches on "the current stream" the way PyTorch, Triton (which
asks PyTorch) and CuPy define it. The engine queues each sample behind a blocking kernel on a
stream of its own, so for the length of a measurement that stream is made current: in PyTorch
through torch.cuda.ExternalStream, in CuPy through cupy.cuda.Stream.from_external (CuPy 14
deprecated ExternalStream for it; older CuPy has only ExternalStream), each with its device.
Only frameworks already imported are touched; this happens once per measurement, before the
function's first call, not per call.
"""

from __future__ import annotations

import contextlib
import sys


class StreamBinding:
    """Called by the engine as on_stream(handle, device); close() restores what was current."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()

    def __call__(self, handle: int, device: int) -> None:
        self.close()
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_available():
            # Triton and every torch operation launch on torch's current stream of the current
            # device; the device matters when the engine measures on another one.
            torch.cuda.init()
            self._stack.enter_context(torch.cuda.device(device))
            stream = torch.cuda.ExternalStream(handle, device=torch.device("cuda", device))
            self._stack.enter_context(torch.cuda.stream(stream))
        cupy = sys.modules.get("cupy")
        if cupy is not None:
            self._stack.enter_context(cupy.cuda.Device(device))
            self._stack.enter_context(_cupy_stream(cupy, handle, device))

    def close(self) -> None:
        self._stack.close()
        self._stack = contextlib.ExitStack()


class _StreamHandle:
    """A raw cudaStream_t under the CUDA stream protocol, which Stream.from_external reads."""

    def __init__(self, handle: int) -> None:
        self._handle = handle

    def __cuda_stream__(self) -> tuple:
        return (0, self._handle)


def _cupy_stream(cupy, handle: int, device: int):
    """CuPy's stream object for the engine's handle. from_external records no device, so
    entering it binds it to the current one, which the caller has just made `device`, and it
    never destroys the handle; ExternalStream, which CuPy 14 deprecated with a warning on every
    measurement, is kept for CuPy that lacks from_external."""
    from_external = getattr(cupy.cuda.Stream, "from_external", None)
    if from_external is not None:
        return from_external(_StreamHandle(handle))
    return cupy.cuda.ExternalStream(handle, device)


def current_device() -> int:
    """The device a measurement without one runs on: PyTorch's current device once PyTorch has
    started CUDA, else CuPy's when CuPy is imported, else -1 (the engine's current device)."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        return int(torch.cuda.current_device())
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        return int(cupy.cuda.runtime.getDevice())
    return -1


def torch_profiler_active() -> bool:
    """Whether torch.profiler (Kineto, a CUPTI client) is recording in this process."""
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    enabled = False
    try:
        enabled = bool(torch.autograd.profiler._is_profiler_enabled)
    except AttributeError:
        pass
    try:
        enabled = enabled or bool(torch._C._autograd._profiler_enabled())
    except AttributeError:
        pass
    return enabled
