// SPDX-License-Identifier: Apache-2.0
// The launch watch counts each launch once: CUDA 13's <<<>>> enters __cudaLaunchKernel, which
// calls the driver's launch, and CUPTI reports both with one correlation id. It reports what the
// calls a GPU fault surfaces in returned (successful synchronizations, and faults), and each copy
// or memset call as it begins (its record finds its NVTX ranges by the call's correlation id).
#include "cupti/launch_watch.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

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

// After a module unload or a context's destruction, CUPTI may give a kernel name's memory to
// another kernel's name: the watch counts both, so that cached names are read again.
TEST(LaunchWatch, CountsModuleUnloadsAndContextDestructions) {
  LaunchWatch watch;
  CUpti_ResourceData resource{};
  on_cupti_callback(&watch, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED, &resource);
  EXPECT_EQ(watch.unloads.load(), 0u);
  CUpti_ModuleResourceData module{};
  resource.resourceDescriptor = &module;
  on_cupti_callback(&watch, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
                    &resource);
  on_cupti_callback(&watch, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
                    &resource);
  EXPECT_EQ(watch.unloads.load(), 2u);
}

// A call that returns `error` (the runtime's or the driver's number: they agree for faults).
void failing_call(LaunchWatch& watch, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                  CUpti_ApiCallbackSite site, std::uint32_t correlation, int error,
                  const void* params = nullptr) {
  CUpti_CallbackData data{};
  data.callbackSite = site;
  data.correlationId = correlation;
  data.contextUid = 4;
  data.functionReturnValue = &error;
  data.functionParams = params;
  on_cupti_callback(&watch, domain, id, &data);
}

// A whole call on one thread, entered and left, that returns `error`.
void whole_call(LaunchWatch& watch, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                std::uint32_t correlation, int error, const void* params = nullptr) {
  failing_call(watch, domain, id, CUPTI_API_ENTER, correlation, error, params);
  failing_call(watch, domain, id, CUPTI_API_EXIT, correlation, error, params);
}

std::vector<CuptiApi::ApiResult> g_results;
void keep_result(const CuptiApi::ApiResult& result, void*) {
  g_results.push_back(result);
}

TEST(ApiResults, OnlyFaultsAndSuccessfulSynchronizationsAreReportedOncePerCall) {
  g_results.clear();
  LaunchWatch watch;
  watch.result_handler.store(&keep_result);
  const auto runtime = CUPTI_CB_DOMAIN_RUNTIME_API;
  const auto driver = CUPTI_CB_DOMAIN_DRIVER_API;
  const void* stream = reinterpret_cast<const void*>(std::uintptr_t{0x5000});
  // cudaStreamSynchronize around cuStreamSynchronize, succeeding: one mark, with its stream.
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
               CUPTI_API_ENTER, 10, 0, &stream);
  failing_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, CUPTI_API_ENTER, 10, 0,
               &stream);
  failing_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, CUPTI_API_EXIT, 10, 0,
               &stream);
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, CUPTI_API_EXIT,
               10, 0, &stream);
  ASSERT_EQ(g_results.size(), 1u);
  EXPECT_EQ(g_results[0].kind, CuptiApi::ApiResult::Kind::stream_synchronized);
  EXPECT_EQ(g_results[0].stream, stream);
  EXPECT_EQ(g_results[0].correlation_id, 10u);
  EXPECT_EQ(g_results[0].context_id, 4u);
  // A device synchronization that succeeds; an event query that succeeds says nothing.
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
               CUPTI_API_ENTER, 11, 0);
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, CUPTI_API_EXIT,
               11, 0);
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, CUPTI_API_ENTER, 12,
               0);
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020, CUPTI_API_EXIT, 12,
               0);
  ASSERT_EQ(g_results.size(), 2u);
  EXPECT_EQ(g_results[1].kind, CuptiApi::ApiResult::Kind::device_synchronized);
  // An error that is no fault (a bad argument) says nothing; a fault does, with its call.
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020, CUPTI_API_ENTER,
               13, 1);
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020, CUPTI_API_EXIT,
               13, 1);
  ASSERT_EQ(g_results.size(), 2u);
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
               CUPTI_API_ENTER, 14, 700);
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, CUPTI_API_EXIT,
               14, 700);
  ASSERT_EQ(g_results.size(), 3u);
  EXPECT_EQ(g_results[2].kind, CuptiApi::ApiResult::Kind::fault);
  EXPECT_EQ(g_results[2].error, 700);
  EXPECT_EQ(g_results[2].callback_id, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020);
  EXPECT_EQ(g_results[2].correlation_id, 14u);
  // A launch after the fault fails with it: that is a fault too, and the launch does not count.
  failing_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, 15, 716);
  failing_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, 15, 716);
  ASSERT_EQ(g_results.size(), 4u);
  EXPECT_EQ(g_results[3].error, 716);
  EXPECT_EQ(g_results[3].domain, driver);
  EXPECT_EQ(watch.launches(), 0u);
}

