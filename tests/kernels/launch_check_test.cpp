// SPDX-License-Identifier: Apache-2.0
// The sample kernels' error reporting and size checks: none of these tests needs a GPU, since
// CUDA's error names are a table in the runtime and size checks throw before any launch.
#include <string>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <kerntime/error.hpp>

#include "kernels/detail/launch.hpp"
#include "kernels/samples.hpp"

namespace kerntime::samples {
namespace {

TEST(SampleLaunchErrors, MessageNamesKernelErrorAndHintOnOneLine) {
  const std::string message =
      detail::cuda_error_message("saxpy", "the launch", cudaErrorInvalidConfiguration);
  EXPECT_NE(message.find("saxpy"), std::string::npos) << message;
  EXPECT_NE(message.find("cudaErrorInvalidConfiguration"), std::string::npos) << message;
  EXPECT_NE(message.find(cudaGetErrorString(cudaErrorInvalidConfiguration)), std::string::npos)
      << message;
  EXPECT_NE(message.find("sizes passed to the launcher"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(SampleLaunchErrors, MissingGpuCodeSuggestsTheArchitectureSetting) {
  const std::string message =
      detail::cuda_error_message("sgemm_tiled", "the launch", cudaErrorNoKernelImageForDevice);
  EXPECT_NE(message.find("CMAKE_CUDA_ARCHITECTURES"), std::string::npos) << message;
}

TEST(SampleLaunchErrors, CheckCudaThrowsKerntimeErrorOnlyOnFailure) {
  EXPECT_NO_THROW(detail::check_cuda(cudaSuccess, "spin", "the launch"));
  EXPECT_THROW(detail::check_cuda(cudaErrorLaunchFailure, "spin", "the launch"), kerntime::Error);
}

TEST(SampleLaunchGrid, GridStrideBlocksCoverTheItemsUpToTheCap) {
  EXPECT_EQ(detail::grid_stride_blocks(0), 1u);
  EXPECT_EQ(detail::grid_stride_blocks(1), 1u);
  EXPECT_EQ(detail::grid_stride_blocks(256), 1u);
  EXPECT_EQ(detail::grid_stride_blocks(257), 2u);
  EXPECT_EQ(detail::grid_stride_blocks(std::size_t{1} << 40), detail::kMaxGridStrideBlocks);
  EXPECT_EQ(detail::grid_stride_blocks(2000, 256, 4), 4u);
}

TEST(SampleLaunchGrid, TooTallMatricesThrowBeforeLaunching) {
  // 65535 tiles of 32 rows is the most one launch covers; one row more cannot be launched.
  const std::size_t too_many_rows = std::size_t{65535} * 32 + 1;
  try {
    launch_transpose_tiled(too_many_rows, 1, nullptr, nullptr, nullptr);
    FAIL() << "expected kerntime::Error";
  } catch (const kerntime::Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("transpose_tiled"), std::string::npos) << message;
    EXPECT_NE(message.find("rows = 2097121"), std::string::npos) << message;
  }
  EXPECT_THROW(launch_transpose_naive(too_many_rows, 1, nullptr, nullptr, nullptr),
               kerntime::Error);
  EXPECT_THROW(
      launch_sgemm_tiled(too_many_rows, 1, 1, 1.0f, nullptr, nullptr, 0.0f, nullptr, nullptr),
      kerntime::Error);
  // The naive SGEMM covers 8 rows per block.
  EXPECT_THROW(launch_sgemm_naive(std::size_t{65535} * 8 + 1, 1, 1, 1.0f, nullptr, nullptr, 0.0f,
                                  nullptr, nullptr),
               kerntime::Error);
}

// The throughput helpers are what benchmarks divide by time; their arithmetic is part of the API.
static_assert(device_copy_bytes(100) == 200);
static_assert(vector_add_bytes(10) == 120 && vector_add_flops(10) == 10);
static_assert(saxpy_bytes(10) == 120 && saxpy_flops(10) == 20);
static_assert(reduce_sum_bytes(10) == 40 && reduce_sum_flops(10) == 10);
static_assert(transpose_bytes(3, 5) == 120);
static_assert(sgemm_flops(2, 3, 4) == 48);
static_assert(sgemm_bytes(2, 3, 4) == (8 + 12 + 12) * 4);
static_assert(reduce_sum_addition_depth(1) == 1 + 10 + 1024);

TEST(SampleLaunchGrid, SegmentSortRefusesAPartialSegmentBeforeLaunching) {
  try {
    launch_segment_sort(static_cast<float*>(nullptr), 33, nullptr);
    FAIL() << "expected kerntime::Error";
  } catch (const kerntime::Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("segment_sort: n = 33 is not a multiple of the segment (32"),
              std::string::npos)
        << message;
  }
  EXPECT_NO_THROW(launch_segment_sort(static_cast<std::int8_t*>(nullptr), 0, nullptr));
}

}  // namespace
}  // namespace kerntime::samples
