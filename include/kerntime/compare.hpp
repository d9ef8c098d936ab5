// SPDX-License-Identifier: Apache-2.0
// Comparing two reports: the model behind `kerntime compare` and the CI regression gate.
//
// Each entry of the baseline is paired by name with the candidate's and gets a verdict. The
// statistical method is documented in docs/ci.md. An entry's samples may come from several runs
// (processes, Entry::run_sizes); the process is the unit, because the noise between processes
// (memory placement, clock state) is invisible inside one. Ratios are candidate / baseline.
//   several runs on a side  the per-run medians in log space: ratio of their geometric means,
//                           a pooled t test (n_A + n_B - 2 degrees of freedom) whose spread is
//                           floored by each run's own sampling error and the timer's quantum,
//                           and its 1 - alpha interval
//   one run per side        the two-sided Mann-Whitney U test and the Hodges-Lehmann interval
//                           of the ratio on the samples, the interval widened by an allowance
//                           for the shift between processes that one run cannot show: the
//                           larger of 400 ns and 1.5 %, the largest shifts measured on an H200
//   regressed     p < alpha, ratio > 1 + threshold and CI above 1 + threshold / 2
//   improved      p < alpha, ratio < 1 - threshold and CI below 1 - threshold / 2
//   same          the whole CI lies within [1 - threshold, 1 + threshold]
//   inconclusive  anything else (too few samples, unstable between processes, timers differ),
//                 with the reason: the spread and the smallest change it lets the gate see
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kerntime/export.hpp>
#include <kerntime/name_style.hpp>
#include <kerntime/report.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/text_sink.hpp>
#include <kerntime/throughput.hpp>

namespace kerntime {

/// What the comparison concludes about one entry.
enum class Verdict {
  same,          ///< no change beyond the threshold, with confidence
  improved,      ///< significantly faster, by more than the threshold
  regressed,     ///< significantly slower, by more than the threshold
  inconclusive,  ///< the data cannot decide; the reason says why and what would help
  added,         ///< only in the candidate
  removed,       ///< only in the baseline
};

/// "same", "improved", "regressed", "inconclusive", "added" or "removed".
KERNTIME_API std::string_view to_string(Verdict verdict);

/// A per-entry threshold: entries whose name matches the glob `pattern` use `fraction`.
struct ThresholdRule {
  std::string pattern;  ///< `*` matches any run of characters (including '/'), `?` one character
  double fraction = 0.05;
};

/// Relative thresholds of the median change (0.05 is 5 %), default and per entry.
struct KERNTIME_API Thresholds {
  double default_fraction = 0.05;
  std::vector<ThresholdRule> rules;  ///< when several match an entry, the last one wins

  /// Applies one `--threshold` argument: "3%" or "0.03" sets the default wherever it appears;
  /// "gemm/*=10%" appends a rule. Throws kerntime::Error on anything else, or on a fraction
  /// outside [0, 1).
  void add(std::string_view spec);

  /// The threshold for the entry called `name`.
  double for_entry(std::string_view name) const;
};

/// How compare() decides.
struct KERNTIME_API CompareOptions {
  /// Significance level of the two-sided rank test; the interval's level is 1 - alpha. 0.01
  /// keeps noise from failing builds (asv uses 0.002, Pinpoint 0.01); see docs/ci.md.
  double alpha = 0.01;
  /// Fewer samples than this on either side make an entry inconclusive. Below the count at
  /// which the rank test can reach alpha at all (5 per side for 0.01) entries are inconclusive
  /// whatever this says.
  std::size_t min_samples = 5;
  /// An optional extra floor: median changes smaller than this many nanoseconds are never
  /// regressions or improvements, whatever the relative change. 0 (the default) leaves the
  /// decision to the statistics, which judge each entry at the noise its runs show; set it when
  /// changes of a few hundred nanoseconds do not matter to you.
  double min_change_ns = 0.0;
  /// With one run per side, the relative shift between processes a change must exceed, for
  /// every entry (absolute part 0). Empty: by timer (docs/ci.md): 400 ns or 1.5 % for GPU
  /// timers, where it was measured; 25 % for NVTX ranges (host time of a whole program); none
  /// for Google Benchmark's CPU timings, which no such measurement covers.
  std::optional<double> process_allowance;
  Thresholds thresholds;
  bool fail_on_removed = false;       ///< a removed entry fails the gate
  bool fail_on_inconclusive = false;  ///< an inconclusive entry fails the gate
  /// How the comparison and its messages name the two reports, e.g. their file names.
  std::string baseline_source = "baseline";
  std::string candidate_source = "candidate";

