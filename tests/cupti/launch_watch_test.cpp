// SPDX-License-Identifier: Apache-2.0
// The launch watch counts each launch once: CUDA 13's <<<>>> enters __cudaLaunchKernel, which
// calls the driver's launch, and CUPTI reports both with one correlation id.
#include "cupti/launch_watch.hpp"

#include <cstdint>

#include <cuda.h>
#include <cupti.h>
#include <gtest/gtest.h>

namespace kerntime::cupti {
namespace {

void call(LaunchWatch& watch, CUpti_CallbackDomain domain, CUpti_CallbackId id,
          CUpti_ApiCallbackSite site, std::uint32_t correlation) {
  static cudaError_t runtime_ok = cudaSuccess;
  static CUresult driver_ok = CUDA_SUCCESS;
  CUpti_CallbackData data{};
  data.callbackSite = site;
  data.correlationId = correlation;
  data.functionReturnValue =
      domain == CUPTI_CB_DOMAIN_RUNTIME_API ? static_cast<void*>(&runtime_ok) : &driver_ok;
  on_cupti_callback(&watch, domain, id, &data);
}

// One <<<>>> launch as CUDA 13 reports it: the runtime entry around the driver's launch.
void nested_launch(LaunchWatch& watch, std::uint32_t correlation) {
  const auto runtime = CUPTI_CB_DOMAIN_RUNTIME_API;
  const auto driver = CUPTI_CB_DOMAIN_DRIVER_API;
  call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, CUPTI_API_ENTER,
       correlation);
  call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, correlation);
  call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, correlation);
  call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, CUPTI_API_EXIT,
       correlation);
}

TEST(LaunchWatch, ANestedLaunchWithTheOuterCallsCorrelationIdCountsOnce) {
  LaunchWatch watch;
  for (std::uint32_t i = 1; i <= 3; ++i)
    nested_launch(watch, 100 + i);
  EXPECT_EQ(watch.launches(), 3u);
  EXPECT_EQ(watch.runtime_launches.load(), 3u);
  EXPECT_EQ(watch.driver_launches.load(), 0u);
}

TEST(LaunchWatch, ADriverLaunchAloneCountsOnce) {
  LaunchWatch watch;
  call(watch, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER,
       7);
  call(watch, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT,
       7);
  EXPECT_EQ(watch.launches(), 1u);
}

TEST(LaunchWatch, AnExitMissedBeforeTheWatchWasTurnedOnAgainIsForgotten) {
  LaunchWatch watch;
  call(watch, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
       CUPTI_API_ENTER, 1);  // its exit never comes: the watch went off
  watch.epoch.fetch_add(1);  // and on again
  nested_launch(watch, 2);
  EXPECT_EQ(watch.launches(), 1u);
}

}  // namespace
}  // namespace kerntime::cupti
