// SPDX-License-Identifier: Apache-2.0
// `kerntime report FILE...`: re-renders reports (kerntime's, Google Benchmark's, NVBench's),
// merging repeated runs into one; writes Google Benchmark JSON; shows the nsys-style summaries
// of a report's trace section.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <climits>
#include <fmt/format.h>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/trace_format.hpp>

#include "cli/commands.hpp"
#include "cli/report_input.hpp"
#include "io/file_writer.hpp"
#include "io/json_text.hpp"

namespace kerntime::cli {
namespace {

constexpr const char* kFooter =
    R"(Several files are merged into one report that keeps them apart: each file becomes
one run (process) of every entry it measured, or several when it already holds runs,
so that 'kerntime compare' can judge each entry at the noise between processes
(docs/ci.md). Statistics are recomputed over all samples. Entries of the same name
must have the same unit and timer; the first file's environment is kept and other
differences from it become warnings. Trace sections are not merged (separate runs share
no clock); a warning on standard error names the files whose traces were dropped.

Refused (exit status 2): the same file given twice (same path or the same bytes),
reports measured on different GPU models or compute capabilities, an entry without
samples, same-name entries whose unit or timer differ.

Input: kerntime-report/1, Google Benchmark JSON (--benchmark_format=json) and NVBench
JSON (--json, --jsonbin: its sample files are read from beside the file), told apart by
content. A file of summaries only gives one sample per entry; a warning says so.

Output: --format gbench-json writes Google Benchmark JSON (each sample one repetition, then
the mean, median, stddev and cv aggregates), which github-action-benchmark, Bencher and
conbench read; --aggregates-only writes the aggregates alone. --trace-summary NAME shows a
summary of the report's trace section instead of its entries, with nsys's columns:
cuda_gpu_kern_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, cuda_api_sum,
cuda_kern_exec_sum, or all (repeatable; csv takes one).

--format html (or -o FILE.html) writes one self-contained page. Of one file: the entries
with their distributions, the engine's measurements and, for a traced report, where the GPU
time went (kernels, NVTX ranges, copies, API calls). Of several files: not a merge but a trend,
the files in the order given (oldest first, one per commit), each a point named by its --label
(default: the file name); a chart per entry marks the steps that beat --threshold (default 5%)
and the noise between processes. To see several runs merged as one page, merge them to JSON
first ('kerntime report a.json b.json -o merged.json').

'-' reads a report from standard input; '-o -' writes to standard output. Without
--format, '-o FILE' takes the format its extension names (.json, .md, .csv, .html; .txt or
none the table), as the benchmark runner's --output does.

Exit status: 0 success; 2 bad usage or unreadable or malformed input.)";

struct ReportSettings {
  std::vector<std::string> files;
  std::string format;  ///< empty: what the --output file's extension names, else table
  std::string output;
  bool aggregates_only = false;
  std::vector<std::string> trace_summaries;
  std::string names = "short";
  std::vector<std::string> labels;  ///< the trend page's point names, one per file
  std::string threshold;            ///< the trend page's step threshold; empty: 5%
};

constexpr const char* kGbenchFormat = "gbench-json";

std::vector<TraceSummaryKind> summary_kinds(const std::vector<std::string>& names) {
  std::vector<TraceSummaryKind> kinds;
  for (const std::string& name : names) {
    if (name == "all") {
      kinds.insert(kinds.end(), kTraceSummaryKinds.begin(), kTraceSummaryKinds.end());
    } else {
      kinds.push_back(parse_trace_summary_kind(name));
    }
  }
  return kinds;
}

// The summaries one after another: titled as `nsys stats` titles them in a table, as headings
// in Markdown, one object keyed by report name in JSON; CSV holds one table only.
std::string render_summaries(const Report& report, const std::vector<TraceSummaryKind>& kinds,
                             Format format, NameStyle names) {
  if (format == Format::csv && kinds.size() != 1) {
    throw Error("--format csv holds one table: give one --trace-summary, not " +
                std::to_string(kinds.size()));
  }
  if (!report.trace) {
    throw Error(
        "--trace-summary: the report has no trace section (record with a "
        "kerntime::Tracer and attach_trace); one report file, not several, keeps its own");
  }
  if (format == Format::csv) return render_trace_summary(report, kinds.front(), format, names);
  std::string out;
  if (format == Format::json) {
    if (kinds.size() == 1) return render_trace_summary(report, kinds.front(), format, names);
    out = "{";
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      std::string one = render_trace_summary(report, kinds[i], format, names);
      one.pop_back();  // its final newline
      out += (i == 0 ? "\n  \"" : ",\n  \"") + std::string{to_string(kinds[i])} + "\": ";
      out += io::nested_json(one, 1);
    }
    return out + "\n}\n";
  }
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const std::string title =
        std::string{summary_title(kinds[i])} + " (" + std::string{to_string(kinds[i])} + ")";
    out += i == 0 ? "" : "\n";
    out += format == Format::markdown ? "### " + title + "\n\n" : " ** " + title + ":\n\n";
    out += render_trace_summary(report, kinds[i], format, names);
  }
  return out;
}