// XLA and TensorFlow wait on events, never on a stream: a successful event synchronization or
// query says the event's stream had finished what came before its record, in both APIs. An
// event recorded inside a stream capture records nothing yet, and one never recorded says
// nothing.
TEST(ApiResults, AnEventSynchronizationMarksItsStreamUpToTheRecord) {
  g_results.clear();
  LaunchWatch watch;
  watch.result_handler.store(&keep_result);
  const auto runtime = CUPTI_CB_DOMAIN_RUNTIME_API;
  const auto driver = CUPTI_CB_DOMAIN_DRIVER_API;
  const void* stream = reinterpret_cast<const void*>(std::uintptr_t{0x5000});
  const void* event = reinterpret_cast<const void*>(std::uintptr_t{0x7100});
  const void* record[] = {event, stream};
  whole_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuEventRecord, 20, 0, record);
  EXPECT_TRUE(g_results.empty());  // a record is no synchronization
  const void* waited[] = {event};
  for (const auto id :
       {CUPTI_DRIVER_TRACE_CBID_cuEventQuery, CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize}) {
    whole_call(watch, driver, id, 25, 0, waited);
  }
  ASSERT_EQ(g_results.size(), 2u);
  for (const CuptiApi::ApiResult& result : g_results) {
    EXPECT_EQ(result.kind, CuptiApi::ApiResult::Kind::stream_synchronized);
    EXPECT_EQ(result.stream, stream);
    EXPECT_EQ(result.correlation_id, 20u);  // the record's, not the synchronization's
    EXPECT_EQ(result.context_id, 4u);
    EXPECT_FALSE(result.per_thread_stream);
  }
  // A query that finds it not ready (600) says nothing.
  whole_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuEventQuery, 26, 600, waited);
  EXPECT_EQ(g_results.size(), 2u);
  // Recorded again, on the per-thread default stream through the runtime: the latest counts.
  const void* per_thread[] = {event, nullptr};
  whole_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000, 30, 0,
             per_thread);
  whole_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020, 31, 0, waited);
  ASSERT_EQ(g_results.size(), 3u);
  EXPECT_EQ(g_results[2].correlation_id, 30u);
  EXPECT_EQ(g_results[2].stream, nullptr);
  EXPECT_TRUE(g_results[2].per_thread_stream);
  // Another event, never recorded, says nothing when waited on.
  const void* other[] = {reinterpret_cast<const void*>(std::uintptr_t{0x7200})};
  whole_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020, 32, 0, other);
  EXPECT_EQ(g_results.size(), 3u);
}

