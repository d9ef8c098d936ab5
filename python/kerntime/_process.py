# SPDX-License-Identifier: Apache-2.0
"""What kerntime keeps per process: one Engine, and the Tracer whose CUPTI spans make the headline.

The Engine keeps per device what every measurement reuses (a stream, events, the blocking
kernel's control block, the L2 flush buffer, the calibrated launch floor), so it is made once.
The Tracer is made at the first measurement that wants CUPTI and kept, because enabling CUPTI
costs 12 to 19 ms and a late start makes the next launch of every kernel slower once. While it
exists CUPTI records every launch of the process, about 2 us of host time per launch
(docs/tracing.md); its buffers are read only while measuring and bounded (16 x 8 MiB), so work
between measurements is dropped by CUPTI, not kept. release_tracer() stops it; KERNTIME_CUPTI=0
in the environment, or measure(cupti=False), never starts it.

CUPTI gives its records to one client per process. torch.profiler is such a client: while it
records, measurements use event timing (with a warning) and leave CUPTI alone, and the first
measurement after it starts a fresh Tracer, since the profiler's start took the old one's
records. Both end before CUDA shuts down (atexit), as the C++ API requires.
"""

from __future__ import annotations

import atexit
import os
import threading
import weakref
from typing import Optional, Tuple

from . import _kerntime
from ._streams import torch_profiler_active

# The process tracer's options: no synchronization records (the engine needs none), buffers
# read by the engine's flushes only, at most 16 x 8 MiB of them.
_TRACER_OPTIONS = dict(
    synchronization=False,
    buffer_bytes=8 << 20,
    preallocated_buffers=2,
    max_buffers=16,
    background_reading=False,
)

lock = threading.Lock()
_engine: Optional[_kerntime.Engine] = None
_tracer: Optional[_kerntime.Tracer] = None
_tracer_delivered = False  # it gave a measurement CUPTI spans at least once
_tracer_suspect = False  # torch.profiler ran while it existed
_cupti_allowed = os.environ.get("KERNTIME_CUPTI", "1") != "0"
user_tracers: "weakref.WeakSet[_kerntime.Tracer]" = weakref.WeakSet()  # kerntime.Tracer objects


def engine() -> _kerntime.Engine:
    global _engine
    if _engine is None:
        _engine = _kerntime.Engine()
    return _engine


def _drop_tracer() -> None:
    global _tracer, _tracer_delivered, _tracer_suspect
    tracer, _tracer = _tracer, None
    _tracer_delivered = False
    _tracer_suspect = False
    if tracer is not None:
        try:
            tracer.stop()
        except _kerntime.Error:
            pass  # stop() released CUPTI before it raised


def tracer_for_measurement(cupti: bool) -> Tuple[Optional[_kerntime.Tracer], Optional[str]]:
    """The Tracer a measurement should use, or None and the reason to tell (None: say nothing)."""
    global _tracer, _tracer_suspect
    if not cupti or not _cupti_allowed:
        return None, None
    if any(t.active for t in user_tracers):
        return None, (
            "a kerntime.Tracer is recording in this process and a measurement with CUPTI would "
            "empty it, so the headline is the event time (the Tracer records the measurement's "
            "kernels)")
    if torch_profiler_active():
        _tracer_suspect = _tracer_suspect or _tracer is not None
        return None, (
            "torch.profiler is recording in this process and CUPTI gives its records to one "
            "client, so the headline is the event time")
    if _tracer is not None and (_tracer_suspect or _tracer.status != "active"):
        _drop_tracer()
    if _tracer is None:
        tracer = _kerntime.Tracer(**_TRACER_OPTIONS)
        if not tracer.active:
            # The engine says why in its warning; the next measurement tries again (another
            # tool may have let CUPTI go by then).
            return tracer, None
        _tracer = tracer
    return _tracer, None


def after_measurement(tracer: Optional[_kerntime.Tracer], measurement: _kerntime.Measurement) -> bool:
    """Notes what the measurement shows about the process tracer; True: measure again with a
    fresh one (the tracer worked before and delivered nothing now: another CUPTI client took
    the records since)."""
    global _tracer_delivered
    if tracer is None or tracer is not _tracer:
        return False
    if measurement.headline_timer == "cupti-kernel":
        _tracer_delivered = True
        return False
    retry = _tracer_delivered
    _drop_tracer()
    return retry


def release_tracer() -> None:
    """Stops the process's CUPTI Tracer now (the next measurement with CUPTI starts another)."""
    with lock:
        _drop_tracer()


def process_tracer() -> Optional[_kerntime.Tracer]:
    """The Tracer measurements use now, or None."""
    return _tracer


@atexit.register
def _shutdown() -> None:
    # Before CUDA shuts down: the Tracer detaches from CUPTI, the Engine and the default session
    # free their streams and events.
    global _engine
    with lock:
        _drop_tracer()
        _engine = None
        _kerntime._release_default_session()
