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


# Wrong arguments are the caller's mistake, said before any CUDA call, on any machine, by a
# TypeError or ValueError naming the argument (issue 25): `session=5` raised
# "RuntimeError: std::bad_cast", and `do_bench(fn, warmup=-1)` was accepted.
class _Stream:
    def __init__(self, handle):
        self.cuda_stream = handle


@pytest.mark.parametrize("call,error,message", [
    (lambda: kerntime.scope("x", session=5), TypeError,
     "kerntime.scope: session must be a kerntime.Session or None, got int"),
    (lambda: kerntime.Scope("x", session="s"), TypeError,
     "kerntime.scope: session must be a kerntime.Session or None, got str"),
    (lambda: kerntime.scope(5), TypeError,
     "kerntime.scope: name must be a str or a Session.region(), got int"),
    (lambda: kerntime.scope("x", stream="s"), TypeError, "kerntime.scope: stream must be None"),
    (lambda: kerntime.scope("x", stream=1.5), TypeError, "kerntime.scope: stream must be None"),
    (lambda: kerntime.scope("x", stream=-1), ValueError,
     "kerntime.scope: stream must be a CUDA stream handle from 0 to 2**64-1, got -1"),
    (lambda: kerntime.scope("x", stream=2**64), ValueError,
     "kerntime.scope: stream must be a CUDA stream handle from 0 to 2**64-1"),
    (lambda: kerntime.scope("x", stream=_Stream(-3)), ValueError,
     "kerntime.scope: stream.cuda_stream must be a CUDA stream handle from 0 to 2**64-1, got -3"),
    (lambda: kerntime.scope("x", stream=_Stream("s")), TypeError,
     "kerntime.scope: stream.cuda_stream must be an int, got str"),
])
def test_scope_names_the_argument_of_the_wrong_type(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value).startswith(message)
    assert not isinstance(raised.value, RuntimeError)  # not kerntime.Error, not std::bad_cast


@pytest.mark.parametrize("arguments,error,message", [
    ({"warmup": -1}, ValueError, "kerntime.do_bench: warmup must be a finite number of ms >= 0, got -1"),
    ({"warmup": float("nan")}, ValueError, "kerntime.do_bench: warmup must be a finite number"),
    ({"warmup": float("inf")}, ValueError, "kerntime.do_bench: warmup must be a finite number"),
    ({"warmup": "25"}, TypeError, "kerntime.do_bench: warmup must be a number, got str"),
    ({"rep": -0.5}, ValueError, "kerntime.do_bench: rep must be a finite number of ms >= 0, got -0.5"),
    ({"rep": None}, TypeError, "kerntime.do_bench: rep must be a number, got NoneType"),
    ({"quantiles": (0.5, 1.5)}, ValueError, "Quantiles must be in the range [0, 1]"),
    ({"quantiles": (float("nan"),)}, ValueError, "Quantiles must be in the range [0, 1]"),
    ({"quantiles": ("0.5",)}, TypeError, "kerntime.do_bench: quantiles must be numbers, got str"),
])
def test_do_bench_refuses_bad_numbers_before_measuring(arguments, error, message):
    with pytest.raises(error) as raised:
        kerntime.do_bench(lambda: None, **arguments)
    assert str(raised.value).startswith(message)
    with pytest.raises(TypeError, match="kerntime.do_bench needs a callable"):
        kerntime.do_bench(42)


@pytest.mark.parametrize("arguments,error,message", [
    ({"device": -1}, ValueError, "device must be >= 0, got -1"),
    ({"device": 2**31}, ValueError, "device must be at most 2147483647"),
    ({"device": 0.5}, ValueError, "device must be a whole number >= 0, got 0.5"),
    ({"device": True}, TypeError, "device must be an int, got bool"),
    ({"bytes": -1}, ValueError, "bytes must be a finite number >= 0, got -1"),
    ({"flops": float("inf")}, ValueError, "flops must be a finite number >= 0, got inf"),
    ({"elements": "3"}, TypeError, "elements must be a number, got str"),
    ({"min_samples": 0}, ValueError, "min_samples must be >= 1, got 0"),
    ({"max_samples": 2**64}, ValueError, "max_samples must be at most 18446744073709551615"),
    ({"fixed_samples": -1}, ValueError, "fixed_samples must be >= 0, got -1"),
    ({"fixed_samples": 11, "max_samples": 10}, ValueError,
     "fixed_samples must be at most max_samples (10), got 11"),
    ({"min_time": -1}, ValueError, "min_time must be a finite number of s >= 0, got -1"),
    ({"max_noise": float("nan")}, ValueError, "max_noise must be a finite number >= 0, got nan"),
    ({"max_ci_half_width": -0.1}, ValueError, "max_ci_half_width must be a finite number >= 0"),
    ({"max_ci_half_width_ns": -1}, ValueError, "max_ci_half_width_ns must be a finite number of ns >= 0"),
    ({"timeout": 0}, ValueError, "timeout must be a finite number of s > 0, got 0"),
    ({"timeout": True}, TypeError, "timeout must be a number, got bool"),
    ({"warmup_samples": -1}, ValueError, "warmup_samples must be >= 0, got -1"),
    ({"warmup_time": -0.5}, ValueError, "warmup_time must be"),
    ({"batch_size": 2.5}, ValueError, "batch_size must be a whole number >= 0, got 2.5"),
    ({"batch_target": 0}, ValueError, "batch_target must be a finite number of s > 0, got 0"),
    ({"blocking_timeout": 601}, ValueError, "blocking_timeout must be a number of s in [0.001, 600], got 601"),
    ({"throttle_threshold": 1}, ValueError, "throttle_threshold must be a number in [0, 1), got 1"),
    ({"throttle_recovery": -1}, ValueError, "throttle_recovery must be a finite number of s >= 0, got -1"),
])
def test_measure_refuses_bad_numbers_naming_the_argument(arguments, error, message):
    with pytest.raises(error) as raised:
        kerntime.measure(lambda: None, **arguments)
    assert str(raised.value).startswith("kerntime.measure: " + message)
