// SPDX-License-Identifier: Apache-2.0
// `kerntime run`'s settings from the environment, and the API calls whose records it keeps.
#include "inject/run_settings.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>

#include "inject/enqueues_work.hpp"

namespace kerntime::inject {
namespace {

TEST(RunSettings, OnlyCallsThatEnqueueWorkKeepTheirApiRecords) {
  for (const char* name :
       {"cudaLaunchKernel_v7000", "cudaLaunchKernelExC_v11060", "cudaGraphLaunch_v10000",
        "cuLaunchKernel", "cuLaunchKernelEx", "cuGraphLaunch", "cudaMemcpyAsync_v3020",
        "cuMemcpyHtoDAsync_v2", "cudaMemsetAsync_v3020", "cuMemsetD32Async",
        "cudaLaunchHostFunc_v10000"}) {
    EXPECT_TRUE(enqueues_work(name)) << name;
  }
  for (const char* name :
       {"cudaGetDevice_v3020", "cudaGetLastError_v3020", "cudaStreamIsCapturing_v10000",
        "cudaEventRecord_v3020", "cudaStreamSynchronize_v3020", "cudaMalloc_v3020",
        "cuCtxGetCurrent", "cuKernelGetName", ""}) {
    EXPECT_FALSE(enqueues_work(name)) << name;
  }
}

TEST(RunSettings, ReadsTheEnvironmentAndRefusesMalformedValues) {
  std::map<std::string, std::string> env{{"KERNTIME_RUN_DIR", "/tmp/x"},
                                         {"KERNTIME_RUN_CAPTURE", "nvtx:train"},
                                         {"KERNTIME_RUN_DELAY_NS", "2000000000"},
                                         {"KERNTIME_RUN_SAMPLES_PER_KERNEL", "5"}};
  const auto lookup = [&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  const RunSettings s = read_run_settings(lookup);
  EXPECT_EQ(s.output_directory, "/tmp/x");
  EXPECT_EQ(s.capture, CaptureRange::nvtx_range);
  EXPECT_EQ(s.capture_nvtx_name, "train");
  EXPECT_EQ(s.delay_ns, 2'000'000'000u);
  EXPECT_EQ(s.samples_per_kernel, 5u);
  EXPECT_TRUE(s.last_launch);
  env["KERNTIME_RUN_LAST_LAUNCH"] = "0";
  EXPECT_FALSE(read_run_settings(lookup).last_launch);
  env["KERNTIME_RUN_LAST_LAUNCH"] = "yes";
  EXPECT_THROW(read_run_settings(lookup), Error);
  env.erase("KERNTIME_RUN_LAST_LAUNCH");
  // The switches that are off unless their variable is "1".
  const auto off_by_default = [&](const char* variable, bool RunSettings::*field,
                                  const char* malformed) {
    SCOPED_TRACE(variable);
    EXPECT_FALSE(read_run_settings(lookup).*field);
    env[variable] = "1";
    EXPECT_TRUE(read_run_settings(lookup).*field);
    env[variable] = malformed;
    EXPECT_THROW(read_run_settings(lookup), Error);
    env.erase(variable);
  };
  off_by_default("KERNTIME_RUN_ALL_API_CALLS", &RunSettings::all_api_calls, "all");
  off_by_default("KERNTIME_RUN_LAUNCH_CALLS", &RunSettings::launch_calls, "2");
  env["KERNTIME_RUN_SAMPLES_PER_KERNEL"] = "5x";
  EXPECT_THROW(read_run_settings(lookup), Error);
  env["KERNTIME_RUN_SAMPLES_PER_KERNEL"] = "5";
  env["KERNTIME_RUN_CAPTURE"] = "sometimes";
  EXPECT_THROW(read_run_settings(lookup), Error);
  env.erase("KERNTIME_RUN_CAPTURE");
  env["KERNTIME_RUN_KERNEL_FILTER"] = "([";
  EXPECT_THROW(read_run_settings(lookup), Error);
  env.clear();
  try {
    read_run_settings(lookup);
    FAIL() << "no KERNTIME_RUN_DIR must be refused";
  } catch (const Error& error) {
    EXPECT_NE(std::string{error.what()}.find("kerntime run -- PROGRAM"), std::string::npos);
  }
}

}  // namespace
}  // namespace kerntime::inject
