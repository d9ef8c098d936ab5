# SPDX-License-Identifier: Apache-2.0
# How a measurement makes the engine's stream current in CuPy, checked without a GPU against a
# stand-in for the cupy module: CuPy 14 deprecated cupy.cuda.ExternalStream (a DeprecationWarning
# on every measurement) for Stream.from_external and the CUDA stream protocol.
import sys
import types
import warnings

from kerntime._streams import StreamBinding


def fake_cupy(with_from_external):
    """A cupy stand-in that logs, in order, what the binding enters, creates and leaves."""
    log = []
    state = {"device": 0}

    class Device:
        def __init__(self, device):
            self.device = device

        def __enter__(self):
            log.append(("enter device", self.device))
            self.before, state["device"] = state["device"], self.device

        def __exit__(self, *exc):
            log.append(("leave device", self.device))
            state["device"] = self.before

    class StreamObject:
        def __init__(self, ptr, device_id):
            self.ptr, self.device_id = ptr, device_id

        def __enter__(self):
            # CuPy binds a stream of unknown device (-1) to the current one and refuses another.
            device = state["device"] if self.device_id == -1 else self.device_id
            assert device == state["device"], "the stream's device is not the current one"
            log.append(("enter stream", self.ptr, device))

        def __exit__(self, *exc):
            log.append(("leave stream", self.ptr))

    class Stream:
        pass

    if with_from_external:
        def from_external(obj):
            version, ptr = obj.__cuda_stream__()
            assert version == 0
            return StreamObject(ptr, -1)  # CuPy 14 records no device here

        Stream.from_external = staticmethod(from_external)

    def external_stream(ptr, device_id=-1):
        warnings.warn("ExternalStream is deprecated. Use Stream.from_external() instead",
                      DeprecationWarning)
        return StreamObject(ptr, device_id)

    cuda = types.SimpleNamespace(Device=Device, Stream=Stream, ExternalStream=external_stream)
    return types.SimpleNamespace(cuda=cuda), log


def bind_and_close(monkeypatch, cupy, handle, device):
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    monkeypatch.setitem(sys.modules, "cupy", cupy)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        binding = StreamBinding()
        binding(handle, device)
        binding.close()
    return [str(w.message) for w in caught]


def test_cupy_with_from_external_gets_the_handle_on_the_device_and_no_warning(monkeypatch):
    cupy, log = fake_cupy(with_from_external=True)
    messages = bind_and_close(monkeypatch, cupy, handle=0x7F00AB, device=3)
    assert messages == []
    assert log == [("enter device", 3), ("enter stream", 0x7F00AB, 3),
                   ("leave stream", 0x7F00AB), ("leave device", 3)]


def test_cupy_without_from_external_falls_back_to_external_stream(monkeypatch):
    cupy, log = fake_cupy(with_from_external=False)
    messages = bind_and_close(monkeypatch, cupy, handle=0x51, device=1)
    assert messages == ["ExternalStream is deprecated. Use Stream.from_external() instead"]
    assert log == [("enter device", 1), ("enter stream", 0x51, 1),
                   ("leave stream", 0x51), ("leave device", 1)]


def test_binding_again_leaves_the_first_stream_before_entering_the_next(monkeypatch):
    cupy, log = fake_cupy(with_from_external=True)
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    monkeypatch.setitem(sys.modules, "cupy", cupy)
    binding = StreamBinding()
    binding(0x10, 0)
    binding(0x20, 1)
    binding.close()
    assert log == [("enter device", 0), ("enter stream", 0x10, 0), ("leave stream", 0x10),
                   ("leave device", 0), ("enter device", 1), ("enter stream", 0x20, 1),
                   ("leave stream", 0x20), ("leave device", 1)]
