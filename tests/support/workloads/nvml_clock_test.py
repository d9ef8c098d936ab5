#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/python/nvml_clock.py without a GPU: no NVML reads nothing, and the sampler keeps what its
# reader gives while the block runs and its median.
import ctypes
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "bench", "python"))
import nvml_clock  # noqa: E402


class ClockSampler(unittest.TestCase):
    def test_readings_while_the_block_runs_and_their_median(self):
        values = iter([1980.0, None, 1755.0, 1980.0] + [1900.0] * 10_000)
        with nvml_clock.ClockSampler(lambda: next(values), period_s=0.0005) as clock:
            time.sleep(0.02)
        self.assertGreaterEqual(len(clock.readings), 3)
        self.assertEqual(clock.readings[:3], [1980.0, 1755.0, 1980.0])
        self.assertNotIn(None, clock.readings)
        count = len(clock.readings)
        time.sleep(0.005)
        self.assertEqual(len(clock.readings), count)  # stopped with the block
        self.assertIn(clock.median_mhz, (1900.0, 1980.0))

    def test_without_a_reader_nothing_is_read(self):
        with nvml_clock.ClockSampler(None) as clock:
            pass
        self.assertIsNone(clock.median_mhz)

    def test_without_nvml_there_is_no_reader_and_with_it_a_clock(self):
        try:
            ctypes.CDLL("libnvidia-ml.so.1")
            present = True
        except OSError:
            present = False
        read = nvml_clock.nvml_reader(0)
        if not present:  # CI: no driver
            self.assertIsNone(read)
        elif read is not None:  # a driver, and a GPU 0 it knows: a clock in MHz
            value = read()
            self.assertTrue(value is None or 100 < value < 10_000, value)


class BusId(unittest.TestCase):
    def test_pytorchs_pci_fields_become_nvmls_bus_id(self):
        class Props:
            pci_domain_id, pci_bus_id, pci_device_id = 0, 0x19, 0

        class Cuda:
            @staticmethod
            def get_device_properties(device):
                return Props()

        class Torch:
            cuda = Cuda()

        self.assertEqual(nvml_clock.torch_device_bus_id(Torch(), 0), "00000000:19:00.0")
        Props.pci_bus_id = None
        self.assertIsNone(nvml_clock.torch_device_bus_id(Torch(), 0))


if __name__ == "__main__":
    unittest.main()