// What a synchronization waited for is the record it found as it began: another thread that
// records the event again meanwhile (on another stream) does not change what it says. A
// destroyed event's record goes, so a new event at its address says nothing until recorded.
TEST(ApiResults, AnEventSynchronizationSaysTheRecordItBeganWithAndADestroyedEventNone) {
  g_results.clear();
  LaunchWatch watch;
  watch.result_handler.store(&keep_result);
  const auto driver = CUPTI_CB_DOMAIN_DRIVER_API;
  const auto runtime = CUPTI_CB_DOMAIN_RUNTIME_API;
  const void* first = reinterpret_cast<const void*>(std::uintptr_t{0x5000});
  const void* second = reinterpret_cast<const void*>(std::uintptr_t{0x6000});
  const void* event = reinterpret_cast<const void*>(std::uintptr_t{0x7100});
  const void* on_first[] = {event, first};
  const void* on_second[] = {event, second};
  const void* waited[] = {event};
  whole_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuEventRecord, 50, 0, on_first);
  failing_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize, CUPTI_API_ENTER, 51, 0,
               waited);
  // Meanwhile (as another thread would, its own depth): the event recorded on another stream.
  std::thread([&] {
    whole_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuEventRecord, 60, 0, on_second);
  }).join();
  failing_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize, CUPTI_API_EXIT, 51, 0,
               waited);
  ASSERT_EQ(g_results.size(), 1u);
  EXPECT_EQ(g_results[0].stream, first);
  EXPECT_EQ(g_results[0].correlation_id, 50u);
  // Destroyed, and a new event at the same address waited on before any record: nothing.
  whole_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020, 70, 0, waited);
  whole_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuEventQuery, 71, 0, waited);
  EXPECT_EQ(g_results.size(), 1u);
}

TEST(ApiResults, AnEventRecordedInsideAStreamCaptureIsNotKept) {
  g_results.clear();
  LaunchWatch watch;
  watch.result_handler.store(&keep_result);
  const auto runtime = CUPTI_CB_DOMAIN_RUNTIME_API;
  const void* stream = reinterpret_cast<const void*>(std::uintptr_t{0x5000});
  const void* event = reinterpret_cast<const void*>(std::uintptr_t{0x7100});
  const void* record[] = {event, stream};
  const void* waited[] = {event};
  whole_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000, 40, 0);
  whole_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020, 41, 0, record);
  whole_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000, 42, 0);
  whole_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020, 43, 0, waited);
  EXPECT_TRUE(g_results.empty());
}

TEST(ApiResults, WithoutAHandlerNothingIsReported) {
  g_results.clear();
  LaunchWatch watch;
  failing_call(watch, CUPTI_CB_DOMAIN_RUNTIME_API,
               CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, CUPTI_API_ENTER, 1, 700);
  failing_call(watch, CUPTI_CB_DOMAIN_RUNTIME_API,
               CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, CUPTI_API_EXIT, 1, 700);
  EXPECT_TRUE(g_results.empty());
}

TEST(ApiResults, TheFaultsAreTheStickyErrorsOnly) {
  for (const int fault : {214, 226, 700, 702, 710, 714, 715, 716, 717, 718, 719, 721})
    EXPECT_TRUE(is_gpu_fault(fault)) << fault;
  for (const int other : {0, 1, 2, 98, 101, 209, 400, 701, 703, 709, 720, 800, 999})
    EXPECT_FALSE(is_gpu_fault(other)) << other;
}

TEST(ApiResults, TheResultCallbacksAreTheOnesTheWatchClassifies) {
  // Every watched result call reaches on_result: a fault on its exit is reported.
  std::size_t count = 0;
  const WatchedCallback* callbacks = result_callbacks(count);
  ASSERT_GT(count, 20u);
  for (std::size_t i = 0; i < count; ++i) {
    g_results.clear();
    LaunchWatch watch;
    watch.result_handler.store(&keep_result);
    const void* stream = nullptr;
    failing_call(watch, callbacks[i].domain, callbacks[i].id, CUPTI_API_ENTER, 1, 700, &stream);
    failing_call(watch, callbacks[i].domain, callbacks[i].id, CUPTI_API_EXIT, 1, 700, &stream);
    ASSERT_FALSE(g_results.empty()) << "callback " << callbacks[i].id;
    EXPECT_EQ(g_results.back().kind, CuptiApi::ApiResult::Kind::fault)
        << "callback " << callbacks[i].id;
    const auto faults = std::count_if(g_results.begin(), g_results.end(), [](const auto& r) {
      return r.kind == CuptiApi::ApiResult::Kind::fault;
    });
    EXPECT_EQ(faults, 1) << "callback " << callbacks[i].id;
  }
}

