# SPDX-License-Identifier: Apache-2.0
# Without a usable GPU every GPU call raises kerntime.Error with kerntime's one-line reason, and
# what needs no GPU keeps working. A child interpreter with CUDA_VISIBLE_DEVICES="" sees no GPU on
# any machine: no driver on a CPU-only one, no device on a GPU machine.
import json
import os
import subprocess
import sys

import pytest

import kerntime

CHILD = r"""
import json, kerntime
status = kerntime.gpu_status()
out = {"usable": status.usable, "message": status.message, "calls": {}}
def attempt(name, call):
    try:
        call()
        out["calls"][name] = None
    except kerntime.Error as error:
        out["calls"][name] = {"type": type(error).__name__, "runtime": isinstance(error, RuntimeError),
                              "message": str(error)}
attempt("measure", lambda: kerntime.measure(lambda: None))
attempt("do_bench", lambda: kerntime.do_bench(lambda: None))
attempt("scope", lambda: kerntime.scope("x").__enter__())
attempt("Session", lambda: kerntime.Session())
attempt("devices", kerntime.devices)
attempt("require_gpu", kerntime.require_gpu)
attempt("device_synchronize", kerntime.device_synchronize)
tracer = kerntime.Tracer()
out["tracer"] = [tracer.status, tracer.unavailable_reason]
tracer.stop()
out["process_tracer"] = kerntime.process_tracer() is None
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def child():
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_child_sees_no_gpu_and_says_why(child):
    assert child["usable"] is False
    assert child["message"] and "\n" not in child["message"]


@pytest.mark.parametrize("call", ["measure", "do_bench", "scope", "Session", "devices",
                                  "require_gpu", "device_synchronize"])
def test_gpu_calls_raise_kerntime_error_with_the_reason(child, call):
    raised = child["calls"][call]
    assert raised is not None, f"{call} did not raise without a GPU"
    assert raised["type"] == "Error" and raised["runtime"]
    assert "\n" not in raised["message"]
    # The exception carries kerntime's own diagnosis, not a bare CUDA error code.
    assert child["message"] in raised["message"]


def test_a_tracer_without_a_gpu_never_raises_and_says_why_it_cannot_trace(child):
    # Without a driver CUPTI cannot start; with a driver but no visible device it may.
    status, reason = child["tracer"]
    assert status in ("unavailable", "active")
    if status == "unavailable":
        assert reason and "\n" not in reason
    assert child["process_tracer"]


def test_invalid_options_raise_before_any_cuda_call():
    with pytest.raises(kerntime.Error, match="cold, hot and graph"):
        kerntime.measure(lambda: None, mode="warm")
    with pytest.raises(TypeError, match="callable"):
        kerntime.measure(42)
    with pytest.raises(ValueError, match="return_mode"):
        kerntime.do_bench(lambda: None, return_mode="average")


def test_statistics_and_durations_need_no_gpu():
    s = kerntime.compute_statistics([4.0, 1.0, 3.0, 2.0])
    assert (s.count, s.min, s.max, s.median, s.mean) == (4, 1.0, 4.0, 2.5, 2.5)
    assert s.q1 == pytest.approx(1.75) and s.q3 == pytest.approx(3.25)
    assert s.median_ci is not None and s.median_ci[0] <= 2.5 <= s.median_ci[1]
    with pytest.raises(kerntime.Error, match="sample 1 is NaN"):
        kerntime.compute_statistics([1.0, float("nan")])
    assert kerntime.format_duration(2593.0) == "2.593 us"
    assert kerntime.format_duration(1.006e6) == "1.006 ms"
