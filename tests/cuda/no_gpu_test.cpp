// SPDX-License-Identifier: Apache-2.0
// The no-GPU path on any machine: main() hides every device before CUDA starts, so a GPU
// machine behaves like one without a device and a CPU machine like one without a driver.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/session.hpp>

namespace kerntime {
namespace {

bool names_a_cause(const std::string& message) {
  return message.rfind("no NVIDIA driver found", 0) == 0 ||
         message.rfind("no CUDA device is visible", 0) == 0;
}

TEST(NoGpu, StatusExplainsTheCauseInOneLine) {
  const GpuStatus status = query_gpu_status();
  EXPECT_FALSE(status.usable());
  EXPECT_TRUE(names_a_cause(status.message)) << status.message;
  EXPECT_EQ(status.message.find('\n'), std::string::npos);
  EXPECT_GT(status.runtime_version, 0);
}

TEST(NoGpu, RequireGpuThrowsTheSameLine) {
  try {
    require_gpu();
    FAIL() << "require_gpu() returned without a GPU";
  } catch (const Error& e) {
    EXPECT_EQ(std::string{e.what()}, query_gpu_status().message);
  }
}

TEST(NoGpu, SessionThrowsAnErrorNamingTheCall) {
  try {
    Session session;
    FAIL() << "a Session was created without a GPU";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message, "cudaGetDeviceCount failed: " + query_gpu_status().message);
  }
}

TEST(NoGpu, EnvironmentIsStillDescribed) {
  const Environment env = current_environment();
  EXPECT_TRUE(env.devices.empty());
  EXPECT_GT(env.runtime_version, 0);
  EXPECT_FALSE(env.created_utc.empty());
  EXPECT_FALSE(env.tool_version.empty());
}

}  // namespace
}  // namespace kerntime

int main(int argc, char** argv) {
  setenv("CUDA_VISIBLE_DEVICES", "", 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
