// SPDX-License-Identifier: Apache-2.0
// Pairing two reports by entry name, and what fails the gate.
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>
#include <kerntime/report_transforms.hpp>

#include "compare/entry_verdict.hpp"
#include "compare/runs_rule.hpp"
#include "compare/thresholds.hpp"

namespace kerntime {
namespace {

// Keyed by views of the report's own names: a copy of each name would cost as much as the
// comparison of a one-sample entry.
std::unordered_map<std::string_view, std::size_t> index_by_name(const Report& report,
                                                                const std::string& source) {
  std::unordered_map<std::string_view, std::size_t> index;
  index.reserve(report.entries.size());
  for (std::size_t i = 0; i < report.entries.size(); ++i) {
    if (!index.emplace(report.entries[i].name, i).second) {
      throw Error(source + ": entries[" + std::to_string(i) + "].name: \"" +
                  report.entries[i].name +
                  "\" appears twice; entry names must be unique to be compared.");
    }
  }
  return index;
}

void check_fraction(double fraction, const std::string& what) {
  if (!(fraction >= 0.0 && fraction < 1.0)) {
    throw Error(
        fmt::format("{} must be at least 0% and below 100%, got {}%.", what, fraction * 100.0));
  }
}

void validate(const CompareOptions& options) {
  if (!(options.alpha > 0.0 && options.alpha <= 0.5)) {
    throw Error(
        fmt::format("alpha must lie in (0, 0.5], got {}; 0.01 is the default.", options.alpha));
  }
  if (options.min_samples == 0) throw Error("min-samples must be at least 1.");
  if (!(options.min_change_ns >= 0.0)) {
    throw Error(fmt::format("min-change must be a duration of at least 0 ns, got {} ns.",
                            options.min_change_ns));
  }
  check_fraction(options.thresholds.default_fraction, "The threshold");
  for (const ThresholdRule& rule : options.thresholds.rules) {
    check_fraction(rule.fraction, "The threshold of '" + rule.pattern + "'");
  }
}

bool fails_gate(const EntryComparison& entry, const CompareOptions& options) {
  switch (entry.verdict) {
    case Verdict::regressed:
      return true;
    case Verdict::removed:
      return options.fail_on_removed;
    case Verdict::inconclusive:
      return options.fail_on_inconclusive;
    default:
      return false;
  }
}

// Said once above the table rather than in every row: with one run per side the spread between
// processes is unseen, and what that costs the verdicts.
void one_run_note(Comparison& result, const CompareOptions& options) {
  std::size_t paired = 0;
  std::vector<std::string> names;
  for (const EntryComparison& entry : result.entries) {
    if (!entry.baseline || !entry.candidate || !entry.ratio_ci) continue;
    ++paired;
    if (!entry.between_runs) names.push_back(entry.name);
  }
  if (names.empty()) return;
  std::string which = names.size() == paired
                          ? (paired == 1 ? "the entry" : "all entries")
                          : fmt::format("{} of {} entries (", names.size(), paired);
  if (names.size() != paired) {
    for (std::size_t i = 0; i < names.size() && i < 3; ++i) {
      which += (i == 0 ? "" : ", ") + names[i];
    }
    which += names.size() > 3 ? ", ...)" : ")";
  }
  const compare_detail::RunsRuleOptions rule;
  const std::string allowance =
      options.process_allowance
          ? fmt::format("of {:g}% (--process-allowance)", *options.process_allowance * 100.0)
          : fmt::format(
                "of {:.0f} ns or {:g}% (the larger) for GPU timers ({:g}% for NVTX "
                "ranges, which hold host time; {:g}% for CPU timings: Google Benchmark, "
                "NVBench's cpu_only, whose processes moved by up to 3.3% on a quiet CI machine "
                "and 8.1% on an H200 host; --process-allowance 8% covers such a host)",
                rule.one_run_shift_ns, rule.one_run_shift_fraction * 100.0,
                compare_detail::RunsRuleOptions::kHostTimeShiftFraction * 100.0,
                compare_detail::RunsRuleOptions::kCpuTimeShiftFraction * 100.0);
  result.notes.push_back(fmt::format(
      "one run per side for {}: the spread between processes cannot be seen, so a change counts "
      "only beyond an allowance {} for it, and short kernels cannot be judged at 5-10%. Measure "
      "several processes (benchmarks: --processes 5; reports of separate processes: kerntime "
      "report a.json b.json ... --format json -o base.json) to judge each entry at its own "
      "noise.",
      which, allowance));
}

// An entry only one report has: `removed` (the baseline's) or `added` (the candidate's).
EntryComparison one_sided(const Entry& entry, Verdict verdict, const CompareOptions& options) {
  EntryComparison side;
  side.name = entry.name;
  side.verdict = verdict;
  side.reason = verdict == Verdict::removed ? "only in the baseline" : "only in the candidate";
  side.threshold = options.thresholds.for_entry(entry.name);
  (verdict == Verdict::removed ? side.baseline : side.candidate) =
      compare_detail::summarize_side(entry);
  return side;
}

}  // namespace

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::same:
      return "same";
    case Verdict::improved:
      return "improved";
    case Verdict::regressed:
      return "regressed";
    case Verdict::inconclusive:
      return "inconclusive";
    case Verdict::added:
      return "added";
    case Verdict::removed:
      return "removed";
  }
  return "unknown";
}