  /// Sets min_change_ns from a duration such as "500ns", "0.5us", "2 ms", "1s" or "0" (a unit
  /// is required). Throws kerntime::Error naming `duration` for anything else or a negative one.
  void set_min_change(std::string_view duration);
  /// Sets process_allowance from "2%" or "0.02"; throws kerntime::Error naming `share` for
  /// anything else or a share outside [0, 1).
  void set_process_allowance(std::string_view share);
};

/// One side of a compared pair.
struct SampleSummary {
  std::size_t count = 0;
  double median = 0.0;   ///< in `unit`
  std::string unit;      ///< the entry's unit, e.g. "ns"
  std::string timer;     ///< what produced the samples, e.g. "cuda-event"; may be empty
  std::size_t runs = 1;  ///< how many runs (processes) the samples come from
  /// Rates of the work the side's measurement declares (Entry::measurement) at `median`;
  /// empty for entries without one. Shown beside the time, never judged.
  Throughput throughput{};
};

/// The comparison of one entry name.
struct EntryComparison {
  std::string name;
  Verdict verdict = Verdict::inconclusive;
  std::string reason;      ///< one sentence: why this verdict, and what to do if inconclusive
  double threshold = 0.0;  ///< the relative threshold that applied to this entry
  std::optional<SampleSummary> baseline;   ///< absent when added
  std::optional<SampleSummary> candidate;  ///< absent when removed
  std::optional<double> ratio;       ///< median(candidate) / median(baseline), units converted
  std::optional<Interval> ratio_ci;  ///< confidence interval of the ratio, level 1 - alpha
  std::optional<double> p_value;     ///< two-sided Mann-Whitney U
  bool exact_test = false;           ///< p and CI from the exact null distribution
  /// True when the verdict came from the spread between runs (a side had two or more runs);
  /// false with one run per side, where the allowance for a shift between processes applied.
  bool between_runs = false;
  /// Largest relative range of the per-run medians on one side (max / min - 1).
  std::optional<double> run_spread;
  /// The smallest relative change the interval lets the gate see for this entry.
  std::optional<double> detectable_change;
  bool fails = false;  ///< this entry fails the gate (exit status 1)
};

/// The comparison of two reports.
struct KERNTIME_API Comparison {
  std::string baseline_source = "baseline";    ///< e.g. the baseline's file name
  std::string candidate_source = "candidate";  ///< e.g. the candidate's file name
  double alpha = 0.01;
  double default_threshold = 0.05;
  std::size_t min_samples = 5;
  double min_change_ns = 0.0;
  /// Things to read before the verdicts: different GPUs, drivers or runtimes, the reports' own
  /// warnings, threshold patterns that matched nothing.
  std::vector<std::string> warnings;
  /// What the reader should know about how the verdicts were reached, said once above the
  /// table: entries compared with one run per side, whose spread between processes is unseen.
  std::vector<std::string> notes;
  /// The baseline's entries in its order, then the added ones in the candidate's order.
  std::vector<EntryComparison> entries;
  /// Why the verdicts cannot be trusted as a gate, in one sentence naming both sources; empty
  /// when they can. Set when both reports hold entries but no entry name in common: almost
  /// always the wrong pair of files, which would otherwise pass with everything "added" and
  /// "removed". Also set when every paired entry was measured with another timer on the two
  /// sides (CUPTI on one runner, cudaEvents on the other), so that no entry could be decided.
  /// `kerntime compare` prints it and exits with status 2 (bad input), not 1.
  std::string unusable_reason;

  double confidence_level() const { return 1.0 - alpha; }
  std::size_t count(Verdict verdict) const;
  /// How many entries got a decision: same, improved or regressed. With none, the renderings
  /// never say "passed".
  std::size_t decided() const;
  /// True when an entry fails the gate: the CLI then exits with 1.
  bool failed() const;
  /// False when unusable_reason says the reports cannot be compared.
  bool usable() const { return unusable_reason.empty(); }
};

/// Compares `candidate` against `baseline` entry by entry.
///
/// Throws kerntime::Error when the options are invalid (alpha outside (0, 0.5], min_samples 0)
/// or a report holds two entries of the same name.
KERNTIME_API Comparison compare(const Report& baseline, const Report& candidate,
                                const CompareOptions& options = {});

/// The renderings of a comparison.
enum class CompareFormat {
  table,     ///< aligned console table; ANSI colours when asked
  markdown,  ///< GitHub-flavoured Markdown, e.g. for a pull-request comment
  json,      ///< kerntime-compare/1 JSON
  junit,     ///< JUnit XML: one test case per entry, failures for entries that fail the gate
  html,      ///< one self-contained page: a plot of every change and interval, the verdicts
};

/// Parses "table", "md"/"markdown", "json", "junit" or "html"; throws kerntime::Error listing
/// them.
KERNTIME_API CompareFormat parse_compare_format(std::string_view name);

/// Renders `comparison`; `color` adds ANSI colours to the table and is ignored by other formats.
/// Table, Markdown and HTML write entry names as `names` says (NameStyle: a kernel's short form by
/// default, numbered where two read alike, with a note under the table); JSON and JUnit keep
/// whole names.
KERNTIME_API std::string render(const Comparison& comparison, CompareFormat format,
                                bool color = false, NameStyle names = NameStyle::short_form);

/// The same text as render(), handed to `write` in pieces of about a megabyte, so that a
/// comparison of a million entries is never held as cells or as one string (what `kerntime
/// compare` does). An exception from `write` stops the rendering and propagates.
KERNTIME_API void render_to(const Comparison& comparison, CompareFormat format,
                            const TextSink& write, bool color = false,
                            NameStyle names = NameStyle::short_form);

/// The HTML page of render_to(..., CompareFormat::html), with a strip plot of both sides'
/// samples and their runs' medians for each regressed or inconclusive entry (the 100 with the
/// largest changes), from `baseline` and `candidate`: the two reports that were compared.
KERNTIME_API void render_html_to(const Comparison& comparison, const Report& baseline,
                                 const Report& candidate, const TextSink& write,
                                 NameStyle names = NameStyle::short_form);

/// JUnit XML for a comparison that could not be made (exit status 2): one test case holding an
/// <error> with `message`, so that CI's test view shows why instead of nothing (as pytest does).
KERNTIME_API std::string render_junit_error(const std::string& baseline,
                                            const std::string& candidate,
                                            const std::string& message);

}  // namespace kerntime