// merge_reports() keeps no trace section: separate runs share no clock and no record ids to
// line their records up by. The merged report is often written to a file (-o base.json), so
// the one line goes to standard error, where it is seen whatever the format; a warning inside
// the report would follow the baseline into every later comparison.
void warn_of_dropped_traces(const std::vector<Report>& reports,
                            const std::vector<std::string>& names) {
  if (reports.size() < 2) return;
  std::string traced;
  std::size_t count = 0;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (!reports[i].trace) continue;
    traced += (count++ == 0 ? "" : ", ") + names[i];
  }
  if (count == 0) return;
  fmt::print(stderr,
             "kerntime report: warning: dropped the trace section{} of {}: the traces of separate "
             "runs share no clock to merge them on; 'kerntime report FILE --trace-summary all' "
             "shows one file's trace\n",
             count == 1 ? "" : "s", traced);
}

// The file itself, whatever path names it (./a.json, a link to it), when it exists.
std::string canonical_path(const std::string& path) {
  char resolved[PATH_MAX];
  return ::realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

bool names_html(const std::string& path) {
  const auto ends = [&path](const std::string& suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends(".html") || ends(".htm");
}

// A trend point is named by its file without folder and extension: runs/3f2a1c9.json is
// 3f2a1c9, as CI jobs name a commit's report; runs/3f2a1c9/report.json, one of several
// report.json files, is 3f2a1c9/report.
std::vector<std::string> point_names(const std::vector<std::string>& files) {
  const auto stem_of = [](std::string path, bool with_folder) {
    const auto slash = path.rfind('/');
    std::string folder;
    if (slash != std::string::npos && slash + 1 < path.size()) {
      const auto before = path.rfind('/', slash == 0 ? 0 : slash - 1);
      folder = path.substr(before == std::string::npos ? 0 : before + 1,
                           slash - (before == std::string::npos ? 0 : before + 1));
      path = path.substr(slash + 1);
    }
    const auto dot = path.rfind('.');
    if (dot != std::string::npos && dot > 0) path = path.substr(0, dot);
    return with_folder && !folder.empty() ? folder + "/" + path : path;
  };
  std::vector<std::string> out;
  for (const std::string& file : files)
    out.push_back(stem_of(report_display_name(file), false));
  // Files of one name in several folders (runs/3f2a1c9/report.json) are named by folder too.
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (std::count(out.begin(), out.end(), out[i]) > 1) {
      for (std::size_t j = 0; j < out.size(); ++j) {
        if (j != i && out[j] == out[i]) out[j] = stem_of(report_display_name(files[j]), true);
      }
      out[i] = stem_of(report_display_name(files[i]), true);
    }
  }
  return out;
}

void write_output(const std::string& output, const std::string& text) {
  if (output.empty() || output == "-") {
    io::write_standard_output(text);
  } else {
    io::write_file_atomically(output, text);
  }
}

int run_report(const ReportSettings& s) {
  const bool gbench = s.format == kGbenchFormat;
  const bool to_file = !s.output.empty() && s.output != "-";
  const bool html = s.format == "html" || (s.format.empty() && to_file && names_html(s.output));
  if (html && !s.trace_summaries.empty()) {
    throw Error(
        "--trace-summary writes one summary as text; --format html shows the trace "
        "section's kernels and ranges itself");
  }
  const Format format = gbench || html      ? Format::json
                        : !s.format.empty() ? parse_format(s.format)
                        : to_file           ? format_for_path(s.output)
                                            : Format::table;
  if (s.aggregates_only && !gbench) {
    throw Error("--aggregates-only applies to --format gbench-json only");
  }
  if (gbench && !s.trace_summaries.empty()) {
    throw Error(
        "--trace-summary writes kerntime's summaries; --format gbench-json has no room "
        "for them");
  }
  const bool trend = html && s.files.size() > 1;
  if (!trend && (!s.labels.empty() || !s.threshold.empty())) {
    throw Error(std::string{s.labels.empty() ? "--threshold" : "--label"} +
                " applies to the trend page only: --format html with several report files");
  }
  if (trend && !s.labels.empty() && s.labels.size() != s.files.size()) {
    throw Error(
        fmt::format("--label was given {} times for {} report files; name every point "
                    "or none (then each is named by its file)",
                    s.labels.size(), s.files.size()));
  }
  Thresholds thresholds;
  if (!s.threshold.empty()) thresholds.add(s.threshold);
  if (!thresholds.rules.empty()) {
    throw Error(
        "--threshold of the trend page is one fraction for every entry ('5%' or 0.05), "
        "not a rule per entry: " +
        s.threshold);
  }
  const double threshold = thresholds.default_fraction;
  const std::vector<TraceSummaryKind> kinds = summary_kinds(s.trace_summaries);
  const NameStyle style = s.names == "full" ? NameStyle::full : NameStyle::short_form;
  std::vector<Report> reports;
  std::vector<std::string> names;
  std::vector<std::string> paths;
  std::vector<std::string> texts;
  // Several files: merge_reports() computes every merged entry's statistics, so the interval of
  // each file's own entries would be computed only to be thrown away. One file is shown as read.
  StatisticsOptions statistics;
  statistics.median_interval = s.files.size() == 1 || trend;
  for (const std::string& file : s.files) {
    const std::string name = report_display_name(file);
    const std::string path = file == "-" ? file : canonical_path(file);
    std::string text = read_report_text(file);
    // Merging one run twice would double its weight and fake a second process.
    for (std::size_t i = 0; i < texts.size(); ++i) {
      if (paths[i] == path) {
        throw Error(name + " is given twice; " +
                    (trend ? std::string{"each file is one point of the trend (a copy of it under "
                                         "another name may stand for another commit)."}
                           : std::string{"each report can be merged only once."}));
      }
      // A trend may hold the same report at two points (a commit whose benchmarks were not run
      // again); a merge would count it as two processes.
      if (!trend && texts[i] == text) {
        throw Error(name + " has the same content as " + names[i] +
                    "; the same report can be merged only once (each file must be a separate "
                    "run).");
      }
    }
    reports.push_back(parse_any_report(text, name, report_read_options(file, statistics)));
    names.push_back(name);
    paths.push_back(path);
    texts.push_back(std::move(text));
  }
  std::string text;
  if (trend) {
    text = render_html_trend(reports, s.labels.empty() ? point_names(s.files) : s.labels, style,
                             threshold);
    write_output(s.output, text);
    return 0;
  }
  const Report merged = merge_reports(reports, names);
  // --trace-summary of several files fails below, saying why.
  if (kinds.empty()) warn_of_dropped_traces(reports, names);
  if (html) {
    text = render_html(merged, style);
  } else if (gbench) {
    GoogleBenchmarkJsonOptions options;
    options.aggregates_only = s.aggregates_only;
    text = to_google_benchmark_json(merged, options);
  } else if (!kinds.empty()) {
    text = render_summaries(merged, kinds, format, style);
  } else {
    text = render(merged, format, style);
  }
  write_output(s.output, text);
  return 0;
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_status) {
  auto settings = std::make_shared<ReportSettings>();
  CLI::App* command = app.add_subcommand(
      "report",
      "Render reports (also Google Benchmark and NVBench JSON) as a table, Markdown, CSV, JSON or "
      "Google Benchmark JSON; several files are merged as runs, or drawn as a trend with "
      "--format html");
  command->footer(kFooter);
  command
      ->add_option("files", settings->files,
                   "Report files (kerntime, Google Benchmark or NVBench JSON; - for stdin); "
                   "several are merged, one run each (--format html: a trend, one point each)")
      ->type_name("FILE")
      ->required();
  command
      ->add_option("--format", settings->format,
                   "table, md, csv, json, html or gbench-json (Google Benchmark's; default: what "
                   "the --output file's extension names (.json, .md, .csv, .html; .txt or none: "
                   "table))")
      ->check(CLI::IsMember({"table", "md", "markdown", "csv", "json", "html", kGbenchFormat}));
  command->add_flag("--aggregates-only", settings->aggregates_only,
                    "gbench-json: the mean, median, stddev and cv of each entry only");
  command
      ->add_option("--trace-summary", settings->trace_summaries,
                   "Show a summary of the trace section (nsys's name: cuda_gpu_mem_time_sum, "
                   "cuda_api_sum, ..., or all) instead of the entries; repeatable")
      ->allow_extra_args(false);
  command
      ->add_option("--names", settings->names,
                   "Names in the table and Markdown: short (template arguments and parameters "
                   "elided) or full")
      ->check(CLI::IsMember({"short", "full"}))
      ->default_str("short");
  command
      ->add_option("--label", settings->labels,
                   "Trend page (--format html, several files): the name of each file's point, "
                   "such as its commit, in the files' order; repeatable")
      ->allow_extra_args(false)
      ->type_name("TEXT");
  command->add_option("--threshold", settings->threshold,
                      "Trend page: the smallest step marked, '5%' or 0.05 (default 5%)");
  command
      ->add_option("--output,-o", settings->output,
                   "Write to FILE instead of stdout (- for stdout)")
      ->type_name("FILE");
  command->callback([settings, &exit_status] { exit_status = run_report(*settings); });
}

}  // namespace kerntime::cli
