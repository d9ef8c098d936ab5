// SPDX-License-Identifier: Apache-2.0
// `kerntime report FILE...`: re-renders reports, merging repeated runs into one.
#include <memory>
#include <string>
#include <vector>

#include <kerntime/format.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>

#include "cli/commands.hpp"
#include "io/file_writer.hpp"

namespace kerntime::cli {
namespace {

constexpr const char* kFooter =
    R"(Several files are merged into one report: entries of the same name
concatenate their samples (repeated runs of the same benchmark) and their statistics
are recomputed; entries of the same name must have the same unit and timer. The first
file's environment is kept and differences from it become warnings.

Exit status: 0 success; 2 bad usage or unreadable or malformed input.)";

struct ReportSettings {
  std::vector<std::string> files;
  std::string format = "table";
  std::string output;
};

int run_report(const ReportSettings& s) {
  const Format format = parse_format(s.format);
  std::vector<Report> reports;
  for (const std::string& file : s.files) {
    reports.push_back(read_report_file(file));
  }
  const Report merged = merge_reports(reports, s.files);
  const std::string text = render(merged, format);
  if (s.output.empty()) {
    io::write_standard_output(text);
  } else {
    io::write_file_atomically(s.output, text);
  }
  return 0;
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_status) {
  auto settings = std::make_shared<ReportSettings>();
  CLI::App* command = app.add_subcommand(
      "report", "Render reports as a table, Markdown, CSV or JSON; several files are merged");
  command->footer(kFooter);
  command->add_option("files", settings->files, "Report files (JSON); several are merged")
      ->required();
  command->add_option("--format", settings->format, "table, md, csv or json (default table)")
      ->check(CLI::IsMember({"table", "md", "markdown", "csv", "json"}));
  command->add_option("--output,-o", settings->output, "Write to FILE instead of stdout");
  command->callback([settings, &exit_status] { exit_status = run_report(*settings); });
}

}  // namespace kerntime::cli
