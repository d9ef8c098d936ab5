// SPDX-License-Identifier: Apache-2.0
// NVML's monitor where it cannot read: on a machine without a driver (CI) and, on a GPU machine,
// for a device index no machine has. It says why instead of throwing, and reads nothing.
#include "cuda/power_monitor.hpp"

#include <gtest/gtest.h>

namespace kerntime {
namespace {

TEST(PowerMonitor, WithoutNvmlOrTheDeviceItSaysWhyAndReadsNothing) {
  const cuda::PowerMonitor absent(4096);  // no machine has this many GPUs
  EXPECT_FALSE(absent.available());
  EXPECT_FALSE(absent.why().empty());
  EXPECT_FALSE(absent.read().has_value());
}

}  // namespace
}  // namespace kerntime
