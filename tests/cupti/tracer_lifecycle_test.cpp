// SPDX-License-Identifier: Apache-2.0
// The Tracer's lifecycle over a fake CUPTI: order of CUPTI calls, flush rules, subscriber
// conflicts, detaching, options. No GPU needed.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/tracer.hpp>

#include "events/scope_listener.hpp"
#include "tracer_fixture.hpp"

namespace kerntime {
namespace {

using testing::FakeCupti;
using testing::kind;
using testing::mentions;
using testing::position;
using testing::start;

TEST(TracerSession, StartsInOrderAndDetachesOnStop) {
  auto t = start();
  ASSERT_EQ(t->tracer.status(), TracerStatus::active) << t->tracer.unavailable_reason();
  EXPECT_EQ(t->tracer.cupti_version(), 130001);
  const auto& calls = *t->log;
  EXPECT_EQ(calls.front(), "subscribe");
  EXPECT_LT(position(calls, "register"),
            position(calls, kind(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)));
  for (CUpti_ActivityKind k : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_RUNTIME,
                               CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
                               CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2,
                               CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION}) {
    EXPECT_GE(position(calls, kind(k)), 0) << "kind " << k << " not enabled";
  }
  EXPECT_EQ(position(calls, kind(CUPTI_ACTIVITY_KIND_KERNEL)), -1) << "KERNEL serializes kernels";
  EXPECT_GT(position(calls, "mute 4:" + std::to_string(cupti::kDriverKernelGetName)),
            position(calls, kind(CUPTI_ACTIVITY_KIND_DRIVER)));
  EXPECT_NE(events::scope_listener(), nullptr);

