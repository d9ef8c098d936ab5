// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <kerntime/gpu_status.hpp>

#include "support/gpu_test.hpp"

namespace kerntime {
namespace {

using DeviceInfoTest = testing::GpuTest;

TEST_F(DeviceInfoTest, DescribesEveryVisibleDevice) {
  const GpuStatus status = query_gpu_status();
  const std::vector<DeviceInfo> devices = query_devices();
  ASSERT_EQ(static_cast<int>(devices.size()), status.device_count);
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const DeviceInfo& d = devices[i];
    EXPECT_EQ(d.index, static_cast<int>(i));
    EXPECT_FALSE(d.name.empty());
    EXPECT_GE(d.compute_capability_major, 7);
    EXPECT_GT(d.multiprocessor_count, 0);
    EXPECT_GT(d.total_memory_bytes, std::size_t{1} << 30);
    EXPECT_GT(d.l2_cache_bytes, std::size_t{1} << 20);
    EXPECT_GT(d.sm_clock_khz, 100000);
    EXPECT_GT(d.memory_clock_khz, 100000);
    EXPECT_GT(d.memory_bus_width_bits, 0);
    EXPECT_FALSE(d.pci_bus_id.empty());
  }
}

TEST_F(DeviceInfoTest, EnvironmentHasVersionsAndDevices) {
  const Environment env = current_environment({0});
  EXPECT_GE(env.driver_version, env.runtime_version / 1000 * 1000);
  ASSERT_EQ(env.devices.size(), 1u);
  EXPECT_EQ(env.devices[0].index, 0);
}

}  // namespace
}  // namespace kerntime
