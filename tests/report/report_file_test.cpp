// SPDX-License-Identifier: Apache-2.0
// Report files: errors name the path and the system's reason; writes replace whole files.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>

#include "report/sample_report.hpp"
#include "support/error_message.hpp"

namespace kerntime {
namespace {

std::string temp_path(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "kerntime_" + info->name() + "_" + name;
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool exists(const std::string& path) {
  return std::ifstream(path).good();
}

template <typename F>
std::string error_of(F&& f) {
  return testing::error_message(std::forward<F>(f));
}

TEST(ReportFile, WritesToJsonAndReadsItBack) {
  const std::string path = temp_path("report.json");
  const Report original = testing::sample_report();
  write_report_file(original, path);
  EXPECT_EQ(contents(path), to_json(original));
  EXPECT_FALSE(exists(path + ".tmp"));
  const Report read = read_report_file(path);
  ASSERT_EQ(read.entries.size(), original.entries.size());
  EXPECT_EQ(read.entries[1].name, "gemm<float, 128>");
  EXPECT_EQ(read.entries[1].samples, original.entries[1].samples);
  std::remove(path.c_str());
}

TEST(ReportFile, ReplacesAnExistingFile) {
  const std::string path = temp_path("report.json");
  std::ofstream(path) << std::string(100000, 'x');
  Report report;
  report.entries.push_back(Entry{"k", "ns", "", std::nullopt, {1.0}, {}});
  write_report_file(report, path);
  EXPECT_EQ(contents(path), to_json(report));
  std::remove(path.c_str());
}

TEST(ReportFile, MissingFileNamesPathAndReason) {
  const std::string path = temp_path("missing.json");
  EXPECT_EQ(error_of([&] { read_report_file(path); }),
            path + ": cannot open report: No such file or directory");
}

TEST(ReportFile, DirectoryNamesPathAndReason) {
  const std::string path = ::testing::TempDir();
  EXPECT_EQ(error_of([&] { read_report_file(path); }),
            path + ": cannot read report: Is a directory");
}

TEST(ReportFile, ParseErrorsNameThePath) {
  const std::string path = temp_path("bad.json");
  std::ofstream(path) << R"({"schema": "kerntime-report/1", "entries": [{"name": "a"}]})";
  EXPECT_EQ(error_of([&] { read_report_file(path); }),
            path + ": entries[0].samples: missing; expected an array of durations in ns");
  std::remove(path.c_str());
}

TEST(ReportFile, UnwritableDirectoryNamesPathAndReason) {
  const std::string path = temp_path("no-such-dir") + "/report.json";
  EXPECT_EQ(error_of([&] { write_report_file(Report{}, path); }),
            "cannot write " + path + ": No such file or directory");
}

TEST(ReportFile, InvalidReportIsNotWritten) {
  const std::string path = temp_path("nan.json");
  Report report;
  report.entries.push_back(Entry{"k", "ns", "", std::nullopt, {std::nan("")}, {}});
  EXPECT_EQ(
      error_of([&] { write_report_file(report, path); }),
      path + ": cannot write report: entries[0].samples[0]: expected a finite number, got nan");
  EXPECT_FALSE(exists(path));
  EXPECT_FALSE(exists(path + ".tmp"));
}

}  // namespace
}  // namespace kerntime
