// SPDX-License-Identifier: Apache-2.0
// Kernel names in the views people read: `kerntime run`'s summary fits a 120-column terminal
// with PyTorch's 500-character names, report and comparison tables shorten them alike, and
// --names full, CSV, JSON and JUnit keep them whole.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/compare.hpp>
#include <kerntime/format.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/trace_format.hpp>

#include "support/kernel_names.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using namespace testing::kernel_names;

std::size_t columns(const std::string& line) {
  return static_cast<std::size_t>(std::count_if(line.begin(), line.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// Every line of `text` fits a terminal of 120 columns.
void expect_fits_120(const std::string& text) {
  for (const std::string& line : lines_of(text))
    EXPECT_LE(columns(line), 120u) << line << "\nin:\n" << text;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The tables of a view, without the warnings under them (which may quote a whole name).
std::string tables(const std::string& text) {
  const std::size_t warning = text.find("warning:");
  return text.substr(0, warning);
}

const std::string kLongRange =
    "aten::scaled_dot_product_attention, seq = 1234, op_id = 98765, sizes = [[32, 16, 2048, 128], "
    "[32, 16, 2048, 128], [32, 16, 2048, 128], [], [], []], input_op_ids = [(98760, 0), (98761, "
    "0), (98762, 0)]";

KernelSummary kernel_row(const std::string& name, std::size_t instances, std::uint64_t total_ns,
                         double percent) {
  KernelSummary row;
  row.name = name;
  row.instances = instances;
  row.total_ns = total_ns;
  row.time_percent = percent;
  row.average_ns = static_cast<double>(total_ns) / static_cast<double>(instances);
  row.median_ns = row.average_ns;
  row.min_ns = static_cast<std::uint64_t>(row.average_ns / 2);
  row.max_ns = static_cast<std::uint64_t>(row.average_ns * 40);
  row.stddev_ns = row.average_ns / 3;
  row.grid = {2097152, 1, 1};
  row.block = {1024, 1, 1};
  return row;
}

Entry kernel_entry(const std::string& name, double scale) {
  Entry entry;
  entry.name = name;
  entry.timer = "cupti-kernel";
  entry.samples = {1000 * scale, 1010 * scale, 990 * scale,
                   1005 * scale, 995 * scale,  1002 * scale};
  entry.statistics = compute_statistics(entry.samples);
  return entry;
}

const std::vector<std::string>& run_kernels() {
  static const std::vector<std::string> names = {
      kNormal, kFill, kAdd,    kNocast, kCutlass,
      kXmma,   kCub,  kThrust, kGemv,   "triton_per_fused_native_layer_norm_0"};
  return names;
}

// What `kerntime run` of a PyTorch step writes: PyTorch's names, counts and times as large as a
// long run makes them, an NVTX range of autograd's shapes, and warnings of a few hundred
// characters.
Report run_report(bool quoting_warning = true) {
  Report report;
  TraceSection trace;
  trace.counts.kernels = 123'456'789;
  const std::vector<std::string>& names = run_kernels();
  for (std::size_t i = 0; i < names.size(); ++i) {
    trace.kernel_summary.push_back(
        kernel_row(names[i], 12'345'678 - i, 987'654'321'000 / (i + 1), 45.6 / (i + 1)));
    report.entries.push_back(kernel_entry(names[i], static_cast<double>(i + 1)));
  }
  RangeSummary step;
  step.name = "step";
  step.instances = 200;
  step.total_ns = 800'000'000;
  step.median_ns = 4'000'000;
  step.kernels = 25'000;
  step.kernel_time_ns = 700'000'000;
  trace.range_summary.push_back(step);
  RangeSummary attention = step;
  attention.name = kLongRange;
  attention.domain = "autograd";
  trace.range_summary.push_back(attention);
  report.trace = trace;
  report.warnings.push_back(
      "10 kernels ran more than --samples-per-kernel (10000) times: their samples are uniform "
      "random subsets; counts, totals, min and max are exact "
      "(at::native::…::distribution_elementwise_grid_stride_kernel<…>, "
      "at::native::vectorized_elementwise_kernel<…>, at::native::elementwise_kernel<…>, and 7 "
      "more)");
  if (quoting_warning) report.warnings.push_back("the last kernel it launched: " + kFill);
  return report;
}

TEST(RunSummaryNames, EveryLineFitsA120ColumnTerminal) {
  const std::string text = render_kernel_summary(run_report(), Format::table);
  expect_fits_120(text);
  // The columns that fit, and the names in the room they leave.
  EXPECT_TRUE(contains(lines_of(text).front(), "Time (%)  Total Time  Instances")) << text;
  EXPECT_FALSE(contains(text, "StdDev")) << text;
  EXPECT_TRUE(contains(text, "  at::native::vectorized_elementwise_kernel<…> #1\n")) << text;
  EXPECT_TRUE(contains(text, "  at::native::vectorized_elementwise_kernel<…> #2\n")) << text;
  EXPECT_TRUE(contains(text, "  at::…::distribution_elementwise_grid_stride_kernel<…>\n")) << text;
  EXPECT_TRUE(contains(text, "  cub::CUB_200200_800_NS::DeviceReduceKernel<…>\n")) << text;
  EXPECT_TRUE(contains(text, "  triton_per_fused_native_layer_norm_0\n")) << text;
  EXPECT_TRUE(contains(text, "\nautograd:aten::scaled_dot_product_att…  ")) << text;
  EXPECT_TRUE(contains(text,
                       "note: names are shortened (template arguments and parameters left "
                       "out) and numbered where they read alike; --names full\n      shows "
                       "them whole\n"))
      << text;
  // A warning's words are all there, on lines of 120 columns.
  EXPECT_TRUE(contains(text, "warning: 10 kernels ran more than --samples-per-kernel (10000) "))
      << text;
  EXPECT_FALSE(contains(text, kNormal)) << text;
}

TEST(RunSummaryNames, FullNamesShowEveryColumnAndTheWholeNames) {
  const std::string text = render_kernel_summary(run_report(), Format::table, NameStyle::full);
  for (const std::string& name : run_kernels())
    EXPECT_TRUE(contains(text, "  " + name + "\n")) << name;
  EXPECT_TRUE(contains(text, "autograd:" + kLongRange)) << text;
  for (const char* column : {"Avg", "StdDev", "GridXYZ", "BlockXYZ"})
    EXPECT_TRUE(contains(lines_of(text).front(), column)) << column;
  EXPECT_FALSE(contains(text, "names are shortened")) << text;
}

TEST(RunSummaryNames, MarkdownIsShortAndCsvAndJsonKeepWholeNames) {
  const Report report = run_report();
  const std::string markdown = render_kernel_summary(report, Format::markdown);
  EXPECT_FALSE(contains(tables(markdown), "FillFunctor")) << markdown;
  EXPECT_TRUE(contains(markdown, "StdDev")) << markdown;  // Markdown has room for every column
  const std::string csv = render_kernel_summary(report, Format::csv);
  const auto json = nlohmann::json::parse(render_kernel_summary(report, Format::json));
  for (std::size_t i = 0; i < run_kernels().size(); ++i) {
    EXPECT_EQ(json["kernels"][i]["name"], run_kernels()[i]);
  }
  EXPECT_TRUE(contains(csv, kFill)) << csv;
  EXPECT_TRUE(contains(csv, kLongRange)) << csv;
}

TEST(RunSummaryNames, TheNsysSummariesOfAReportShortenKernelNamesToo) {
  Report report = run_report();
  KernelActivity kernel;
  kernel.name = kFill;
  kernel.start_ns = 1000;
  kernel.end_ns = 2000;
  LaunchCall launch;
  launch.name = "cudaLaunchKernel";
  launch.start_ns = 500;
  launch.end_ns = 900;
  kernel.launch = launch;
  report.trace->kernels.push_back(kernel);
  const std::string launches =
      render_trace_summary(report, TraceSummaryKind::kernel_launches, Format::table);
  EXPECT_TRUE(contains(launches, "at::native::vectorized_elementwise_kernel<…>")) << launches;
  EXPECT_FALSE(contains(tables(launches), "FillFunctor")) << launches;
  EXPECT_TRUE(contains(render_trace_summary(report, TraceSummaryKind::kernel_launches,
                                            Format::table, NameStyle::full),
                       kFill));
  EXPECT_EQ(render_trace_summary(report, TraceSummaryKind::kernels, Format::table),
            render_kernel_summary(report, Format::table));
}

TEST(ReportTableNames, ShortByDefaultWholeWithNamesFullAndInCsv) {
  const Report report = run_report();
  const std::string table = render(report, Format::table);
  EXPECT_TRUE(contains(table, "\nat::native::vectorized_elementwise_kernel<…> #1 ")) << table;
  EXPECT_TRUE(contains(table, "\nat::native::vectorized_elementwise_kernel<…> #2 ")) << table;
  EXPECT_TRUE(
      contains(table, "\ncutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4> "))
      << table;
  EXPECT_TRUE(contains(table, "note: names are shortened")) << table;
  EXPECT_FALSE(contains(tables(table), "FillFunctor")) << table;
  const std::string markdown = render(report, Format::markdown);
  EXPECT_FALSE(contains(tables(markdown), "FillFunctor")) << markdown;
  EXPECT_TRUE(contains(markdown, "names are shortened")) << markdown;
  EXPECT_TRUE(contains(render(report, Format::table, NameStyle::full), "\n" + kFill + " "));
  EXPECT_TRUE(contains(render(report, Format::csv), kFill));
  EXPECT_EQ(parse_report(render(report, Format::json)).entries[1].name, kFill);
}

TEST(CompareNames, TableAndMarkdownShortJsonAndJunitWhole) {
  // Without the warning that quotes a whole name: a comparison shows warnings above its table.
  const Report baseline = run_report(false);
  Report candidate = run_report(false);
  for (Entry& entry : candidate.entries) {
    for (double& sample : entry.samples)
      sample *= 1.5;
    entry.statistics = compute_statistics(entry.samples);
  }
  const Comparison comparison = compare(baseline, candidate);
  const std::string table = render(comparison, CompareFormat::table);
  EXPECT_TRUE(contains(table, "\nat::native::vectorized_elementwise_kernel<…> #1 ")) << table;
  EXPECT_TRUE(contains(table, "\nat::native::vectorized_elementwise_kernel<…> #2 ")) << table;
  EXPECT_TRUE(contains(table, "note: names are shortened")) << table;
  EXPECT_FALSE(contains(table, "FillFunctor")) << table;
  const std::string markdown = render(comparison, CompareFormat::markdown);
  EXPECT_FALSE(contains(markdown, "FillFunctor")) << markdown;
  EXPECT_TRUE(contains(markdown, "names are shortened")) << markdown;
  EXPECT_TRUE(contains(render(comparison, CompareFormat::table, false, NameStyle::full),
                       "\n" + kFill + " "));
  const auto json = nlohmann::json::parse(render(comparison, CompareFormat::json));
  bool whole = false;
  for (const auto& entry : json["entries"])
    whole = whole || entry["name"] == kFill;
  EXPECT_TRUE(whole) << json.dump().substr(0, 2000);
  const std::string junit = render(comparison, CompareFormat::junit);
  EXPECT_TRUE(contains(junit, "name=\"void at::native::vectorized_elementwise_kernel&lt;4, "))
      << junit.substr(0, 2000);
}

// The commands' --names option, on a report file.
std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "kerntime_names_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

testing::CommandResult kerntime(const std::string& arguments) {
  return testing::run_command("NO_COLOR=1 '" KERNTIME_EXECUTABLE "' " + arguments);
}

TEST(NamesOption, ReportAndCompareTakeShortOrFull) {
  const std::string path = write_temp("run.json", to_json(run_report(false)));
  const auto summary = kerntime("report '" + path + "' --trace-summary cuda_gpu_kern_sum");
  ASSERT_EQ(summary.exit_status, 0) << summary.err;
  expect_fits_120(summary.out);
  EXPECT_TRUE(contains(summary.out, "at::native::vectorized_elementwise_kernel<…> #2"))
      << summary.out;

  const auto short_names = kerntime("report '" + path + "'");
  ASSERT_EQ(short_names.exit_status, 0) << short_names.err;
  EXPECT_FALSE(contains(short_names.out, "FillFunctor")) << short_names.out;
  const auto full = kerntime("report '" + path + "' --names full");
  ASSERT_EQ(full.exit_status, 0) << full.err;
  EXPECT_TRUE(contains(full.out, kFill)) << full.out;

  const auto compared = kerntime("compare '" + path + "' '" + path + "' --names full");
  EXPECT_EQ(compared.exit_status, 0) << compared.err;
  EXPECT_TRUE(contains(compared.out, kFill)) << compared.out;
  const auto shortened = kerntime("compare '" + path + "' '" + path + "'");
  EXPECT_EQ(shortened.exit_status, 0) << shortened.err;
  EXPECT_FALSE(contains(shortened.out, "FillFunctor")) << shortened.out;

  const auto wrong = kerntime("report '" + path + "' --names long");
  EXPECT_EQ(wrong.exit_status, 2) << wrong.out;
  EXPECT_TRUE(contains(wrong.err, "--names")) << wrong.err;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace kerntime
