// SPDX-License-Identifier: Apache-2.0
// Report files, read through io::read_file_bounded (bounded, regular files only) and written
// through io::write_file_atomically.
#include <filesystem>
#include <string>

#include <kerntime/error.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>

#include "io/file_reader.hpp"
#include "io/file_writer.hpp"
#include "io/path_in_message.hpp"

namespace kerntime {

Report read_report_file(const std::string& path) {
  // "-" is a file of that name here; only the commands read standard input.
  const std::string open_path = path == "-" ? "./-" : path;
  const std::string name = io::path_in_message(path);
  return parse_report(io::read_file_bounded(open_path, name, kMaxReportFileBytes, "report"), name);
}

Report read_any_report_file(const std::string& path, const StatisticsOptions& statistics) {
  const std::string open_path = path == "-" ? "./-" : path;
  const std::string name = io::path_in_message(path);
  return parse_any_report(io::read_file_bounded(open_path, name, kMaxReportFileBytes, "report"),
                          name, read_options_for_file(open_path, statistics));
}

ReportReadOptions read_options_for_file(const std::string& path,
                                        const StatisticsOptions& statistics) {
  ReportReadOptions options;
  options.statistics = statistics;
  const std::filesystem::path folder = std::filesystem::path{path}.parent_path();
  options.nvbench_directory = folder.empty() ? "." : folder.string();
  options.nvbench_json_name = std::filesystem::path{path}.filename().string();
  return options;
}

// Written next to the target and renamed over it (io::write_file_atomically), so an
// interrupted write never leaves a truncated baseline behind.
void write_report_file(const Report& report, const std::string& path) {
  std::string text;
  try {
    text = to_json(report);
  } catch (const Error& e) {
    throw Error(io::path_in_message(path) + ": " + e.what());
  }
  io::write_file_atomically(path, text);
}

}  // namespace kerntime
