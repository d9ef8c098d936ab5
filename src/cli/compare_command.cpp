// SPDX-License-Identifier: Apache-2.0
// `kerntime compare BASELINE CANDIDATE`: the CI regression gate. Wiring only; the decisions live
// in kerntime::compare() (include/kerntime/compare.hpp, docs/ci.md).
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include <fmt/core.h>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/report_json.hpp>

#include "cli/commands.hpp"
#include "cli/report_input.hpp"
#include "io/file_writer.hpp"

namespace kerntime::cli {
namespace {

constexpr const char* kFooter = R"(Verdicts:
  same          no change beyond the threshold, shown by the confidence interval
  regressed     significantly slower (rank test p < alpha), the median slower by more
                than the threshold and the confidence interval by more than half of it
  improved      the same, faster
  inconclusive  too few samples or too noisy to tell; the reason says what would help
  added         only in CANDIDATE
  removed       only in BASELINE

Thresholds: '--threshold 3%' (or 0.03) sets the default wherever it appears;
'--threshold "gemm/*=10%"' sets it for entries matching the glob (* any characters,
? one); among patterns the last match wins.

Runs: a report that holds several runs (processes) per entry, from a benchmark run
with --processes or merged with 'kerntime report a.json b.json ... --format json', is
judged from its per-run medians, at the noise between processes that each entry
shows. With one run per side that noise is unseen and an allowance (400 ns or 1.5 %,
the larger) stands in for it; the output says so above the table.

Input and output: BASELINE and CANDIDATE are kerntime reports, Google Benchmark JSON or
NVBench JSON (its --jsonbin sample files read from beside it), told apart by content.
'-' as BASELINE or CANDIDATE reads standard input; '-o -' writes the
chosen format to stdout. Without --output the chosen format goes to stdout; with
--output FILE it goes to FILE and the table goes to stdout for the log. Without --format,
FILE's extension chooses (.json, .md, .xml or .junit, .html; .txt or none the table), as for 'kerntime
report' and the benchmark runner. With
--format junit a file is written even when the comparison fails with status 2: one
test case with an <error> that says why.

Exit status: 0 nothing regressed; 1 an entry regressed (or was removed with
--fail-on-removed, or is inconclusive with --fail-on-inconclusive); 2 bad usage or
unreadable or malformed input, no entry names in common, or no entry comparable
because every one was measured with another timer on the two sides. See docs/ci.md.)";

struct CompareSettings {
  std::string baseline;
  std::string candidate;
  std::vector<std::string> thresholds;
  double alpha = CompareOptions{}.alpha;
  // Text, checked here: CLI11 would wrap a negative count or clamp one past its integer type.
  std::string min_samples = std::to_string(CompareOptions{}.min_samples);
  std::string min_change = "0";
  std::string process_allowance;  ///< empty: by timer
  std::string format;             ///< empty: what the --output file's extension names, else table
  std::string output;
  std::string color = "auto";
  std::string names = "short";
  bool fail_on_removed = false;
  bool fail_on_inconclusive = false;
};

bool stdout_wants_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  // NO_COLOR (no-color.org) and dumb terminals opt out of "auto".
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return isatty(fileno(stdout)) != 0;
}

// A whole number from 1 up to kMaxMinSamples, written in decimal digits only.
std::size_t parse_min_samples(const std::string& text) {
  // Far above any report (each sample is a timed launch) and far below overflow.
  constexpr unsigned long long kMaxMinSamples = 1'000'000'000'000ULL;
  unsigned long long value = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || stop != end || error != std::errc() || value < 1 || value > kMaxMinSamples) {
    throw Error(fmt::format("--min-samples: '{}' is not a whole number from 1 to {}.", text,
                            kMaxMinSamples));
  }
  return static_cast<std::size_t>(value);
}

