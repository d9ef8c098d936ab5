// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <kerntime/report.hpp>

#include "report/sample_report.hpp"

namespace kerntime {
namespace {

TEST(ReportFind, ReturnsTheEntryWithThatName) {
  const Report report = testing::sample_report();
  const Entry* gemm = report.find("gemm<float, 128>");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm, &report.entries[1]);
  EXPECT_EQ(gemm->samples.size(), 5u);
}

TEST(ReportFind, ReturnsNullForAnUnknownName) {
  const Report report = testing::sample_report();
  EXPECT_EQ(report.find("gemm"), nullptr);  // a prefix is not a match
  EXPECT_EQ(report.find(""), nullptr);
  EXPECT_EQ(Report{}.find("saxpy"), nullptr);
}

TEST(ReportFind, NewReportCarriesTheSchema) {
  EXPECT_EQ(Report{}.schema, "kerntime-report/1");
}

}  // namespace
}  // namespace kerntime
