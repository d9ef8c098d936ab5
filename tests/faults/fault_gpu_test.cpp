// SPDX-License-Identifier: Apache-2.0
// Kernels that fault inside a timed scope, measure(), a traced region and a registered
// benchmark, without CUDA_LAUNCH_BLOCKING: kerntime's error names where it happened, and what
// was measured before stays readable. Each test case runs in its own process (a fault leaves the
// CUDA context unusable), as CTest runs every GoogleTest case on its own.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/session.hpp>
#include <kerntime/tracer.hpp>

#include "faulting_kernels.hpp"
#include "kernels/spin.hpp"
#include "support/gpu_test.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::Fault;

class FaultGpu : public testing::GpuTest, public ::testing::WithParamInterface<Fault> {};

std::string fault_name(const ::testing::TestParamInfo<Fault>& info) {
  switch (info.param) {
    case Fault::illegal_address:
      return "IllegalAddress";
    case Fault::device_assert:
      return "DeviceAssert";
    case Fault::trap:
      return "Trap";
    case Fault::misaligned_address:
      return "MisalignedAddress";
  }
  return "Unknown";
}

TEST_P(FaultGpu, ScopedTimerNamesTheScopeAndKeepsWhatWasRead) {
  Session session;
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  {
    ScopedTimer timer{session, "before", stream};
    samples::launch_spin(10'000, stream);
  }
  ASSERT_EQ(session.samples("before").size(), 1u);  // read before the fault
  {
    ScopedTimer timer{session, "finished unread", stream};
    samples::launch_spin(10'000, stream);
  }
  {
    ScopedTimer timer{session, "faulting", stream};
    testing::launch_faulting_kernel(GetParam(), stream);
  }
  {
    ScopedTimer timer{session, "after", stream};  // enqueued before the fault is known
    samples::launch_spin(10'000, stream);
  }
  std::string message;
  try {
    session.resolve();
    ADD_FAILURE() << "resolve() must report the fault";
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find(cudaGetErrorName(testing::error_of(GetParam()))), std::string::npos)
      << message;
  EXPECT_NE(message.find("inside timed region \"faulting\""), std::string::npos) << message;
  EXPECT_NE(message.find("the first timed scope the GPU did not finish"), std::string::npos)
      << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
  EXPECT_EQ(session.samples("before").size(), 1u) << "the sample read before the fault is kept";
  EXPECT_NO_THROW((void)session.report());
}

TEST_P(FaultGpu, MeasureNamesTheMeasurement) {
  MeasureOptions options;
  options.name = "faulting launcher";
  try {
    (void)measure([](cudaStream_t stream) { testing::launch_faulting_kernel(GetParam(), stream); },
                  options);
    ADD_FAILURE() << "measure() must report the fault";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("measuring \"faulting launcher\" on device"), std::string::npos)
        << message;
    EXPECT_NE(message.find(cudaGetErrorString(testing::error_of(GetParam()))), std::string::npos)
        << message;
  }
}

TEST_P(FaultGpu, TracerNamesTheKernelInFlight) {
  Tracer tracer;
  ASSERT_TRUE(tracer.active()) << tracer.unavailable_reason();
  Session session;
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  {
    ScopedTimer timer{session, "fine", stream};
    samples::launch_spin(10'000, stream);
  }
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  tracer.flush();  // what was flushed before the fault stays in the trace
  {
    ScopedTimer timer{session, "traced faulting", stream};
    testing::launch_faulting_kernel(GetParam(), stream);
  }
  std::string message;
  try {
    tracer.flush();
    ADD_FAILURE() << "flush() must report the fault";
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("in flight when the GPU stopped: kernel "), std::string::npos) << message;
  EXPECT_NE(message.find("_kernel"), std::string::npos) << message;
  EXPECT_NE(message.find("in scope \"traced faulting\""), std::string::npos) << message;
  EXPECT_NE(message.find("launched by thread"), std::string::npos) << message;
  const Trace trace = tracer.trace();
  ASSERT_GE(trace.kernels.size(), 1u) << "the kernel that finished before is kept";
  EXPECT_NE(trace.kernels[0].name.find("spin"), std::string::npos) << trace.kernels[0].name;
  std::printf("fault message: %s\n", message.c_str());
}

INSTANTIATE_TEST_SUITE_P(Kinds, FaultGpu,
                         ::testing::Values(Fault::illegal_address, Fault::device_assert,
                                           Fault::trap),
                         fault_name);

class RunnerFaultGpu : public testing::GpuTest, public ::testing::WithParamInterface<int> {};

TEST_P(RunnerFaultGpu, WritesWhatFinishedAndNamesTheFailedConfiguration) {
  const std::string output =
      ::testing::TempDir() + "fault-report-" + std::to_string(GetParam()) + ".json";
  std::remove(output.c_str());
  const testing::CommandResult r =
      testing::run_command(std::string{KERNTIME_FAULTING_BENCHMARKS} + " --quiet --processes " +
                           std::to_string(GetParam()) + " --output " + output);
  EXPECT_EQ(r.exit_status, 1) << r.err;
  EXPECT_NE(r.err.find("second_trapping/cold: failed:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unspecified launch failure"), std::string::npos) << r.err;
  std::ifstream file{output};
  ASSERT_TRUE(file.good()) << "the report of what finished is written: " << output;
  const nlohmann::json report = nlohmann::json::parse(file);
  bool first = false;
  bool trapping = false;
  for (const auto& entry : report.at("entries")) {
    const std::string name = entry.at("name");
    if (name == "first_spin/cold") first = true;
    if (name.rfind("second_trapping", 0) == 0) trapping = true;
  }
  EXPECT_TRUE(first) << report.dump().substr(0, 2000);
  EXPECT_FALSE(trapping);
  if (GetParam() == 1) {
    EXPECT_NE(r.err.find("third_spin/cold: not measured: a kernel of second_trapping/cold faulted"),
              std::string::npos)
        << r.err;
  }
}

INSTANTIATE_TEST_SUITE_P(Processes, RunnerFaultGpu, ::testing::Values(1, 2));

}  // namespace
}  // namespace kerntime
