# SPDX-License-Identifier: Apache-2.0
# kerntime.scope on the current stream, Session and Region, and kerntime.Tracer's per-kernel and
# per-scope tables, with the kernels PyTorch launches inside a scope attributed to it.
import pytest

import kerntime

pytestmark = pytest.mark.gpu


def test_scopes_time_on_the_default_session(cupy_spin):
    spin = cupy_spin(10_000)
    spin()  # the kernel's first launch loads its module (0.5 ms on an H200): not timed here
    for _ in range(20):
        with kerntime.scope("scoped/spin"):
            spin()
    samples = kerntime.default_session().samples("scoped/spin")
    assert len(samples) == 20
    # Event time around one launch: the spin plus the launch gap, never less than the spin. The
    # gap is host time (the interpreter between the start event and the launch), so one sample
    # may take far longer (112 us seen on an H200 under pytest); the median may not.
    assert all(s >= 10_000 for s in samples), samples
    assert sorted(samples)[len(samples) // 2] < 100_000, samples


def test_a_scope_object_is_reusable_but_not_reentrant(cupy_spin):
    session = kerntime.Session()
    region = session.region("reused")
    timer = session.scope(region)
    spin = cupy_spin(2_000)
    for _ in range(5):
        with timer:
            spin()
    with timer:
        with pytest.raises(kerntime.Error, match="already open"):
            timer.__enter__()
    assert len(session.samples("reused")) == 6
    report = session.report()
    assert report.find("reused").statistics.count == 6


def test_kerntime_scope_reuses_an_object_only_nothing_else_holds(cupy_spin):
    spin = cupy_spin(2_000)
    with kerntime.scope("cached/name") as first:
        spin()
        with kerntime.scope("cached/name") as nested:  # the open one is not handed out again
            spin()
        assert nested is not first
    first_id = id(first)
    del first, nested
    with kerntime.scope("cached/name") as again:  # closed, and held by nothing: reused
        spin()
    assert id(again) == first_id
    kept = kerntime.scope("cached/name")  # `again` still holds it: a new object
    assert kept is not again
    assert isinstance(kept, kerntime.Scope) and kept.name == "cached/name"
    with kept:
        spin()
    assert len(kerntime.default_session().samples("cached/name")) == 4
    # Entered and let go of without __exit__: the next kerntime.scope of the name closes it.
    kerntime.scope("cached/abandoned").__enter__()
    with kerntime.scope("cached/abandoned"):
        spin()
    assert len(kerntime.default_session().samples("cached/abandoned")) == 2


def test_the_current_stream_is_torch_s(torch_cuda):
    torch = torch_cuda
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        assert kerntime.current_stream() == side.cuda_stream
    assert kerntime.current_stream() == torch.cuda.current_stream().cuda_stream
    # Read through PyTorch's C shim (aoti_torch_get_current_cuda_stream) where torch has it (2.11
    # does); it must keep following torch's current stream, on any device.
    import ctypes
    import os

    library = os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so")
    has_shim = os.path.exists(library) and hasattr(ctypes.CDLL(library),
                                                   "aoti_torch_get_current_cuda_stream")
    assert kerntime._kerntime._torch_stream_source() == ("shim" if has_shim else "python")
    for device in range(torch.cuda.device_count()):
        with torch.cuda.device(device):
            other = torch.cuda.Stream()
            with torch.cuda.stream(other):
                assert kerntime.current_stream() == other.cuda_stream
            assert kerntime.current_stream() == torch.cuda.current_stream().cuda_stream


def test_scopes_on_explicit_streams(torch_cuda, cupy_spin):
    torch = torch_cuda
    import cupy

    session = kerntime.Session()
    side = torch.cuda.Stream()
    x = torch.randn(1 << 22, device="cuda")
    with torch.cuda.stream(side):
        for _ in range(3):
            with session.scope("torch/side", stream=side):
                x.mul_(1.0001)
    cupy_stream = cupy.cuda.Stream(non_blocking=True)
    spin = cupy_spin(5_000)
    with cupy_stream:
        for _ in range(3):
            with session.scope("cupy/side", stream=cupy_stream):
                spin()
    assert len(session.samples("torch/side")) == 3
    assert all(s >= 5_000 for s in session.samples("cupy/side"))
    # A wrong type is the caller's mistake: TypeError, as for kerntime.scope (test_without_gpu).
    with pytest.raises(TypeError, match="cuda_stream"):
        session.scope("bad", stream="stream 7")
    with pytest.raises(TypeError, match="session must be a kerntime.Session or None, got int"):
        kerntime.scope("bad", stream=side, session=5)


def test_tracer_tables_name_pytorch_s_kernels_in_their_scope(torch_cuda, tmp_path):
    torch = torch_cuda
    a = torch.randn(1024, 1024, device="cuda")
    b = torch.randn(1024, 1024, device="cuda")
    session = kerntime.Session()
    with kerntime.Tracer() as tracer:
        assert tracer.active, tracer.unavailable_reason
        for _ in range(10):
            with session.scope("step"):
                torch.softmax(a @ b, dim=-1)
    trace = tracer.trace()
    in_step = [k for k in trace.kernels if k["scope"] == "step"]
    assert len(in_step) >= 20  # a matmul and a softmax kernel per step, PyTorch's own launches
    assert all(k["duration_ns"] > 0 and k["launch"] for k in in_step)
    rows = tracer.kernel_summary()
    assert rows and sum(r.instances for r in rows) >= 20
    assert any("softmax" in r.name.lower() for r in rows), [r.name for r in rows]
    scopes = {s.name: s for s in tracer.scope_summary()}
    assert scopes["step"].instances == 10 and scopes["step"].kernels >= 20
    assert len(scopes["step"].instance_span_ns) == 10
    table = tracer.kernel_table()
    assert "Instances" in table and "softmax" in table.lower()
    scope_table = tracer.scope_table(events=session)
    assert "step" in scope_table
    assert len(tracer.kernel_table("csv").strip().splitlines()) >= len(rows)
    report = kerntime.write_report(str(tmp_path / "r.json"), session.report(), trace=tracer)
    assert report.has_trace and kerntime.read_report(str(tmp_path / "r.json")).has_trace
    tracer.trace().write_chrome_trace(str(tmp_path / "t.json"))
    assert (tmp_path / "t.json").stat().st_size > 0
