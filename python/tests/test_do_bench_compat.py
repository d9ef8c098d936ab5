# SPDX-License-Identifier: Apache-2.0
# kerntime.do_bench stands in for triton.testing.do_bench (Triton 3.x): the same parameters and
# defaults, the call Triton's autotuner makes, and the same summaries of the same times. Where
# Triton is installed the comparison is with its own function; elsewhere with Triton 3.6's.
import inspect
import math
import random

import pytest

import kerntime
from kerntime._measure import _summarize

# triton.testing.do_bench in Triton 3.2 to 3.6.
TRITON_3_PARAMETERS = [("fn", inspect.Parameter.empty), ("warmup", 25), ("rep", 100),
                       ("grad_to_none", None), ("quantiles", None), ("return_mode", "mean")]


def triton_testing():
    try:
        import triton.testing
    except Exception:  # ImportError, or a Triton that cannot load its native part here
        return None
    return triton.testing


def parameters(function):
    return [(p.name, p.default) for p in inspect.signature(function).parameters.values()]


def test_the_parameters_are_triton_s():
    triton = triton_testing()
    expected = parameters(triton.do_bench) if triton is not None else TRITON_3_PARAMETERS
    assert parameters(kerntime.do_bench) == expected


def test_the_autotuner_s_call_binds():
    # triton/runtime/autotuner.py: self.do_bench(kernel_call, quantiles=(0.5, 0.2, 0.8))
    inspect.signature(kerntime.do_bench).bind(lambda: None, quantiles=(0.5, 0.2, 0.8))
    # and the deprecated warmup/rep path: do_bench(kernel_call, warmup=..., rep=..., quantiles=...)
    inspect.signature(kerntime.do_bench).bind(lambda: None, warmup=25, rep=100, quantiles=(0.5,))


def triton_summary(times, quantiles, return_mode):
    triton = triton_testing()
    if triton is not None:
        return triton._summarize_statistics(times, quantiles, return_mode)
    return None


@pytest.mark.parametrize("quantiles,return_mode", [
    (None, "mean"), (None, "median"), (None, "min"), (None, "max"), (None, "all"),
    ((0.5, 0.2, 0.8), "mean"), ((0.5,), "mean"), ([0.0, 1.0], "median"),
])
def test_summaries_are_triton_s(quantiles, return_mode):
    rng = random.Random(7)
    times = [0.01 + rng.random() * 0.002 for _ in range(101)]
    ours = _summarize(times, quantiles, return_mode)
    theirs = triton_summary(times, quantiles, return_mode)
    if theirs is not None:
        assert ours == pytest.approx(theirs)
    ordered = sorted(times)
    if quantiles is None:
        expected = {"mean": sum(times) / len(times), "median": ordered[50], "min": ordered[0],
                    "max": ordered[-1], "all": times}[return_mode]
    else:
        expected = [ordered[round(q * 100)] for q in quantiles]  # 101 samples: exact ranks
        expected = expected[0] if len(expected) == 1 else expected
    assert ours == pytest.approx(expected)
    assert isinstance(ours, list) == (return_mode == "all" or (quantiles is not None and len(quantiles) > 1))


def test_quantiles_interpolate_like_kerntime_s_statistics():
    rng = random.Random(3)
    times = [rng.random() for _ in range(37)]
    s = kerntime.compute_statistics(times)
    q1, median, q3, p95 = _summarize(times, (0.25, 0.5, 0.75, 0.95), "mean")
    assert (q1, median, q3, p95) == pytest.approx((s.q1, s.median, s.q3, s.p95))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        _summarize(times, (1.5,), "mean")
    assert math.isclose(_summarize([2.0], (0.3,), "mean"), 2.0)