  t->tracer.stop();
  EXPECT_EQ(t->tracer.status(), TracerStatus::stopped);
  EXPECT_FALSE(t->fake->subscribed);
  EXPECT_TRUE(t->fake->enabled.empty());
  EXPECT_EQ(calls.back(), "unsubscribe");
  EXPECT_LT(position(calls, "sync"), position(calls, "flush 1"));
  EXPECT_LT(position(calls, "flush 1"), position(calls, "unsubscribe"));
  EXPECT_EQ(events::scope_listener(), nullptr);
  t->tracer.stop();  // idempotent
}

TEST(TracerSession, SetsDeviceBufferAttributesBeforeEnabling) {
  TracerOptions options;
  options.device_buffer_bytes = 32 << 20;
  options.device_buffers_preallocated = 8;
  auto t = start(options);
  const auto& calls = *t->log;
  const auto size = position(calls, "attribute 0=" + std::to_string(32 << 20));
  const auto count = position(calls, "attribute 6=8");
  ASSERT_GE(size, 0);
  ASSERT_GE(count, 0);
  EXPECT_LT(count, position(calls, kind(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)));
}

TEST(TracerSession, FlushSynchronizesBeforeForcing) {
  auto t = start();
  t->fake->launch("_Z1kv", 1, 10'000, 20'000, 2'500, 7);
  EXPECT_TRUE(t->tracer.trace().kernels.empty());  // still in CUPTI's buffer
  t->tracer.flush();
  const auto& calls = *t->log;
  EXPECT_LT(position(calls, "sync"), position(calls, "flush 1"));
  const Trace trace = t->tracer.trace();
  ASSERT_EQ(trace.kernels.size(), 1u);
  EXPECT_EQ(trace.kernels[0].name, "k()");
  EXPECT_EQ(trace.kernels[0].duration_ns(), 2'500u);
  ASSERT_TRUE(trace.kernels[0].launch.has_value());
  EXPECT_EQ(trace.kernels[0].launch->name, "cudaLaunchKernel");  // from cuptiGetCallbackName
  EXPECT_EQ(trace.clock.cupti_ns, 1'000'000u);
  EXPECT_GT(trace.clock.steady_ns, 0);
}

// A failed synchronization is a kernel fault: nothing in flight will ever complete, so the
// flush is forced all the same, and the kernels the fault stopped (CUPTI returns them without
// timestamps) are named.
TEST(TracerSession, AfterAFaultForcesTheFlushAndNamesTheKernelInFlight) {
  auto t = start({}, "synchronizing device 0 failed: an illegal memory access was encountered");
  t->fake->launch("good_kernel", 5, 100, 200, 50, 7);
  t->fake->launch("faulting_kernel", 6, 300, 0, 0, 9);
  try {
    t->tracer.flush();
    ADD_FAILURE() << "flush() must report the failed synchronization";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("an illegal memory access"), std::string::npos) << message;
    EXPECT_NE(message.find("in flight when the GPU stopped: kernel faulting_kernel on device 0, "
                           "stream 9, launched by thread 42"),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find("good_kernel"), std::string::npos) << message;
  }
  EXPECT_GE(position(*t->log, "flush 1"), 0);
  const Trace trace = t->tracer.trace();
  ASSERT_EQ(trace.kernels.size(), 1u) << "what completed before the fault stays readable";
  EXPECT_EQ(trace.kernels[0].name, "good_kernel");
  EXPECT_THROW(t->tracer.stop(), Error);
  EXPECT_FALSE(t->fake->subscribed);  // released all the same
  EXPECT_EQ(t->tracer.status(), TracerStatus::stopped);
}

TEST(TracerSession, NamesTheToolHoldingCupti) {
  auto t = start({}, {}, [](FakeCupti& f) {
    f.subscribe_result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    f.holder = "CUPTI for Nsight Systems";
  });
  EXPECT_EQ(t->tracer.status(), TracerStatus::unavailable);
  // CUPTI's "CUPTI for " prefix goes: the user knows the tool as Nsight Systems.
  EXPECT_NE(t->tracer.unavailable_reason().find("CUPTI is held by Nsight Systems (a process"),
            std::string::npos)
      << t->tracer.unavailable_reason();
  EXPECT_NE(t->tracer.unavailable_reason().find("nsys stats"), std::string::npos) << "what to do";
  EXPECT_NE(t->tracer.unavailable_reason().find("cudaEvents"), std::string::npos);
  EXPECT_EQ(position(*t->log, kind(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)), -1);
  EXPECT_EQ(events::scope_listener(), nullptr);
  t->tracer.flush();  // no-op
  EXPECT_TRUE(mentions(t->tracer.trace(), "held by Nsight Systems"));

  // The slot is free again for the next Tracer.
  auto next = start();
  EXPECT_TRUE(next->tracer.active()) << next->tracer.unavailable_reason();
}

TEST(TracerSession, HolderWithoutANameStillExplains) {
  auto t = start({}, {}, [](FakeCupti& f) {
    f.subscribe_result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  });
  EXPECT_NE(t->tracer.unavailable_reason().find("held by another tool (Nsight Systems"),
            std::string::npos);
}

TEST(TracerSession, ComputeSanitizersUnnamedHolderReadsAsPlainWords) {
  auto t = start({}, {}, [](FakeCupti& f) {
    f.subscribe_result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    f.holder = "CUPTI for <not provided>";
  });
  const std::string reason = t->tracer.unavailable_reason();
  EXPECT_EQ(reason.find("<not provided>"), std::string::npos) << reason;
  EXPECT_NE(reason.find("held by another tool (Nsight Systems"), std::string::npos) << reason;
}

// Another CUPTI client took the activity records: launches happen, no record comes.
TEST(TracerSession, LaunchesWithoutRecordsNameAnotherClient) {
  auto t = start({}, {}, [](FakeCupti& f) { f.launches = 3; });
  ASSERT_TRUE(t->tracer.active());
  EXPECT_TRUE(t->fake->watching) << "launches are watched until records arrive";
  t->tracer.flush();
  EXPECT_EQ(t->tracer.status(), TracerStatus::starved);
  EXPECT_FALSE(t->tracer.active());
  const std::string reason = t->tracer.unavailable_reason();
  EXPECT_NE(reason.find("CUPTI saw 3 kernel launches but delivered no kernel record"),
            std::string::npos)
      << reason;
  EXPECT_NE(reason.find("another CUPTI client in this process"), std::string::npos) << reason;
  EXPECT_NE(reason.find("torch.profiler"), std::string::npos) << reason;
  EXPECT_NE(reason.find("cudaEvents"), std::string::npos) << reason;
  EXPECT_TRUE(mentions(t->tracer.trace(), "delivered no kernel record"));
  EXPECT_FALSE(t->fake->watching) << "the watch ends once it has decided";
  t->tracer.stop();
  EXPECT_EQ(t->tracer.status(), TracerStatus::stopped);
  EXPECT_FALSE(t->fake->subscribed);
}

TEST(TracerSession, RecordsArrivingEndTheWatch) {
  auto t = start({}, {}, [](FakeCupti& f) { f.launches = 1; });
  t->fake->launch("saxpy", 7, 100, 200, 50, 7);
  t->tracer.flush();
  EXPECT_EQ(t->tracer.status(), TracerStatus::active) << t->tracer.unavailable_reason();
  EXPECT_FALSE(t->fake->watching) << "launches stop paying for the callback";
  EXPECT_FALSE(mentions(t->tracer.trace(), "delivered no kernel record"));
}

TEST(TracerSession, NoLaunchesNoVerdict) {
  auto t = start();
  t->tracer.flush();
  EXPECT_EQ(t->tracer.status(), TracerStatus::active);
  EXPECT_TRUE(t->fake->watching) << "nothing launched yet: keep watching";
}

TEST(TracerSession, AToolLoadedByInjectionIsNamed) {
  ::setenv("CUDA_INJECTION64_PATH", "/opt/tool/libother_tool.so", 1);
  auto t = start({}, {}, [](FakeCupti& f) { f.launches = 2; });
  ::unsetenv("CUDA_INJECTION64_PATH");
  EXPECT_TRUE(mentions(t->tracer.trace(),
                       "loaded through CUDA_INJECTION64_PATH (/opt/tool/libother_tool.so)"));
  ::setenv("CUDA_INJECTION64_PATH", "/opt/tool/libother_tool.so", 1);
  t->tracer.flush();
  ::unsetenv("CUDA_INJECTION64_PATH");
  EXPECT_NE(t->tracer.unavailable_reason().find(
                "the tool CUDA_INJECTION64_PATH loads, /opt/tool/libother_tool.so"),
            std::string::npos)
      << t->tracer.unavailable_reason();
}

TEST(TracerSession, KernelKindFailureMakesItUnavailableAndReleases) {
  auto t = start({}, {},
                 [](FakeCupti& f) { f.failing_kinds = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL}; });
  EXPECT_EQ(t->tracer.status(), TracerStatus::unavailable);
  EXPECT_NE(t->tracer.unavailable_reason().find("could not enable kernel records"),
            std::string::npos);
  EXPECT_FALSE(t->fake->subscribed);
}

TEST(TracerSession, OptionalKindFailureIsAWarning) {
  auto t = start({}, {}, [](FakeCupti& f) { f.failing_kinds = {CUPTI_ACTIVITY_KIND_MEMSET}; });
  EXPECT_TRUE(t->tracer.active());
  EXPECT_TRUE(mentions(t->tracer.trace(), "could not enable memset records"));
}

TEST(TracerSession, OneTracerAtATimeAndAnotherAfterIt) {
  auto first = start();
  ASSERT_TRUE(first->tracer.active());
  auto second = start();
  EXPECT_EQ(second->tracer.status(), TracerStatus::unavailable);
  EXPECT_NE(second->tracer.unavailable_reason().find("another kerntime::Tracer"),
            std::string::npos);
  EXPECT_EQ(position(*second->log, "subscribe"), -1);  // never touched CUPTI
  first->tracer.stop();
  auto third = start();
  EXPECT_TRUE(third->tracer.active()) << third->tracer.unavailable_reason();
}

TEST(TracerSession, RejectsInvalidOptions) {
  TracerOptions small;
  small.buffer_bytes = 1024;
  EXPECT_THROW(start(small), Error);
  TracerOptions no_buffers;
  no_buffers.max_buffers = 0;
  EXPECT_THROW(start(no_buffers), Error);
  TracerOptions scopes_without_api;
  scopes_without_api.runtime_api = false;
  scopes_without_api.driver_api = false;
  EXPECT_THROW(start(scopes_without_api), Error);
  scopes_without_api.scopes = false;
  EXPECT_TRUE(start(scopes_without_api)->tracer.active());
}

}  // namespace
}  // namespace kerntime