// The two reports live only while they are compared: the renderings need the comparison alone,
// and for reports of many small entries the models are the larger part of the memory.
Comparison compare_files(const std::string& baseline_path, const std::string& candidate_path,
                         const CompareOptions& options) {
  // The verdicts use the samples; no view of a comparison shows a report's median interval, so
  // its bootstrap (seconds for large reports) is skipped.
  StatisticsOptions statistics;
  statistics.median_interval = false;
  const Report baseline = read_report_argument(baseline_path, statistics);
  const Report candidate = read_report_argument(candidate_path, statistics);
  return compare(baseline, candidate, options);
}

int compare_reports(const CompareSettings& s, CompareFormat format) {
  CompareOptions options;
  options.alpha = s.alpha;
  options.min_samples = parse_min_samples(s.min_samples);
  try {
    options.set_min_change(s.min_change);
  } catch (const Error& error) {
    throw Error(std::string("--min-change: ") + error.what());
  }
  if (!s.process_allowance.empty()) {
    try {
      options.set_process_allowance(s.process_allowance);
    } catch (const Error& error) {
      throw Error(std::string("--process-allowance: ") + error.what());
    }
  }
  options.fail_on_removed = s.fail_on_removed;
  options.fail_on_inconclusive = s.fail_on_inconclusive;
  for (const std::string& spec : s.thresholds) {
    options.thresholds.add(spec);
  }
  options.baseline_source = report_display_name(s.baseline);
  options.candidate_source = report_display_name(s.candidate);
  if (s.baseline == "-" && s.candidate == "-") {
    throw Error("BASELINE and CANDIDATE cannot both be standard input ('-').");
  }

  // The HTML page draws each side's samples, so it keeps the reports; the other views need the
  // comparison alone.
  std::optional<Report> baseline;
  std::optional<Report> candidate;
  Comparison comparison;
  if (format == CompareFormat::html) {
    StatisticsOptions statistics;
    statistics.median_interval = false;
    baseline = read_report_argument(s.baseline, statistics);
    candidate = read_report_argument(s.candidate, statistics);
    comparison = compare(*baseline, *candidate, options);
  } else {
    comparison = compare_files(s.baseline, s.candidate, options);
  }
  if (!comparison.usable()) throw Error(comparison.unusable_reason);

  // Rendered piece by piece: a comparison of a million entries is never held as one string.
  const auto to_stdout = [](std::string_view piece) { io::write_standard_output(piece); };
  const bool color = stdout_wants_color(s.color);
  const NameStyle names = s.names == "full" ? NameStyle::full : NameStyle::short_form;
  const auto render_chosen = [&](const TextSink& sink, bool colored) {
    if (baseline && candidate) {
      render_html_to(comparison, *baseline, *candidate, sink, names);
    } else {
      render_to(comparison, format, sink, colored, names);
    }
  };
  if (s.output.empty()) {
    render_chosen(to_stdout, color);
  } else if (s.output == "-") {
    render_chosen(to_stdout, s.color == "always");
  } else {
    io::AtomicFileWriter file(s.output);
    render_chosen([&file](std::string_view piece) { file.write(piece); }, s.color == "always");
    file.commit();
    render_to(comparison, CompareFormat::table, to_stdout, color, names);
  }
  return comparison.failed() ? 1 : 0;
}

