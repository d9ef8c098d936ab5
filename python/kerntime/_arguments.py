# SPDX-License-Identifier: Apache-2.0
"""Checks of numeric keyword arguments, made before any CUDA call: a wrong value is the caller's
mistake whether or not a GPU is there, and the message names the argument the caller wrote
(``warmup``), not the C++ field it fills. TypeError for a value that is no number (a bool is
none either: ``timeout=True`` is a slip), ValueError for one out of range, NaN or infinite."""

from __future__ import annotations

import math
import numbers
from typing import Any, Optional


def _where(function: str, name: str) -> str:
    return f"{function}: {name}"


# The C++ fields these fill: std::size_t counts, an int device index.
SIZE_MAX = 2**64 - 1
INT_MAX = 2**31 - 1


def integer(function: str, name: str, value: Any, low: int, high: int = SIZE_MAX) -> int:
    """`value` as an int in [`low`, `high`]; an integral float (``min_samples=20.0``) is
    accepted."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{_where(function, name)} must be an int, got {type(value).__name__}")
    if isinstance(value, numbers.Integral):
        result = int(value)
    elif math.isfinite(value) and float(value).is_integer():
        result = int(value)
    else:
        raise ValueError(f"{_where(function, name)} must be a whole number >= {low}, got {value!r}")
    if result < low:
        raise ValueError(f"{_where(function, name)} must be >= {low}, got {value!r}")
    if result > high:
        raise ValueError(f"{_where(function, name)} must be at most {high}, got {value!r}")
    return result


def real(function: str, name: str, value: Any, low: float, *, above: bool = False,
         high: Optional[float] = None, below: bool = False, unit: str = "") -> float:
    """`value` as a finite float, >= `low` (> with `above`) and <= `high` (< with `below`).
    `unit` follows the word number in messages (" of ms")."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{_where(function, name)} must be a number, got {type(value).__name__}")
    result = float(value)
    in_range = math.isfinite(result) and (result > low if above else result >= low)
    if high is not None:
        in_range = in_range and (result < high if below else result <= high)
    if not in_range:
        if high is None:
            rule = f"a finite number{unit} {'>' if above else '>='} {low:g}"
        else:
            rule = (f"a number{unit} in {'(' if above else '['}{low:g}, {high:g}"
                    f"{')' if below else ']'}")
        raise ValueError(f"{_where(function, name)} must be {rule}, got {value!r}")
    return result
