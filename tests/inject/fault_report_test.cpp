// SPDX-License-Identifier: Apache-2.0
// A GPU fault as `kerntime run` names it, without a GPU: the CUDA errors that are faults, the
// synchronizations that say which kernels had finished, the kernels still running when the fault
// surfaced (one: the kernel that faulted; several: each of them), and every sentence.
#include "inject/fault_report.hpp"

#include <string>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "cupti/launch_watch.hpp"

namespace kerntime::inject {
namespace {

const char* const kAlpha = "_Z16run_target_alphaPf";
const char* const kFault = "_Z16run_target_faultPf";
const char* const kBeta = "_Z15run_target_betaPf";

std::string no_ranges(std::uint64_t) {
  return {};
}
std::string step_ranges(std::uint64_t path) {
  return path == 7 ? "ranges \"outer\" > \"step\"" : "";
}
std::string named(pid_t thread) {
  return "worker" + std::to_string(thread % 10);
}

FaultSite site_at(std::uint32_t correlation, std::uint32_t context = 1) {
  FaultSite site;
  site.error = 700;
  site.call = "cudaStreamSynchronize";
  site.thread = 4242;
  site.device = 0;
  site.context_id = context;
  site.correlation_id = correlation;
  return site;
}

TEST(GpuFaultErrors, EveryFaultTheWatchReportsHasANameAndNothingElseHas) {
  for (int error = 0; error < 1000; ++error) {
    EXPECT_EQ(gpu_fault_error(error).has_value(), cupti::is_gpu_fault(error)) << error;
  }
  EXPECT_STREQ(gpu_fault_error(700)->name, "cudaErrorIllegalAddress");
  EXPECT_STREQ(gpu_fault_error(716)->name, "cudaErrorMisalignedAddress");
  EXPECT_STREQ(gpu_fault_error(710)->name, "cudaErrorAssert");
  EXPECT_STREQ(gpu_fault_error(719)->name, "cudaErrorLaunchFailure");
}

TEST(SyncMarks, ADeviceSynchronizationCoversEveryStreamOfItsContextAStreamOnlyItself) {
  SyncMarks marks;
  EXPECT_EQ(marks.finished_below(1, 0x5000, false), 0u);
  marks.device_synchronized(1, 100);
  EXPECT_EQ(marks.finished_below(1, 0x5000, false), 100u);
  EXPECT_EQ(marks.finished_below(1, 0, true), 100u);
  EXPECT_EQ(marks.finished_below(2, 0x5000, false), 0u);  // another device
  marks.stream_synchronized(1, 0x5000, false, 150);
  EXPECT_EQ(marks.finished_below(1, 0x5000, false), 150u);
  EXPECT_EQ(marks.finished_below(1, 0x6000, false), 100u);
  // Marks only rise: an older synchronization reported late changes nothing.
  marks.stream_synchronized(1, 0x5000, false, 120);
  EXPECT_EQ(marks.finished_below(1, 0x5000, false), 150u);
  // The legacy default stream has two spellings; a per-thread default stream is not kept.
  marks.stream_synchronized(1, 0, false, 200);
  EXPECT_EQ(marks.finished_below(1, 0x1, false), 200u);
  marks.stream_synchronized(1, 0x2, false, 300);
  marks.stream_synchronized(1, 0, true, 300);
  EXPECT_EQ(marks.finished_below(1, 0x2, false), 100u);
  EXPECT_EQ(marks.finished_below(1, 0, true), 100u);
  // Unknown contexts are not marked.
  marks.device_synchronized(0, 500);
  EXPECT_EQ(marks.finished_below(0, 0x5000, false), 0u);
}

TEST(SyncMarks, StreamsPastTheTableCountOnlyTheirDevicesMark) {
  SyncMarks marks;
  marks.device_synchronized(1, 10);
  for (std::uintptr_t s = 0; s < SyncMarks::kStreams; ++s)
    marks.stream_synchronized(1, 0x10000 + s * 16, false, 50);
  marks.stream_synchronized(1, 0xfff000, false, 60);
  EXPECT_EQ(marks.finished_below(1, 0x10000, false), 50u);
  EXPECT_EQ(marks.finished_below(1, 0xfff000, false), 10u);
}

TEST(SyncMarks, ConcurrentMarksOfOneStreamKeepTheHighest) {
  SyncMarks marks;
  std::vector<std::thread> threads;
  for (std::uint32_t t = 0; t < 4; ++t) {
    threads.emplace_back([&marks, t] {
      for (std::uint32_t i = 1; i <= 5000; ++i)
        marks.stream_synchronized(3, 0x7000, false, i * 4 + t);
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  EXPECT_EQ(marks.finished_below(3, 0x7000, false), 5000u * 4 + 3);
}

// One thread: alpha x 3, synchronized; then the faulting kernel; the synchronization after it
// returns the fault. The faulting kernel is the only one running: it is named as the one.
TEST(DescribeFault, TheOnlyKernelRunningIsTheKernelThatFaulted) {
  LaunchSlots slots;
  SyncMarks marks;
  const void* stream = reinterpret_cast<const void*>(std::uintptr_t{0x5000});
  for (std::uint32_t c = 1; c <= 3; ++c)
    slots.publish(kAlpha, false, 0, 1, stream, false, c);
  marks.stream_synchronized(1, 0x5000, false, 4);
  slots.publish(kFault, false, 0, 1, stream, false, 5, 7);
  const GpuFault fault = describe_fault(site_at(6), slots.recent(), marks, &step_ranges, &named);
  ASSERT_EQ(fault.running.size(), 1u);
  EXPECT_FALSE(fault.maybe_more);
  EXPECT_EQ(fault.running[0].launch.kernel, kFault);
  EXPECT_EQ(fault.running[0].launch.ranges, "ranges \"outer\" > \"step\"");
  const pid_t me = static_cast<pid_t>(syscall(SYS_gettid));
  const std::vector<std::string> warnings = fault_warnings(fault);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0],
            "the GPU faulted: cudaErrorIllegalAddress (700, an illegal memory access was "
            "encountered) on device 0; cudaStreamSynchronize returned it first, to thread 4242 "
            "(worker2)");
  EXPECT_EQ(warnings[1],
            "the kernel that faulted: run_target_fault(float*) on device 0, stream "
            "0x5000, from thread " +
                std::to_string(me) + " (" + named(me) +
                "), inside NVTX ranges \"outer\" > \"step\", its launch 4 (CUPTI "
                "correlation id 5); it was the only kernel running on device 0 "
                "(launched after the last successful synchronization of its "
                "stream)");
}

// Without a synchronization since, every kernel launched on the faulting context is a suspect,
// named oldest first, whatever thread launched it; those on other contexts and those launched
// after the failing call are not.
TEST(DescribeFault, SeveralKernelsRunningAreEachNamedWithTheirThreads) {
  LaunchSlots slots;
  SyncMarks marks;
  slots.publish(kAlpha, false, 0, 1, nullptr, false, 10);
  std::thread other{[&] { slots.publish(kBeta, false, 0, 1, nullptr, true, 11); }};
  other.join();
  slots.publish(kAlpha, false, 1, 2, nullptr, false, 12);  // another device
  slots.publish(nullptr, true, 0, 1, nullptr, false, 13);  // a graph
  slots.publish(kBeta, false, 0, 0, nullptr, false, 14);   // a context CUPTI did not name
  slots.publish(kFault, false, 0, 1, nullptr, false, 20);  // after the call that failed
  const GpuFault fault = describe_fault(site_at(15), slots.recent(), marks, &no_ranges, &named);
  ASSERT_EQ(fault.running.size(), 4u);
  EXPECT_EQ(fault.running[0].launch.correlation_id, 10u);
  EXPECT_EQ(fault.running[1].launch.correlation_id, 11u);
  EXPECT_TRUE(fault.running[2].launch.graph);
  EXPECT_EQ(fault.running[3].launch.context_id, 0u);
  // The name of a launch that is not its thread's newest is read through CUPTI's pointer.
  EXPECT_EQ(fault.running[0].launch.kernel, kAlpha);
  EXPECT_EQ(fault.running[1].launch.kernel, kBeta);
  const std::vector<std::string> warnings = fault_warnings(fault);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[1].rfind("the fault is in one of 4 kernels running on device 0 (launched "
                              "after the last successful synchronization of their stream; CUPTI "
                              "cannot tell which; the first to run is the likeliest): "
                              "run_target_alpha(float*) on device 0, the default stream, from "
                              "thread ",
                              0),
            0u)
      << warnings[1];
  EXPECT_NE(warnings[1].find("; run_target_beta(float*) on device 0, the thread's default stream"),
            std::string::npos)
      << warnings[1];
  EXPECT_NE(warnings[1].find("; a CUDA graph on device 0"), std::string::npos) << warnings[1];
  EXPECT_EQ(warnings[1].find("correlation id 20"), std::string::npos) << warnings[1];
  EXPECT_EQ(warnings[1].find("correlation id 12"), std::string::npos) << warnings[1];
}

TEST(DescribeFault, ManyKernelsAreCountedAndAFullSlotSaysThereMayBeMore) {
  LaunchSlots slots;
  SyncMarks marks;
  for (std::uint32_t c = 1; c <= 40; ++c)
    slots.publish(kAlpha, false, 0, 1, nullptr, false, c);
  const GpuFault fault = describe_fault(site_at(41), slots.recent(), marks, &no_ranges, &named);
  EXPECT_EQ(fault.running.size(), LaunchSlots::kRecent);
  EXPECT_TRUE(fault.maybe_more);
  const std::string text = fault_warnings(fault)[1];
  EXPECT_NE(text.find("one of at least 16 kernels running on device 0"), std::string::npos) << text;
  EXPECT_NE(text.find("; and 10 launched after them"), std::string::npos) << text;
  // The kernels named are the oldest kept: the first to run.
  EXPECT_NE(text.find("its launch 25 (CUPTI correlation id 25)"), std::string::npos) << text;
  EXPECT_EQ(text.find("correlation id 40)"), std::string::npos) << text;
}

TEST(DescribeFault, NoKernelRunningAndNoWatchAreSaid) {
  LaunchSlots slots;
  SyncMarks marks;
  slots.publish(kAlpha, false, 0, 1, nullptr, false, 1);
  marks.device_synchronized(1, 2);
  FaultSite site = site_at(3);
  site.call = "cuCtxSynchronize";
  site.in_final_synchronization = true;
  GpuFault fault = describe_fault(site, slots.recent(), marks, &no_ranges, &named);
  EXPECT_TRUE(fault.running.empty());
  std::vector<std::string> warnings = fault_warnings(fault);
  EXPECT_EQ(warnings[0],
            "the GPU faulted: cudaErrorIllegalAddress (700, an illegal memory access was "
            "encountered) on device 0; no call kerntime watches returned it to the program (it "
            "may have met it in another, such as cudaGetLastError or an allocation); kerntime's "
            "synchronization at the end of the process found it (cuCtxSynchronize, thread 4242 "
            "(worker2))");
  EXPECT_EQ(warnings[1].rfind("no kernel launched on device 0 since the last successful "
                              "synchronization of its stream is known: the fault came from a copy "
                              "or a memset",
                              0),
            0u)
      << warnings[1];
  fault.launches_watched = false;
  EXPECT_NE(fault_warnings(fault)[1].find("--no-last-launch"), std::string::npos);
}

TEST(DescribeFault, AnUnknownDeviceIsTheRunningKernelsOne) {
  LaunchSlots slots;
  SyncMarks marks;
  slots.publish(kFault, false, 3, 1, nullptr, false, 1);
  FaultSite site = site_at(2);
  site.device = -1;
  site.error = 716;
  const GpuFault fault = describe_fault(site, slots.recent(), marks, &no_ranges, &named);
  EXPECT_EQ(fault.site.device, 3);
  EXPECT_EQ(fault_warnings(fault)[0].rfind("the GPU faulted: cudaErrorMisalignedAddress (716, a "
                                           "misaligned address was accessed) on device 3;",
                                           0),
            0u);
}

TEST(FaultWatch, OnlyTheFirstFaultIsClaimedAndItStaysOncePublished) {
  FaultWatch watch;
  EXPECT_EQ(watch.fault(), nullptr);
  EXPECT_FALSE(watch.claimed());
  EXPECT_TRUE(watch.claim());
  EXPECT_FALSE(watch.claim());
  EXPECT_TRUE(watch.claimed());
  EXPECT_EQ(watch.fault(), nullptr);  // claimed, not yet described
  GpuFault first;
  first.site.error = 710;
  watch.publish(first);
  GpuFault second;
  second.site.error = 700;
  watch.publish(second);
  ASSERT_NE(watch.fault(), nullptr);
  EXPECT_EQ(watch.fault()->site.error, 710);
}

}  // namespace
}  // namespace kerntime::inject
