// SPDX-License-Identifier: Apache-2.0
// JUnit XML, the format CI systems (GitLab, Jenkins, GitHub test reporters) read: one test case
// per entry; entries that fail the gate are failures, inconclusive or removed ones that do not
// fail it are skipped, so a reader sees them without the build going red. Each case's class is
// the benchmark's family and its time the candidate's median, and the suite is named by file
// names, so that CI history views track a benchmark from build to build. Valid against the
// Jenkins xUnit plugin's junit-10.xsd (tests/compare/data), the strictest schema CI tools use:
// `skipped` is an attribute of <testsuite> only. When the comparison could not be made at all
// (exit status 2), render_junit_error() still gives CI a file: one test case with an <error>,
// as pytest writes for an error outside the tests.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "format/compare/render_cells.hpp"
#include "format/compare/renderers.hpp"
#include "format/markup_text.hpp"
#include "format/text_grid.hpp"
#include "text/numbers.hpp"

namespace kerntime::format {

namespace {

// printable() first: XML 1.0 cannot carry most control characters even as references. Element
// text keeps its line breaks; attribute values get them escaped with the rest.
std::string xml(const std::string& text, bool keep_newlines = false) {
  if (keep_newlines) {
    std::string out;
    std::size_t start = 0;
    for (std::size_t end = text.find('\n'); end != std::string::npos;
         start = end + 1, end = text.find('\n', start)) {
      out += xml(text.substr(start, end - start)) + "\n";
    }
    return out + xml(text.substr(start));
  }
  return markup_text(text);
}

std::string details(const Comparison& comparison, const EntryComparison& entry) {
  const EntryCells c = cells_of(entry);
  std::string text = fmt::format("{}: {}\n", c.verdict, entry.reason);
  if (entry.baseline) {
    text += fmt::format("baseline median {} ({} samples)\n", c.baseline, entry.baseline->count);
  }
  if (entry.candidate) {
    text += fmt::format("candidate median {} ({} samples)\n", c.candidate, entry.candidate->count);
  }
  if (entry.baseline && entry.candidate) {
    text += fmt::format("runs {} (baseline+candidate){}\n", c.runs,
                        entry.run_spread ? ", per-process medians spread " + c.spread : "");
  }
  if (entry.ratio) {
    text += fmt::format("change {}, {} {}, {}, threshold {}\n", c.change,
                        interval_title(comparison), c.interval,
                        entry.p_value ? text::p_clause(*entry.p_value) : "no test", c.threshold);
  }
  return text;
}

// A benchmark's family, for CI views that group and track test cases by class: the name up to
// its first "/" ("saxpy" of "saxpy/n=16777216/cold"); a name without one is its own family.
std::string family_of(const std::string& name) {
  const std::size_t slash = name.find('/');
  return slash == std::string::npos || slash == 0 ? name : name.substr(0, slash);
}

// The test case's time: the candidate's median in seconds (the baseline's for a removed entry),
// so a CI system's duration history is the benchmark's; 0 when the unit is not a time.
std::string seconds_of(const EntryComparison& entry) {
  const std::optional<SampleSummary>& side = entry.candidate ? entry.candidate : entry.baseline;
  if (!side) return "0";
  const double ns_per_unit = text::nanoseconds_per(side->unit);
  if (ns_per_unit <= 0.0 || !std::isfinite(side->median) || side->median < 0.0) return "0";
  // Fixed point (xs:decimal allows no exponent) with at most 12 significant digits and down to
  // the picosecond, trailing zeros cut; a time past 12 integer digits (no real median) is 0.
  const double value = side->median * ns_per_unit * 1e-9;
  const int integer_digits = value < 1.0 ? 0 : static_cast<int>(std::floor(std::log10(value))) + 1;
  if (integer_digits > 12) return "0";
  std::string seconds = fmt::format("{:.{}f}", value, std::min(12, 12 - integer_digits));
  if (seconds.find('.') != std::string::npos) {
    seconds.erase(seconds.find_last_not_of('0') + 1);
    if (seconds.back() == '.') seconds.pop_back();
  }
  return seconds;
}

// A source's file name: CI systems key a suite's history by its name, which must not change with
// the checkout's absolute path.
std::string file_name_of(const std::string& source) {
  const std::size_t slash = source.find_last_of('/');
  return slash == std::string::npos ? source : source.substr(slash + 1);
}

}  // namespace

void write_comparison_junit(const Comparison& comparison, ChunkedText& out) {
  std::size_t failures = 0;
  std::size_t skipped = 0;
  for (const EntryComparison& entry : comparison.entries) {
    if (entry.fails) {
      ++failures;
    } else if (entry.verdict == Verdict::inconclusive || entry.verdict == Verdict::removed) {
      ++skipped;
    }
  }
  const std::size_t tests = comparison.entries.size();
  const std::string counts = fmt::format(R"(tests="{}" failures="{}" errors="0")", tests, failures);
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"kerntime compare\" {}>\n", counts);
  out += fmt::format("  <testsuite name=\"{}\" {} skipped=\"{}\">\n",
                     xml("kerntime compare " + file_name_of(comparison.baseline_source) + " " +
                         file_name_of(comparison.candidate_source)),
                     counts, skipped);
  out += "    <properties>\n";
  const auto property = [&](const std::string& name, const std::string& value) {
    out += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", xml(name), xml(value));
  };
  property("baseline", comparison.baseline_source);
  property("candidate", comparison.candidate_source);
  property("alpha", fmt::format("{}", comparison.alpha));
  property("threshold", text::format_percent(comparison.default_threshold));
  property("min_samples", std::to_string(comparison.min_samples));
  property("outcome", outcome(comparison));
  for (const std::string& warning : comparison.warnings) {
    property("warning", warning);
  }
  for (const std::string& note : comparison.notes) {
    property("note", note);
  }
  out += "    </properties>\n";

  for (const EntryComparison& entry : comparison.entries) {
    out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{}\">\n", xml(entry.name),
                       xml(family_of(entry.name)), seconds_of(entry));
    const std::string message = xml(std::string(to_string(entry.verdict)) + ": " + entry.reason);
    const std::string text = xml(details(comparison, entry), true);
    if (entry.fails) {
      out += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                         to_string(entry.verdict), message, text);
    } else {
      if (entry.verdict == Verdict::inconclusive || entry.verdict == Verdict::removed) {
        out += fmt::format("      <skipped message=\"{}\"/>\n", message);
      }
      out += fmt::format("      <system-out>{}</system-out>\n", text);
    }
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
}

}  // namespace kerntime::format

namespace kerntime {

std::string render_junit_error(const std::string& baseline, const std::string& candidate,
                               const std::string& message) {
  const std::string suite = format::xml("kerntime compare " + baseline + " " + candidate);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += R"(<testsuites name="kerntime compare" tests="1" failures="0" errors="1">)"
         "\n";
  out += fmt::format(R"(  <testsuite name="{}" tests="1" failures="0" errors="1" skipped="0">)"
                     "\n",
                     suite);
  out += R"(    <testcase name="kerntime compare" classname="kerntime.compare" time="0">)"
         "\n";
  out += fmt::format(R"(      <error type="bad input" message="{}">{}</error>)"
                     "\n",
                     format::xml(message),
                     format::xml(message + "\nExit status 2: the reports could not be compared; no "
                                           "verdicts were made.",
                                 true));
  out += "    </testcase>\n  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace kerntime
