// SPDX-License-Identifier: Apache-2.0
// The engine's diagnostic switches without a GPU: what each value selects, that a measurement
// under one is told so, and that a value the engine does not know is an error, not the default.
#include "bench/engine_diagnostics.hpp"

#include <string>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>

namespace kerntime::bench {
namespace {

using Flush = CudaSourceSettings::Flush;

TEST(EngineDiagnostics, UnsetOrEmptyIsTheDefaultProtocolWithNoWarning) {
  for (const char* unset : {static_cast<const char*>(nullptr), ""}) {
    const EngineDiagnostics d = parse_engine_diagnostics(unset, unset, unset);
    EXPECT_FALSE(d.quiet_host);
    EXPECT_EQ(d.flush, Flush::memset);
    EXPECT_TRUE(d.phase_padding);
    EXPECT_TRUE(d.warnings.empty());
  }
}

TEST(EngineDiagnostics, TheDefaultsSpelledOutWarnOfNothing) {
  const EngineDiagnostics d = parse_engine_diagnostics("overlap", "memset", "on");
  EXPECT_FALSE(d.quiet_host);
  EXPECT_EQ(d.flush, Flush::memset);
  EXPECT_TRUE(d.phase_padding);
  EXPECT_TRUE(d.warnings.empty());
}

TEST(EngineDiagnostics, EachSwitchSelectsItsProtocolAndIsNamedInAWarning) {
  const struct {
    const char* value;
    Flush flush;
    const char* said;
  } cases[] = {
      {"kernel", Flush::kernel, "a store kernel"},
      {"constant", Flush::constant, "one byte value every sample"},
      {"after-block", Flush::after_block, "after the blocking kernel"},
      {"read", Flush::read, "a kernel's loads"},
  };
  for (const auto& c : cases) {
    const EngineDiagnostics d = parse_engine_diagnostics(nullptr, c.value);
    EXPECT_EQ(d.flush, c.flush) << c.value;
    ASSERT_EQ(d.warnings.size(), 1u) << c.value;
    EXPECT_NE(d.warnings[0].find(std::string{"KERNTIME_L2_FLUSH="} + c.value), std::string::npos);
    EXPECT_NE(d.warnings[0].find(c.said), std::string::npos) << d.warnings[0];
    EXPECT_NE(d.warnings[0].find("not a default measurement"), std::string::npos);
  }
  const EngineDiagnostics both = parse_engine_diagnostics("quiet", "kernel");
  EXPECT_TRUE(both.quiet_host);
  EXPECT_EQ(both.flush, Flush::kernel);
  ASSERT_EQ(both.warnings.size(), 2u);
  EXPECT_NE(both.warnings[0].find("KERNTIME_ENGINE_PIPELINE=quiet"), std::string::npos);
}

TEST(EngineDiagnostics, AMisspeltValueIsAnErrorThatNamesTheValuesItTakes) {
  try {
    parse_engine_diagnostics(nullptr, "kernal");
    FAIL() << "a misspelt KERNTIME_L2_FLUSH was taken as the default";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("KERNTIME_L2_FLUSH=kernal"), std::string::npos) << what;
    EXPECT_NE(what.find("after-block"), std::string::npos) << what;
    EXPECT_NE(what.find("unset it"), std::string::npos) << what;
  }
  try {
    parse_engine_diagnostics("Quiet", nullptr);
    FAIL() << "a misspelt KERNTIME_ENGINE_PIPELINE was taken as the default";
  } catch (const Error& e) {
    EXPECT_NE(std::string{e.what()}.find("KERNTIME_ENGINE_PIPELINE=Quiet"), std::string::npos);
  }
}

TEST(EngineDiagnostics, PaddingOffIsADiagnosticThatWarnsAndAnotherValueIsAnError) {
  const EngineDiagnostics d = parse_engine_diagnostics(nullptr, nullptr, "off");
  EXPECT_FALSE(d.phase_padding);
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_NE(d.warnings[0].find("KERNTIME_ENGINE_PADDING=off"), std::string::npos) << d.warnings[0];
  EXPECT_NE(d.warnings[0].find("not a default measurement"), std::string::npos) << d.warnings[0];
  try {
    parse_engine_diagnostics(nullptr, nullptr, "0");
    FAIL() << "KERNTIME_ENGINE_PADDING=0 was taken as a value";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("KERNTIME_ENGINE_PADDING=0"), std::string::npos) << what;
    EXPECT_NE(what.find("on (the default)"), std::string::npos) << what;
  }
}

TEST(EngineDiagnostics, TheCalibrationIsQuietUnlessAskedToOverlap) {
  EXPECT_TRUE(parse_calibration_quiet_host(nullptr));
  EXPECT_TRUE(parse_calibration_quiet_host(""));
  EXPECT_TRUE(parse_calibration_quiet_host("quiet"));
  EXPECT_FALSE(parse_calibration_quiet_host("overlap"));
  try {
    parse_calibration_quiet_host("overlapped");
    FAIL() << "a misspelt KERNTIME_CALIBRATION_PIPELINE was taken as the default";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("KERNTIME_CALIBRATION_PIPELINE=overlapped"), std::string::npos) << what;
    EXPECT_NE(what.find("quiet is the default"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace kerntime::bench