// --format, or the format the --output file's extension names (.json, .md, .xml for JUnit), as
// every kerntime command and the benchmark runner read -o FILE; else the table.
CompareFormat chosen_format(const CompareSettings& s) {
  if (!s.format.empty()) return parse_compare_format(s.format);
  if (s.output.empty() || s.output == "-") return CompareFormat::table;
  const std::string_view path = s.output;
  const auto ends = [path](std::string_view suffix) {
    return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  if (ends(".xml") || ends(".junit")) return CompareFormat::junit;
  if (ends(".html") || ends(".htm")) return CompareFormat::html;
  Format by_extension = Format::table;
  try {
    by_extension = format_for_path(path);
  } catch (const Error&) {
    throw Error("--output " + s.output +
                ": cannot tell a format from its extension: the formats are .json, .md, .xml or "
                ".junit (JUnit), .html and .txt (the table); name the file so, or give --format");
  }
  switch (by_extension) {
    case Format::json:
      return CompareFormat::json;
    case Format::markdown:
      return CompareFormat::markdown;
    default:
      return CompareFormat::table;
  }
}

int run_compare(const CompareSettings& s) {
  const CompareFormat format = chosen_format(s);
  try {
    return compare_reports(s, format);
  } catch (const Error& error) {
    // CI's test view must show why the gate could not run, not an absent file (pytest writes
    // an <error> test case likewise). The message still goes to stderr with status 2.
    if (format == CompareFormat::junit) {
      const std::string xml = render_junit_error(report_display_name(s.baseline),
                                                 report_display_name(s.candidate), error.what());
      try {
        if (s.output.empty() || s.output == "-") {
          io::write_standard_output(xml);
        } else {
          io::write_file_atomically(s.output, xml);
        }
      } catch (const Error&) {
        // The original error is the one to report.
      }
    }
    throw;
  }
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_status) {
  auto settings = std::make_shared<CompareSettings>();
  CLI::App* command = app.add_subcommand(
      "compare", "Compare CANDIDATE with BASELINE entry by entry; exit 1 if anything regressed");
  command->footer(kFooter);
  command
      ->add_option("baseline", settings->baseline,
                   "The baseline report (kerntime, Google Benchmark or NVBench JSON; - for stdin)")
      ->type_name("FILE")
      ->required();
  command
      ->add_option("candidate", settings->candidate,
                   "The candidate report (kerntime, Google Benchmark or NVBench JSON; - for stdin)")
      ->type_name("FILE")
      ->required();
  command
      ->add_option("--threshold", settings->thresholds,
                   "Relative median change that counts: '3%' or 'PATTERN=10%' (repeatable; "
                   "default 5%)")
      ->allow_extra_args(false);
  command->add_option("--alpha", settings->alpha,
                      "Significance level of the two-sided rank test (default 0.01)");
  command->add_option("--min-samples", settings->min_samples,
                      "Fewer samples per side make an entry inconclusive (default 5)");
  command->add_option("--min-change", settings->min_change,
                      "An extra floor: median changes smaller than this duration (e.g. 200ns) "
                      "never fail (default 0: the statistics decide)");
  command->add_option("--process-allowance", settings->process_allowance,
                      "With one run per side, the shift between processes a change must exceed "
                      "(e.g. 2%); default by timer: 400 ns or 1.5% for GPU timers, none for "
                      "Google Benchmark's CPU timings");
  command
      ->add_option("--format", settings->format,
                   "table, md, json, junit or html (default: what the --output file's extension "
                   "names (.json, .md, .xml or .junit, .html; .txt or none: table))")
      ->check(CLI::IsMember({"table", "md", "markdown", "json", "junit", "html"}));
  command
      ->add_option("--output,-o", settings->output,
                   "Write the chosen format to FILE (- for stdout); the table still goes to "
                   "stdout")
      ->type_name("FILE");
  command->add_flag("--fail-on-removed", settings->fail_on_removed,
                    "Fail (exit 1) when an entry of BASELINE is missing from CANDIDATE");
  command->add_flag("--fail-on-inconclusive", settings->fail_on_inconclusive,
                    "Fail (exit 1) when an entry is inconclusive");
  command
      ->add_option("--color", settings->color,
                   "Colour the table: auto (when stdout is a terminal), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  command
      ->add_option("--names", settings->names,
                   "Entry names in the table and Markdown: short (template arguments and "
                   "parameters elided) or full")
      ->check(CLI::IsMember({"short", "full"}))
      ->default_str("short");
  command->callback([settings, &exit_status] { exit_status = run_compare(*settings); });
}

}  // namespace kerntime::cli
