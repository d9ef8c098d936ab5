// SPDX-License-Identifier: Apache-2.0
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/compare.hpp>
#include <kerntime/report_transforms.hpp>

namespace kerntime {
namespace {

DeviceInfo h200() {
  DeviceInfo d;
  d.index = 0;
  d.name = "NVIDIA H200";
  d.compute_capability_major = 9;
  d.compute_capability_minor = 0;
  d.sm_clock_khz = 1980000;
  d.memory_clock_khz = 3201000;
  d.ecc_enabled = true;
  return d;
}

Environment environment() {
  Environment e;
  e.tool_version = "0.1.0";
  e.driver_version = 13000;
  e.runtime_version = 13000;
  e.devices = {h200()};
  return e;
}

TEST(CompareEnvironment, IdenticalEnvironmentsGiveNoWarning) {
  EXPECT_TRUE(compare_environments(environment(), environment()).empty());
}

TEST(CompareEnvironment, UnknownFieldsAreNotCompared) {
  // A minimal report knows nothing about where it was measured.
  EXPECT_TRUE(compare_environments(Environment{}, environment()).empty());
  EXPECT_TRUE(compare_environments(environment(), Environment{}).empty());
}

TEST(CompareEnvironment, DifferentGpuModelIsOneWarning) {
  Environment other = environment();
  other.devices[0].name = "NVIDIA A100-SXM4-80GB";
  other.devices[0].compute_capability_minor = 0;
  other.devices[0].compute_capability_major = 8;
  other.devices[0].sm_clock_khz = 1410000;
  const std::vector<std::string> w = compare_environments(environment(), other);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0],
            "GPU differs: baseline \"NVIDIA H200\", candidate \"NVIDIA A100-SXM4-80GB\"; "
            "timings on different GPU models are not comparable.");
}

TEST(CompareEnvironment, ClocksDriverRuntimeAndVersion) {
  Environment other = environment();
  other.devices[0].sm_clock_khz = 1755000;
  other.devices[0].memory_clock_khz = 2619000;
  other.devices[0].ecc_enabled = false;
  other.driver_version = 12080;
  other.runtime_version = 12060;
  other.tool_version = "0.2.0";
  const std::vector<std::string> w = compare_environments(environment(), other);
  ASSERT_EQ(w.size(), 6u);
  EXPECT_EQ(w[0],
            "GPU SM clock differs: baseline 1980 MHz, candidate 1755 MHz; kernel times scale "
            "with it.");
  EXPECT_EQ(w[1],
            "GPU memory clock differs: baseline 3201 MHz, candidate 2619 MHz; memory-bound "
            "kernels scale with it.");
  EXPECT_EQ(w[2], "GPU ECC differs: baseline on, candidate off; ECC changes memory bandwidth.");
  EXPECT_EQ(w[3], "Driver differs: baseline supports CUDA 13.0, candidate CUDA 12.8.");
  EXPECT_EQ(w[4], "CUDA runtime differs: baseline 13.0, candidate 12.6.");
  EXPECT_EQ(w[5],
            "kerntime version differs: baseline 0.1.0, candidate 0.2.0; check the release "
            "notes for changes to the measurement.");
}

TEST(CompareEnvironment, SingleGpusAreComparedWhateverTheirOrdinal) {
  Environment other = environment();
  other.devices[0].index = 3;
  EXPECT_TRUE(compare_environments(environment(), other).empty());
  other.devices[0].name = "NVIDIA L4";
  EXPECT_EQ(compare_environments(environment(), other).size(), 1u);
}

TEST(CompareEnvironment, SeveralGpusAreMatchedByOrdinal) {
  Environment a = environment();
  a.devices.push_back(h200());
  a.devices[1].index = 1;
  Environment b = a;
  b.devices[1].name = "NVIDIA H100";
  const std::vector<std::string> w = compare_environments(a, b);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rfind("GPU 1 differs", 0), 0u) << w[0];
}

TEST(CompareEnvironment, ComparisonCarriesTheWarnings) {
  Report a;
  a.environment = environment();
  Report b = a;
  b.environment.driver_version = 12080;
  const Comparison c = compare(a, b);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], "Driver differs: baseline supports CUDA 13.0, candidate CUDA 12.8.");
}

}  // namespace
}  // namespace kerntime
