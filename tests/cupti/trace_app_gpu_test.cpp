// SPDX-License-Identifier: Apache-2.0
// examples/trace_app on a GPU: both tables, cuBLAS's kernels under their scope, a timeline that
// parses, and a report whose trace section reads back.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/report_json.hpp>

#include "support/gpu_test.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

class TraceAppGpu : public testing::GpuTest {};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(TraceAppGpu, PrintsBothTablesAndWritesTimelineAndReport) {
  const std::string dir = ::testing::TempDir();
  const std::string timeline = dir + "trace_app_test_timeline.json";
  const std::string report_path = dir + "trace_app_test_report.json";
  std::remove(timeline.c_str());
  std::remove(report_path.c_str());
  const auto r =
      testing::run_command(std::string{KERNTIME_TRACE_APP} + " " + timeline + " " + report_path);
  ASSERT_EQ(r.exit_status, 0) << r.err << r.out;
  for (const char* scope : {"upload", "elementwise", "sgemm (kerntime sample)", "sgemm (cuBLAS)",
                            "reduce", "transpose", "copies", "download", "step"}) {
    EXPECT_TRUE(contains(r.out, std::string{scope} + " ")) << scope << " missing:\n" << r.out;
  }
  for (const char* column : {"Event Med", "Span Med", "Time (%)", "Instances", "StdDev"}) {
    EXPECT_TRUE(contains(r.out, column)) << column;
  }
  EXPECT_TRUE(contains(r.out, "kerntime::samples::saxpy_kernel")) << r.out;
  EXPECT_TRUE(contains(r.out, "dropped records: 0,")) << r.out;

  std::ifstream in(timeline);
  ASSERT_TRUE(in.good()) << "no timeline at " << timeline;
  std::stringstream text;
  text << in.rdbuf();
  const auto chrome = nlohmann::json::parse(text.str());
  ASSERT_TRUE(chrome.contains("traceEvents"));
  EXPECT_GT(chrome["traceEvents"].size(), 50u);

  const Report report = read_report_file(report_path);
  ASSERT_TRUE(report.trace.has_value());
  const TraceSection& t = *report.trace;
  EXPECT_EQ(t.counts.dropped_records, 0u);
  EXPECT_EQ(t.counts.unattributed_kernels, 0u);
  EXPECT_EQ(t.counts.memcpys, 15u);  // 3 per step (HtoD, DtoD, DtoH), 5 steps
  EXPECT_EQ(t.kernels.size(), t.counts.kernels);
  std::size_t cublas_kernels = 0;
  for (const KernelActivity& k : t.kernels) {
    EXPECT_FALSE(k.scope_name.empty()) << k.name;
    if (k.scope_name == "sgemm (cuBLAS)") {
      ++cublas_kernels;
      EXPECT_FALSE(contains(std::string{k.name}, "kerntime")) << k.name;
    }
  }
  EXPECT_GE(cublas_kernels, 5u);
  EXPECT_NE(report.find("sgemm (cuBLAS)"), nullptr);
}

}  // namespace
}  // namespace kerntime