// A copy or memset call is said as it begins, with the correlation id its record carries, at
// every depth of a nested call (cudaMemcpyAsync around the driver's copy: CUPTI decides whether
// the two share an id), and before it returns (a synchronous copy's record may come first). One
// that then fails is said too: it makes no record, so its note is never read.
TEST(ApiResults, CopyAndMemsetCallsAreSaidAsTheyBeginAtEveryDepth) {
  g_results.clear();
  LaunchWatch watch;
  watch.result_handler.store(&keep_result);
  const auto runtime = CUPTI_CB_DOMAIN_RUNTIME_API;
  const auto driver = CUPTI_CB_DOMAIN_DRIVER_API;
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, CUPTI_API_ENTER, 20,
               0);
  ASSERT_EQ(g_results.size(), 1u);  // before the call returns
  EXPECT_EQ(g_results[0].kind, CuptiApi::ApiResult::Kind::copy_called);
  EXPECT_EQ(g_results[0].correlation_id, 20u);
  EXPECT_EQ(g_results[0].domain, runtime);
  EXPECT_EQ(g_results[0].context_id, 4u);
  failing_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync, CUPTI_API_ENTER, 20, 0);
  failing_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync, CUPTI_API_EXIT, 20, 0);
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, CUPTI_API_EXIT, 20,
               0);
  ASSERT_EQ(g_results.size(), 2u);
  EXPECT_EQ(g_results[1].kind, CuptiApi::ApiResult::Kind::copy_called);
  EXPECT_EQ(g_results[1].domain, driver);
  failing_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async, CUPTI_API_ENTER, 21, 0);
  failing_call(watch, driver, CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async, CUPTI_API_EXIT, 21, 0);
  ASSERT_EQ(g_results.size(), 3u);
  EXPECT_EQ(g_results[2].correlation_id, 21u);
  // A bad argument: said as it begins, nothing as it returns.
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, CUPTI_API_ENTER, 22,
               1);
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, CUPTI_API_EXIT, 22,
               1);
  EXPECT_EQ(g_results.size(), 4u);
  // A fault surfacing in a copy: the call as it begins, then the fault as it returns.
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, CUPTI_API_ENTER, 23, 700);
  failing_call(watch, runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, CUPTI_API_EXIT, 23, 700);
  ASSERT_EQ(g_results.size(), 6u);
  EXPECT_EQ(g_results[4].kind, CuptiApi::ApiResult::Kind::copy_called);
  EXPECT_EQ(g_results[5].kind, CuptiApi::ApiResult::Kind::fault);
  EXPECT_EQ(g_results[5].correlation_id, 23u);
  // The nested copy left the thread's call depth as it found it: a launch after it counts.
  nested_launch(watch, 24);
  EXPECT_EQ(watch.launches(), 1u);
  EXPECT_EQ(g_results.size(), 6u);
}

// Every CUDA call whose name says it copies or sets memory, as CUPTI's own headers list them
// (cudaMemcpy*, cudaMemset*, cuMemcpy*, cuMemset*), is watched as a copy: its records find their
// NVTX ranges, and a fault that surfaces in it is named. A CUDA release that adds one fails here.
std::vector<std::pair<std::string, CUpti_CallbackId>> listed_calls(
    const std::string& header, const std::string& prefix,
    const std::string& names = R"((?:cudaMem(?:cpy|set)|cuMem(?:cpy|set))\w*)") {
  std::ifstream in{std::string{KERNTIME_CUPTI_CBID_DIR} + "/" + header};
  std::ostringstream text;
  text << in.rdbuf();
  const std::regex entry{prefix + "(" + names + R"()\s*=\s*(\d+))"};
  std::vector<std::pair<std::string, CUpti_CallbackId>> calls;
  const std::string all = text.str();
  for (std::sregex_iterator it{all.begin(), all.end(), entry}, end; it != end; ++it) {
    calls.emplace_back((*it)[1].str(), static_cast<CUpti_CallbackId>(std::stoul((*it)[2].str())));
  }
  return calls;
}

