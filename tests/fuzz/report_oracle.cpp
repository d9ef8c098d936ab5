// SPDX-License-Identifier: Apache-2.0
#include "report_oracle.hpp"

#include <exception>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <kerntime/compare.hpp>
#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>

#include "nvbench_sandbox.hpp"

namespace kerntime::fuzz {
namespace {

constexpr const char* kBaselineSource = "fuzz-baseline.json";
constexpr const char* kCandidateSource = "fuzz-candidate.json";

void require(bool condition, const std::string& what) {
  if (!condition) throw OracleFailure(what);
}

// An error may name either of `sources`; it must name one of them and fit on one line.
void check_error(const Error& error, std::initializer_list<std::string_view> sources,
                 const std::string& step) {
  const std::string_view message = error.what();
  require(!message.empty(), step + ": kerntime::Error with an empty message");
  require(message.find('\n') == std::string_view::npos,
          step + ": kerntime::Error message spans several lines: " + std::string(message));
  bool named = false;
  for (std::string_view source : sources) {
    named = named || message.find(source) != std::string_view::npos;
  }
  require(named, step + ": kerntime::Error message names no source: " + std::string(message));
}

// Runs `step`; a kerntime::Error must satisfy check_error, anything else is a failure.
template <typename Step>
bool run_step(const std::string& name, std::initializer_list<std::string_view> sources,
              Step&& step) {
  try {
    step();
    return true;
  } catch (const Error& error) {
    check_error(error, sources, name);
    return false;
  } catch (const OracleFailure&) {
    throw;
  } catch (const std::exception& error) {
    throw OracleFailure(name + ": threw a non-kerntime exception: " + error.what());
  }
}

// Every step below must succeed on an accepted report: a kerntime::Error there is a failure.
template <typename Step>
void must_succeed(const std::string& name, Step&& step) {
  try {
    step();
  } catch (const OracleFailure&) {
    throw;
  } catch (const std::exception& error) {
    throw OracleFailure(name + ": failed on an accepted report: " + error.what());
  }
}

// Read as `kerntime report FILE` reads a file: NVBench's sample files are looked up in the
// JSON's folder, here the sandbox's, whose neighbours hold a secret no input may read.
std::optional<Report> read(std::string_view text, const char* source) {
  std::optional<Report> report;
  ReportReadOptions options;
  options.nvbench_directory = nvbench_sample_folder();
  run_step(std::string("parse_report(") + source + ")", {source},
           [&] { report = parse_any_report(text, source, options); });
  require(!report || !holds_the_secret(*report),
          std::string(source) + ": a sample file outside the JSON's folder was read");
  return report;
}

void check_round_trip(const Report& report, const char* source) {
  must_succeed(std::string("round trip of ") + source, [&] {
    const std::string written = to_json(report);
    const Report again = parse_report(written, source);
    const std::string rewritten = to_json(again);
    require(written == rewritten,
            std::string(source) + ": read -> write -> read -> write changed the JSON");
    // The fields the comparison and the renderings rely on, named so that a failure says which.
    require(again.entries.size() == report.entries.size(), "round trip changed the entry count");
    for (std::size_t i = 0; i < report.entries.size(); ++i) {
      const Entry& a = report.entries[i];
      const Entry& b = again.entries[i];
      require(a.name == b.name && a.unit == b.unit && a.timer == b.timer && a.device == b.device &&
                  a.samples == b.samples && a.run_sizes == b.run_sizes &&
                  a.statistics.count == b.statistics.count,
              "round trip changed entries[" + std::to_string(i) + "]");
    }
    require(again.warnings == report.warnings, "round trip changed the warnings");
    require(again.trace.has_value() == report.trace.has_value(),
            "round trip lost or invented the trace section");
  });
}

// Written as Google Benchmark JSON and read back, a report keeps every entry that has samples,
// with its samples, runs, timer and device, and its warnings; with aggregates only, an entry of
// several samples keeps their median.
void check_google_benchmark_round_trip(const Report& report, const char* source) {
  for (const bool aggregates_only : {false, true}) {
    must_succeed(std::string("Google Benchmark JSON round trip of ") + source, [&] {
      GoogleBenchmarkJsonOptions options;
      options.aggregates_only = aggregates_only;
      const std::string written = to_google_benchmark_json(report, options);
      require(detect_report_format(written) == ReportFileFormat::google_benchmark,
              "Google Benchmark JSON is not detected as such");
      const Report again = parse_any_report(written, source);
      std::size_t read = 0;
      for (const Entry& a : report.entries) {
        if (a.samples.empty()) continue;
        require(read < again.entries.size(), "Google Benchmark round trip lost " + a.name);
        const Entry& b = again.entries[read++];
        require(a.name == b.name && a.timer == b.timer && a.device == b.device,
                "Google Benchmark round trip changed the name, timer or device of " + a.name);
        if (!aggregates_only || a.samples.size() == 1) {
          require(a.samples == b.samples && a.run_sizes == b.run_sizes,
                  "Google Benchmark round trip changed the samples of " + a.name);
        } else {
          require(b.samples.size() == 1 && b.samples[0] == a.statistics.median,
                  "Google Benchmark aggregates of " + a.name + " do not read back as its median");
        }
      }
      require(read == again.entries.size(), "Google Benchmark round trip invented entries");
      std::vector<std::string> warnings = again.warnings;
      if (aggregates_only && warnings.size() > report.warnings.size()) warnings.pop_back();
      require(warnings == report.warnings, "Google Benchmark round trip changed the warnings");
    });
  }
}

void check_report_formats(const Report& report, const char* source) {
  for (Format format : {Format::table, Format::markdown, Format::csv, Format::json}) {
    must_succeed(std::string("render(report) of ") + source, [&] {
      const std::string text = render(report, format);
      if (format == Format::json) {
        require(text == to_json(report), "render(Format::json) differs from to_json()");
      }
    });
  }
}

void check_compare_formats(const Comparison& comparison) {
  for (CompareFormat format :
       {CompareFormat::table, CompareFormat::markdown, CompareFormat::json, CompareFormat::junit}) {
    must_succeed("render(comparison)", [&] {
      render(comparison, format, false);
      if (format == CompareFormat::table) render(comparison, format, true);
    });
  }
}

CompareOptions options_for(const char* baseline, const char* candidate) {
  CompareOptions options;
  options.baseline_source = baseline;
  options.candidate_source = candidate;
  return options;
}

void check_self_comparison(const Report& report, const char* source) {
  must_succeed(std::string("compare(r, r) of ") + source, [&] {
    const Comparison comparison = compare(report, report, options_for(source, source));
    check_compare_formats(comparison);
  });
}

void check_accepted(const Report& report, const char* source) {
  check_round_trip(report, source);
  check_google_benchmark_round_trip(report, source);
  check_report_formats(report, source);
  check_self_comparison(report, source);
  // `kerntime report FILE` merges even a single file.
  run_step(std::string("merge_reports(") + source + ")", {source}, [&] {
    const Report merged = merge_reports({report}, {source});
    check_report_formats(merged, source);
  });
}

}  // namespace

void check_input(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t separator = bytes.find(kSeparator);
  if (separator == std::string_view::npos) {
    if (std::optional<Report> report = read(bytes, kBaselineSource)) {
      check_accepted(*report, kBaselineSource);
    }
    return;
  }
  std::optional<Report> baseline = read(bytes.substr(0, separator), kBaselineSource);
  std::optional<Report> candidate = read(bytes.substr(separator + 1), kCandidateSource);
  if (baseline) check_accepted(*baseline, kBaselineSource);
  if (candidate) check_accepted(*candidate, kCandidateSource);
  if (!baseline || !candidate) return;
  run_step("compare(baseline, candidate)", {kBaselineSource, kCandidateSource}, [&] {
    const Comparison comparison =
        compare(*baseline, *candidate, options_for(kBaselineSource, kCandidateSource));
    check_compare_formats(comparison);
  });
  run_step("merge_reports(baseline, candidate)", {kBaselineSource, kCandidateSource}, [&] {
    const Report merged =
        merge_reports({*baseline, *candidate}, {kBaselineSource, kCandidateSource});
    check_report_formats(merged, "merged report");
  });
}

}  // namespace kerntime::fuzz