std::size_t Comparison::count(Verdict verdict) const {
  std::size_t n = 0;
  for (const EntryComparison& entry : entries) {
    n += entry.verdict == verdict ? 1 : 0;
  }
  return n;
}

void CompareOptions::set_min_change(std::string_view duration) {
  min_change_ns = parse_duration_ns(duration);
}

void CompareOptions::set_process_allowance(std::string_view share) {
  try {
    process_allowance = parse_fraction(share);
  } catch (const Error&) {
    throw Error("process allowance '" + std::string{share} +
                "' is not a share from 0% to below 100%: write e.g. 2% or 0.02.");
  }
}

std::size_t Comparison::decided() const {
  return count(Verdict::same) + count(Verdict::improved) + count(Verdict::regressed);
}

bool Comparison::failed() const {
  for (const EntryComparison& entry : entries) {
    if (entry.fails) return true;
  }
  return false;
}

Comparison compare(const Report& baseline, const Report& candidate, const CompareOptions& options) {
  validate(options);
  const auto baseline_index = index_by_name(baseline, options.baseline_source);
  const auto candidate_index = index_by_name(candidate, options.candidate_source);

  Comparison result;
  result.baseline_source = options.baseline_source;
  result.candidate_source = options.candidate_source;
  result.alpha = options.alpha;
  result.default_threshold = options.thresholds.default_fraction;
  result.min_samples = options.min_samples;
  result.min_change_ns = options.min_change_ns;
  result.warnings = compare_environments(baseline.environment, candidate.environment);
  for (const std::string& warning : baseline.warnings) {
    result.warnings.push_back("Baseline: " + warning);
  }
  for (const std::string& warning : candidate.warnings) {
    result.warnings.push_back("Candidate: " + warning);
  }

  std::size_t added_count = 0;
  for (const Entry& entry : candidate.entries) {
    added_count += baseline_index.count(entry.name) == 0 ? 1 : 0;
  }
  result.entries.reserve(baseline.entries.size() + added_count);

  std::size_t timer_mismatches = 0;
  std::string timer_example;
  for (const Entry& entry : baseline.entries) {
    const auto match = candidate_index.find(entry.name);
    if (match == candidate_index.end()) {
      result.entries.push_back(one_sided(entry, Verdict::removed, options));
      continue;
    }
    const Entry& other = candidate.entries[match->second];
    if (compare_detail::timers_differ(entry, other)) {
      if (timer_mismatches++ == 0) {
        timer_example = fmt::format("baseline {}, candidate {}", entry.timer, other.timer);
      }
    }
    result.entries.push_back(compare_detail::compare_entry(
        entry, other, options.thresholds.for_entry(entry.name), options));
  }
  for (const Entry& entry : candidate.entries) {
    if (baseline_index.count(entry.name) != 0) continue;
    result.entries.push_back(one_sided(entry, Verdict::added, options));
  }
  for (EntryComparison& entry : result.entries) {
    entry.fails = fails_gate(entry, options);
  }
  // Two reports without a common name are almost always the wrong pair of files; passing the
  // gate with everything "added" and "removed" would hide that.
  const std::size_t paired =
      result.entries.size() - result.count(Verdict::added) - result.count(Verdict::removed);
  if (paired == 0 && !baseline.entries.empty() && !candidate.entries.empty()) {
    result.unusable_reason =
        fmt::format("{} and {} have no entry names in common; is {} the right baseline?",
                    options.baseline_source, options.candidate_source, options.baseline_source);
  }
  // Another timer on one side (CUPTI missing on a runner turns cupti-kernel into
  // cuda-event-corrected) leaves those entries undecidable. When it leaves nothing to decide,
  // passing would hide any slowdown: the input is wrong, as with no common names. Otherwise what
  // is comparable is compared, and the warning says what was not.
  if (timer_mismatches > 0 && timer_mismatches == paired) {
    result.unusable_reason = fmt::format(
        "every entry {} and {} have in common was measured with another timer ({}); no entry "
        "can be compared: measure both with the same timer (is CUPTI missing on one machine?)",
        options.baseline_source, options.candidate_source, timer_example);
  } else if (timer_mismatches > 0) {
    result.warnings.push_back(fmt::format(
        "{} of {} entries were measured with another timer ({}) and are not compared; only "
        "entries with the same timer on both sides were judged.",
        timer_mismatches, paired, timer_example));
  }
  one_run_note(result, options);

  // A pattern that matches nothing is almost always a typo that silently left the default on.
  for (const ThresholdRule& rule : options.thresholds.rules) {
    bool used = false;
    for (const EntryComparison& entry : result.entries) {
      used = used || glob_match(rule.pattern, entry.name);
    }
    if (!used) {
      result.warnings.push_back("Threshold pattern '" + rule.pattern + "' matches no entry.");
    }
  }
  return result;
}

}  // namespace kerntime