TEST(ApiResults, EveryCopyAndMemsetCallCuptiListsIsWatched) {
  const auto runtime = listed_calls("cupti_runtime_cbid.h", "CUPTI_RUNTIME_TRACE_CBID_");
  const auto driver = listed_calls("cupti_driver_cbid.h", "CUPTI_DRIVER_TRACE_CBID_");
  EXPECT_GE(runtime.size(), 50u) << KERNTIME_CUPTI_CBID_DIR;  // CUDA 13.0 lists 66
  EXPECT_GE(driver.size(), 90u) << KERNTIME_CUPTI_CBID_DIR;   // and 105
  for (const auto& [name, id] : runtime)
    EXPECT_EQ(classify_runtime(id).call, Call::copy) << name << " (" << id << ")";
  for (const auto& [name, id] : driver)
    EXPECT_EQ(classify_driver(id).call, Call::copy) << name << " (" << id << ")";
}

// Every call CUPTI lists that launches kernels or graphs (its name has `Launch`) is watched as
// one, but for host functions (no kernel) and the multi-device cooperative launch (deprecated;
// one call, kernels on several devices), so that its kernels find their ranges and a fault is
// named at it.
TEST(LaunchWatch, EveryLaunchCallCuptiListsIsWatched) {
  const std::regex not_kernels{R"(HostFunc|MultiDevice)"};
  std::size_t watched = 0;
  for (const auto& [header, prefix] :
       {std::pair{"cupti_runtime_cbid.h", "CUPTI_RUNTIME_TRACE_CBID_"},
        std::pair{"cupti_driver_cbid.h", "CUPTI_DRIVER_TRACE_CBID_"}}) {
    const bool runtime = std::string{header} == "cupti_runtime_cbid.h";
    for (const auto& [name, id] : listed_calls(header, prefix, R"(\w*Launch\w*)")) {
      if (std::regex_search(name, not_kernels)) continue;
      if (runtime && (name == "cudaLaunch_v3020" || name == "cudaLaunch_ptsz_v7000")) {
        continue;  // gone from the runtime since CUDA 10 (cudaConfigureCall's launch)
      }
      const Call call = runtime ? classify_runtime(id).call : classify_driver(id).call;
      EXPECT_TRUE(call == Call::kernel_launch || call == Call::graph_launch)
          << name << " (" << id << ")";
      ++watched;
    }
  }
  EXPECT_GE(watched, 20u);
}

// The copy and memset calls the watch classifies are exactly the copies of the enabled list.
TEST(ApiResults, EveryCopyCallIsWatched) {
  std::size_t count = 0;
  const WatchedCallback* callbacks = result_callbacks(count);
  std::set<std::pair<int, CUpti_CallbackId>> enabled;
  for (std::size_t i = 0; i < count; ++i) {
    const Classified what = callbacks[i].domain == CUPTI_CB_DOMAIN_RUNTIME_API
                                ? classify_runtime(callbacks[i].id)
                                : classify_driver(callbacks[i].id);
    EXPECT_NE(what.call, Call::other) << "callback " << callbacks[i].id;
    if (what.call == Call::copy) {
      EXPECT_TRUE(enabled.emplace(callbacks[i].domain, callbacks[i].id).second)
          << "listed twice: " << callbacks[i].id;
    }
  }
  std::set<std::pair<int, CUpti_CallbackId>> classified;
  for (CUpti_CallbackId id = 1; id < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++id) {
    if (classify_runtime(id).call == Call::copy)
      classified.emplace(CUPTI_CB_DOMAIN_RUNTIME_API, id);
  }
  for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id) {
    if (classify_driver(id).call == Call::copy) classified.emplace(CUPTI_CB_DOMAIN_DRIVER_API, id);
  }
  EXPECT_EQ(enabled, classified);
  EXPECT_GE(classified.size(), 40u);  // cudaMemcpy*, cudaMemset*, cuMemcpy*, cuMemsetD*
}

}  // namespace
}  // namespace kerntime::cupti
