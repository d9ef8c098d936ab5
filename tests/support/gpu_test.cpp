// SPDX-License-Identifier: Apache-2.0
#include "support/gpu_test.hpp"

#include <cstdlib>
#include <string_view>

#include <kerntime/gpu_status.hpp>

namespace kerntime::testing {

std::optional<std::string> gpu_unavailable_reason() {
  const GpuStatus status = query_gpu_status();
  if (status.usable()) return std::nullopt;
  return status.message;
}

bool gpu_required() {
  const char* value = std::getenv("KERNTIME_REQUIRE_GPU");
  return value != nullptr && std::string_view{value} == "1";
}

void GpuTest::SetUp() {
  if (auto reason = gpu_unavailable_reason()) {
    if (gpu_required()) {
      FAIL() << "KERNTIME_REQUIRE_GPU=1 and the GPU cannot be used: " << *reason;
    } else {
      GTEST_SKIP() << "no usable GPU: " << *reason;
    }
  }
}

}  // namespace kerntime::testing
