# SPDX-License-Identifier: Apache-2.0
"""The GPU's SM clock while a reference runs, through the driver's NVML (ctypes, no package):
the engine reads NVML per sample, and a reader that is not kerntime (torch.profiler in its own
process) should say at what clock its figures were taken, so that a GEMM read at the power cap
tells itself from a bias. Without NVML (no driver, another platform) it reads nothing."""

from __future__ import annotations

import ctypes
import statistics
import threading
import time
from typing import Callable, List, Optional

NVML_CLOCK_SM = 1


def nvml_reader(index: int = 0,
                pci_bus_id: Optional[str] = None) -> Optional[Callable[[], Optional[float]]]:
    """A function that returns the SM clock of a GPU now (MHz), or None when NVML cannot be
    loaded or does not know the device. The GPU is the one at `pci_bus_id` ("0000:19:00.0"),
    else NVML's `index`: NVML numbers GPUs by PCI bus, CUDA by default fastest first."""
    try:
        nvml = ctypes.CDLL("libnvidia-ml.so.1")
    except OSError:
        return None
    if nvml.nvmlInit_v2() != 0:
        return None
    handle = ctypes.c_void_p()
    if pci_bus_id:
        found = nvml.nvmlDeviceGetHandleByPciBusId_v2(pci_bus_id.encode(), ctypes.byref(handle))
    else:
        found = nvml.nvmlDeviceGetHandleByIndex_v2(ctypes.c_uint(index), ctypes.byref(handle))
    if found != 0:
        return None

    def read() -> Optional[float]:
        mhz = ctypes.c_uint()
        status = nvml.nvmlDeviceGetClockInfo(handle, ctypes.c_int(NVML_CLOCK_SM), ctypes.byref(mhz))
        return float(mhz.value) if status == 0 else None

    return read


class ClockSampler:
    """Reads the SM clock every `period_s` on a thread of its own while the `with` block runs;
    `median_mhz` afterwards (None without readings)."""

    def __init__(self, read: Optional[Callable[[], Optional[float]]], period_s: float = 0.001):
        self.read = read
        self.period_s = period_s
        self.readings: List[float] = []
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def _run(self) -> None:
        while not self._stop.is_set():
            value = self.read()
            if value is not None:
                self.readings.append(value)
            time.sleep(self.period_s)

    def __enter__(self) -> "ClockSampler":
        if self.read is not None:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    @property
    def median_mhz(self) -> Optional[float]:
        return statistics.median(self.readings) if self.readings else None


def torch_device_bus_id(torch, device: int) -> Optional[str]:
    """The PCI bus id of PyTorch's CUDA `device` in NVML's form, or None when PyTorch does not
    say it."""
    props = torch.cuda.get_device_properties(device)
    fields = ("pci_domain_id", "pci_bus_id", "pci_device_id")
    parts = [getattr(props, name, None) for name in fields]
    if any(part is None for part in parts):
        return None
    domain, bus, slot = parts
    return f"{domain:08x}:{bus:02x}:{slot:02x}.0"
