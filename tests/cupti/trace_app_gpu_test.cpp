// SPDX-License-Identifier: Apache-2.0
// examples/trace_app on a GPU: both tables, cuBLAS's kernels under their scope, a timeline that
// parses, and a report whose trace section reads back.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/report_json.hpp>
#include <kerntime/trace_format.hpp>

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
  // The kernel table in 120 columns: Avg, StdDev and the launch configuration make way for the
  // (short) name.
  for (const char* column : {"Event Med", "Span Med", "Time (%)", "Instances", "Total Time"}) {
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

// The summaries of `nsys stats` beyond kernels, printed after the per-kernel table and made
// again from the report's trace section, with the copies, memsets and calls the program makes.
TEST_F(TraceAppGpu, PrintsTheNsysSummariesAndTheReportGivesThemToo) {
  const std::string dir = ::testing::TempDir();
  const std::string report_path = dir + "trace_app_summaries_report.json";
  std::remove(report_path.c_str());
  const auto r = testing::run_command(std::string{KERNTIME_TRACE_APP} + " " + dir +
                                      "trace_app_summaries_timeline.json " + report_path);
  ASSERT_EQ(r.exit_status, 0) << r.err << r.out;
  for (const char* title :
       {" ** CUDA GPU MemOps Summary (by Time) (cuda_gpu_mem_time_sum):",
        " ** CUDA GPU MemOps Summary (by Size) (cuda_gpu_mem_size_sum):",
        " ** CUDA API Summary (cuda_api_sum):",
        " ** CUDA Kernel Launch & Exec Time Summary (cuda_kern_exec_sum):", "Num Calls",
        "Total (MB)", "QCount", "TAvg", "[CUDA memcpy Host-to-Device]",
        "[CUDA memcpy Device-to-Host]", "[CUDA memcpy Device-to-Device]", "[CUDA memset]"}) {
    EXPECT_TRUE(contains(r.out, title)) << title << " missing:\n" << r.out;
  }

  const Report report = read_report_file(report_path);
  ASSERT_TRUE(report.trace.has_value());
  const auto memory = nlohmann::json::parse(
      render_trace_summary(report, TraceSummaryKind::memory_size, Format::json));
  std::map<std::string, nlohmann::json> operations;
  for (const auto& row : memory["operations"])
    operations[row["operation"].get<std::string>()] = row;
  const std::uint64_t vector_bytes = std::uint64_t{64} << 20;  // every copy moves one vector
  for (const char* copy : {"[CUDA memcpy Host-to-Device]", "[CUDA memcpy Device-to-Host]",
                           "[CUDA memcpy Device-to-Device]"}) {
    ASSERT_EQ(operations.count(copy), 1u) << copy << "\n" << memory.dump(2);
    EXPECT_EQ(operations[copy]["count"], 5) << copy;
    EXPECT_EQ(operations[copy]["total_bytes"], 5 * vector_bytes) << copy;
  }
  // Per step: the upload's 64 MiB memset and the reduction's 4-byte one.
  EXPECT_EQ(operations["[CUDA memset]"]["count"], 10);
  EXPECT_EQ(operations["[CUDA memset]"]["total_bytes"], 5 * (vector_bytes + 4));

  const auto api = nlohmann::json::parse(
      render_trace_summary(report, TraceSummaryKind::api_calls, Format::json));
  std::map<std::string, std::uint64_t> calls;
  for (const auto& row : api["api_calls"])
    calls[row["name"].get<std::string>()] = row["count"].get<std::uint64_t>();
  EXPECT_EQ(calls["cudaMemcpyAsync"], 15u) << api.dump(2);
  EXPECT_EQ(calls["cudaMemsetAsync"], 10u) << api.dump(2);
  EXPECT_GE(calls["cudaLaunchKernel"], 30u) << api.dump(2);  // 6 sample kernels per step

  // Every kernel has its launch: the launch summary's counts add up to the kernels.
  const auto launches = nlohmann::json::parse(
      render_trace_summary(report, TraceSummaryKind::kernel_launches, Format::json));
  std::uint64_t launched = 0;
  for (const auto& row : launches["kernel_launches"]) {
    launched += row["count"].get<std::uint64_t>();
    EXPECT_LE(row["queue_count"].get<std::uint64_t>(), row["count"].get<std::uint64_t>());
    EXPECT_GT(row["kernel"]["min_ns"].get<std::uint64_t>(), 0u);
  }
  EXPECT_EQ(launched, report.trace->counts.kernels);
}

}  // namespace
}  // namespace kerntime
