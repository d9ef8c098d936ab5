// SPDX-License-Identifier: Apache-2.0
// `kerntime report FILE...`: re-renders reports, merging repeated runs into one.
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <climits>

#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>

#include "cli/commands.hpp"
#include "cli/report_input.hpp"
#include "io/file_writer.hpp"

namespace kerntime::cli {
namespace {

constexpr const char* kFooter =
    R"(Several files are merged into one report that keeps them apart: each file becomes
one run (process) of every entry it measured, or several when it already holds runs,
so that 'kerntime compare' can judge each entry at the noise between processes
(docs/ci.md). Statistics are recomputed over all samples. Entries of the same name
must have the same unit and timer; the first file's environment is kept and other
differences from it become warnings.

Refused (exit status 2): the same file given twice (same path or the same bytes),
reports measured on different GPU models or compute capabilities, an entry without
samples, same-name entries whose unit or timer differ.

'-' reads a report from standard input; '-o -' writes to standard output. Without
--format, '-o FILE' takes the format its extension names (.json, .md, .csv; else the
table), as the benchmark runner's --output does.

Exit status: 0 success; 2 bad usage or unreadable or malformed input.)";

struct ReportSettings {
  std::vector<std::string> files;
  std::string format;  ///< empty: what the --output file's extension names, else table
  std::string output;
};

// The file itself, whatever path names it (./a.json, a link to it), when it exists.
std::string canonical_path(const std::string& path) {
  char resolved[PATH_MAX];
  return ::realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

int run_report(const ReportSettings& s) {
  const bool to_file = !s.output.empty() && s.output != "-";
  const Format format = !s.format.empty() ? parse_format(s.format)
                        : to_file         ? format_for_path(s.output)
                                          : Format::table;
  std::vector<Report> reports;
  std::vector<std::string> names;
  std::vector<std::string> paths;
  std::vector<std::string> texts;
  // Several files: merge_reports() computes every merged entry's statistics, so the interval of
  // each file's own entries would be computed only to be thrown away. One file is shown as read.
  StatisticsOptions statistics;
  statistics.median_interval = s.files.size() == 1;
  for (const std::string& file : s.files) {
    const std::string name = report_display_name(file);
    const std::string path = file == "-" ? file : canonical_path(file);
    std::string text = read_report_text(file);
    // Merging one run twice would double its weight and fake a second process.
    for (std::size_t i = 0; i < texts.size(); ++i) {
      if (paths[i] == path) {
        throw Error(name + " is given twice; each report can be merged only once.");
      }
      if (texts[i] == text) {
        throw Error(name + " has the same content as " + names[i] +
                    "; the same report can be merged only once (each file must be a separate "
                    "run).");
      }
    }
    reports.push_back(parse_report(text, name, statistics));
    names.push_back(name);
    paths.push_back(path);
    texts.push_back(std::move(text));
  }
  const Report merged = merge_reports(reports, names);
  const std::string text = render(merged, format);
  if (s.output.empty() || s.output == "-") {
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
      "report",
      "Render reports as a table, Markdown, CSV or JSON; several files are merged as runs");
  command->footer(kFooter);
  command
      ->add_option("files", settings->files,
                   "Report files (JSON; - for stdin); several are merged, one run each")
      ->required();
  command
      ->add_option("--format", settings->format,
                   "table, md, csv or json (default: what the --output file's extension names "
                   "(.json, .md, .csv), else table)")
      ->check(CLI::IsMember({"table", "md", "markdown", "csv", "json"}));
  command->add_option("--output,-o", settings->output,
                      "Write to FILE instead of stdout (- for stdout)");
  command->callback([settings, &exit_status] { exit_status = run_report(*settings); });
}

}  // namespace kerntime::cli
