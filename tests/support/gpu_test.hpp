// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

#include <gtest/gtest.h>

namespace kerntime::testing {

/// Why GPU tests cannot run here, or nothing when a GPU is usable.
std::optional<std::string> gpu_unavailable_reason();

/// True when KERNTIME_REQUIRE_GPU=1: an unusable GPU fails GPU tests instead of skipping them.
bool gpu_required();

/// Fixture for GPU tests: skips with the reason when no GPU is usable, or fails under
/// KERNTIME_REQUIRE_GPU=1.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override;
};

}  // namespace kerntime::testing
