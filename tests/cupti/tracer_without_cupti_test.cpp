// SPDX-License-Identifier: Apache-2.0
// A machine or container without libcupti: the Tracer says so and kerntime keeps working.
// CUPTI is probed once per process; CTest runs every test case in a process of its own, so
// setting KERNTIME_CUPTI_LIBRARY first thing in the test decides what that probe finds.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/tracer.hpp>

#include "cupti/cupti_library.hpp"
#include "events/scope_listener.hpp"

namespace kerntime {
namespace {

TEST(TracerWithoutCupti, IsUnavailableAndSaysWhy) {
  ::setenv("KERNTIME_CUPTI_LIBRARY", "/nonexistent/libcupti.so.13", 1);
  ASSERT_FALSE(cupti::probe_cupti().loaded) << "CUPTI was probed before this test set its path";

  Tracer tracer;
  EXPECT_EQ(tracer.status(), TracerStatus::unavailable);
  EXPECT_FALSE(tracer.active());
  const std::string reason = tracer.unavailable_reason();
  EXPECT_NE(reason.find("CUPTI could not be loaded"), std::string::npos) << reason;
  EXPECT_NE(reason.find("/nonexistent/libcupti.so.13"), std::string::npos) << reason;
  EXPECT_EQ(tracer.cupti_version(), 0);
  EXPECT_EQ(events::scope_listener(), nullptr);  // scopes cost nothing without a tracer

  tracer.flush();  // no-op, no throw
  tracer.clear();
  const Trace trace = tracer.trace();
  EXPECT_TRUE(trace.kernels.empty());
  ASSERT_EQ(trace.warnings.size(), 1u);
  EXPECT_NE(trace.warnings[0].find("kernel tracing is unavailable"), std::string::npos);
  tracer.stop();
  EXPECT_EQ(tracer.status(), TracerStatus::unavailable);

  Tracer again;  // and again, cheaply
  EXPECT_EQ(again.unavailable_reason(), reason);
}

}  // namespace
}  // namespace kerntime
