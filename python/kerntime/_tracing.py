# SPDX-License-Identifier: Apache-2.0
"""kerntime.Tracer: CUPTI tracing as a context manager, with the C++ API's tables."""

from __future__ import annotations

from typing import Any, List, Optional, Union

from . import _kerntime, _process


class Tracer(_kerntime.Tracer):
    """Records every kernel, copy and memset of the process with CUPTI (PyTorch's, cuBLAS's and
    Triton's included), attributed to the kerntime.scope blocks open at launch::

        with kerntime.Tracer() as tracer:
            with kerntime.scope("step"):
                model(x)
        print(tracer.kernel_table())
        print(tracer.scope_table(events=kerntime.default_session().report()))

    Leaving the block flushes (synchronizes every device) and stops; the records stay. Making
    one stops the process's own Tracer that measure() uses, since CUPTI has one client per
    process; while this one records, measurements use event timing. Without CUPTI, or with
    another tool holding it, status is "unavailable" and unavailable_reason says why: nothing
    raises. Keyword arguments are the C++ TracerOptions.
    """

    def __init__(self, **options: Any) -> None:
        _process.release_tracer()
        super().__init__(**options)
        with _process.lock:
            _process.user_tracers.add(self)

    def __enter__(self) -> "Tracer":
        return self

    def __exit__(self, *exc_info: Any) -> bool:
        self.stop()
        return False

    def kernel_summary(self, by_launch_config: bool = False) -> List[_kerntime.KernelSummary]:
        """Per-kernel-name rows of everything recorded, largest total first."""
        return self.trace().kernel_summary(by_launch_config)

    def scope_summary(self) -> List[_kerntime.ScopeSummary]:
        """Per-scope-name rows of everything recorded, in order of first opening."""
        return self.trace().scope_summary()

    def kernel_table(self, format: str = "table", by_launch_config: bool = False) -> str:
        """The per-kernel table (the columns of nsys stats cuda_gpu_kern_sum)."""
        return self.trace().kernel_table(format, by_launch_config)

    def scope_table(self, format: str = "table",
                    events: Optional[Union[_kerntime.Report, _kerntime.Session]] = None) -> str:
        """The per-scope table; `events` (a Session or its report) adds each scope's median
        cudaEvent time beside its GPU span, which shows the launch latency events include."""
        if isinstance(events, _kerntime.Session):
            events = events.report()
        return self.trace().scope_table(format, events)
