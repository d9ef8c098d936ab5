// SPDX-License-Identifier: Apache-2.0
// Invalid measurement options are named before any GPU work.
#include "bench/validate.hpp"

#include <functional>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/measurement.hpp>

#include "support/error_message.hpp"

namespace kerntime {
namespace {

std::string error_of(const std::function<void(MeasureOptions&)>& change) {
  MeasureOptions options;
  change(options);
  return testing::error_message([&] { validate(options); });
}

TEST(Validate, DefaultsAreValid) {
  EXPECT_NO_THROW(validate(MeasureOptions{}));
}

TEST(Validate, CountersNeedUniqueNamesAndFiniteValues) {
  EXPECT_NE(error_of([](auto& o) {
              o.counters = {{"", 1.0}};
            }).find("counters[0] has no name"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) {
              o.counters = {{"a", 1.0}, {"a", 2.0}};
            }).find("two counters named 'a'"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) {
              o.counters = {{"inf", std::numeric_limits<double>::infinity()}};
            }).find("counters 'inf'"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) { o.work.elements = -1; }).find("work.elements"),
            std::string::npos);
  EXPECT_EQ(error_of([](auto& o) {
              o.counters = {{"a", 1.0}, {"b", 2.0, CounterKind::rate}};
            }),
            testing::kNoError);
}

TEST(Validate, EachBadFieldIsNamed) {
  EXPECT_NE(error_of([](auto& o) { o.name.clear(); }).find("name"), std::string::npos);
  EXPECT_NE(error_of([](auto& o) { o.stopping.timeout_s = 0; }).find("stopping.timeout_s"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) { o.stopping.min_samples = 0; }).find("stopping.min_samples"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) { o.stopping.max_noise = -1; }).find("stopping.max_noise"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) {
              o.stopping.min_time_s = std::numeric_limits<double>::infinity();
            }).find("stopping.min_time_s"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) {
              o.stopping.fixed_samples = 10;
              o.stopping.max_samples = 5;
            }).find("stopping.fixed_samples"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) {
              o.stopping.max_ci_half_width_ns = -1;
            }).find("stopping.max_ci_half_width_ns"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) { o.blocking_timeout_s = 0; }).find("blocking_timeout_s"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) { o.throttle_threshold = 1.5; }).find("throttle_threshold"),
            std::string::npos);
  EXPECT_NE(error_of([](auto& o) { o.work.bytes = -1; }).find("work.bytes"), std::string::npos);
}

TEST(Modes, ParseAndNameRoundTrip) {
  for (MeasureMode m : {MeasureMode::cold, MeasureMode::hot, MeasureMode::graph}) {
    EXPECT_EQ(parse_measure_mode(to_string(m)), m);
  }
  EXPECT_THROW(parse_measure_mode("warm"), Error);
  EXPECT_EQ(to_string(StopReason::stable), "stable");
  EXPECT_EQ(to_string(StopReason::fixed_count), "fixed-count");
}

}  // namespace
}  // namespace kerntime
