// SPDX-License-Identifier: Apache-2.0
#include "cuda/gpu_status.hpp"

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/gpu_status.hpp>

#include "cuda/cuda_check.hpp"

namespace kerntime {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CudaVersionString, FormatsMajorAndMinor) {
  EXPECT_EQ(cuda_version_string(13000), "13.0");
  EXPECT_EQ(cuda_version_string(12080), "12.8");
  EXPECT_EQ(cuda_version_string(12040), "12.4");
  EXPECT_EQ(cuda_version_string(0), "unknown");
}

TEST(DiagnoseGpuStatus, NoDriverIsNotCalledAnOldDriver) {
  // What a machine without the driver reports: version 0 and "insufficient driver".
  const GpuStatus s =
      diagnose_gpu_status(0, 13000, 0, "cudaErrorInsufficientDriver",
                          "CUDA driver version is insufficient for CUDA runtime version");
  EXPECT_EQ(s.problem, GpuProblem::no_driver);
  EXPECT_FALSE(s.usable());
  EXPECT_TRUE(contains(s.message, "no NVIDIA driver found")) << s.message;
  EXPECT_TRUE(contains(s.message, "13.0")) << s.message;
  EXPECT_FALSE(contains(s.message, "insufficient")) << s.message;
  EXPECT_EQ(s.message.find('\n'), std::string::npos);
}

TEST(DiagnoseGpuStatus, OldDriverNamesBothVersionsAndTheFix) {
  const GpuStatus s =
      diagnose_gpu_status(12040, 13000, 0, "cudaErrorInsufficientDriver",
                          "CUDA driver version is insufficient for CUDA runtime version");
  EXPECT_EQ(s.problem, GpuProblem::driver_too_old);
  EXPECT_TRUE(contains(s.message, "12.4")) << s.message;
  EXPECT_TRUE(contains(s.message, "13.0")) << s.message;
  EXPECT_TRUE(contains(s.message, "Update the driver")) << s.message;
}

TEST(DiagnoseGpuStatus, OlderMinorDriverThatWorksIsFine) {
  // Minor-version compatibility: a 12.8 runtime runs on a 12.4 driver.
  const GpuStatus s = diagnose_gpu_status(12040, 12080, 1, "", "");
  EXPECT_TRUE(s.usable());
  EXPECT_TRUE(s.message.empty());
}

TEST(DiagnoseGpuStatus, NoDeviceMentionsVisibleDevices) {
  setenv("CUDA_VISIBLE_DEVICES", "7", 1);
  const GpuStatus s = diagnose_gpu_status(13000, 13000, 0, "cudaErrorNoDevice",
                                          "no CUDA-capable device is detected");
  unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(s.problem, GpuProblem::no_device);
  EXPECT_TRUE(contains(s.message, "CUDA_VISIBLE_DEVICES is set to \"7\"")) << s.message;
  const GpuStatus unset = diagnose_gpu_status(13000, 13000, 0, "", "");
  EXPECT_EQ(unset.problem, GpuProblem::no_device);
  EXPECT_TRUE(contains(unset.message, "nvidia-smi")) << unset.message;
}

TEST(DiagnoseGpuStatus, OtherFailuresNameTheError) {
  const GpuStatus s = diagnose_gpu_status(13000, 13000, 0, "cudaErrorSystemDriverMismatch",
                                          "system has unsupported display driver / cuda driver "
                                          "combination");
  EXPECT_EQ(s.problem, GpuProblem::initialization_failed);
  EXPECT_TRUE(contains(s.message, "cudaErrorSystemDriverMismatch")) << s.message;
}

TEST(DescribeCudaError, NamesCallErrorTextAndWhatToDo) {
  const std::string m = cuda::describe_cuda_error(cudaErrorMemoryAllocation, "cudaMalloc", {});
  EXPECT_EQ(m,
            "cudaMalloc failed: cudaErrorMemoryAllocation (out of memory). The GPU is out of "
            "memory: free device memory or use smaller problems.");
  const std::string hinted =
      cuda::describe_cuda_error(cudaErrorInvalidValue, "cudaEventRecord", "Pass a stream.");
  EXPECT_EQ(hinted,
            "cudaEventRecord failed: cudaErrorInvalidValue (invalid argument). Pass a "
            "stream.");
}

TEST(DescribeCudaError, StartupErrorsBecomeTheDiagnosis) {
  const GpuStatus status = query_gpu_status();
  const std::string m =
      cuda::describe_cuda_error(cudaErrorInsufficientDriver, "cudaGetDeviceCount", {});
  if (status.usable()) {
    // With a working GPU the raw error is described as it is.
    EXPECT_TRUE(contains(m, "cudaErrorInsufficientDriver")) << m;
  } else {
    EXPECT_EQ(m, "cudaGetDeviceCount failed: " + status.message);
  }
}

}  // namespace
}  // namespace kerntime
