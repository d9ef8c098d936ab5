// SPDX-License-Identifier: Apache-2.0
// Reports in other benchmark tools' JSON (docs/report-format.md#other-tools-formats): a kerntime
// report written as Google Benchmark's `--benchmark_format=json`, which github-action-benchmark,
// Bencher and conbench read, and Google Benchmark's and NVBench's (`--json`, `--jsonbin`) files
// read into the report model, so that `kerntime compare` and `kerntime report` take them too.
#pragma once

#include <string>
#include <string_view>

#include <kerntime/export.hpp>
#include <kerntime/report.hpp>
#include <kerntime/statistics.hpp>

namespace kerntime {

/// Which tool's JSON a text is.
enum class ReportFileFormat { kerntime, google_benchmark, nvbench };

/// "kerntime-report/1", "Google Benchmark JSON", "NVBench JSON".
KERNTIME_API std::string_view to_string(ReportFileFormat format);

/// The format of `json_text`, from its top-level keys ("schema": kerntime; "context": Google
/// Benchmark; "meta" or benchmarks with "states": NVBench) without reading the rest. Text that
/// is none of them (or not JSON) is `kerntime`, whose reader says what is wrong with it.
KERNTIME_API ReportFileFormat detect_report_format(std::string_view json_text);

/// How the readers of other tools' files build entries.
struct ReportReadOptions {
  StatisticsOptions statistics;
  /// The folder of the NVBench JSON file, where the sample files that `--jsonbin` writes are
  /// found. Empty: none are read, and each measurement's one sample is its summary. A name is
  /// looked up, inside each folder only (docs/hardening.md): relative to this folder (NVBench
  /// since its PR #405), to the working directory (NVBench before it), then as
  /// `<nvbench_json_name>-bin/<file name>` in this folder (the JSON moved since).
  std::string nvbench_directory;
  std::string nvbench_json_name;  ///< the JSON file's name in nvbench_directory
};

/// Google Benchmark JSON as a report: an entry per run name, its samples each repetition's
/// real_time in ns (the manual time for benchmarks with UseManualTime), timer
/// "google-benchmark". A benchmark reported only by its aggregates gets one sample, the median
/// (else the mean), and a warning says so. A file kerntime wrote reads back as it was written
/// (timers, devices, runs, environment and warnings). Errors name `source`, the JSON path and
/// why, as parse_report() does.
KERNTIME_API Report parse_google_benchmark_json(std::string_view json_text,
                                                const std::string& source,
                                                const ReportReadOptions& options = {});

/// NVBench JSON as a report: an entry per benchmark state and measurement, named
/// "bench/axis=value/.../cold" ("/hot" for NVBench's batch measurement, "/cpu_only"), with
/// "/device=N" after the name when the benchmark ran on several devices. The samples are the
/// cold sample times of `--jsonbin` files when options.nvbench_directory holds them; otherwise
/// one sample per entry, NVBench's median (else mean) time, and a warning says that only
/// summaries were read. Timers "nvbench-cold", "nvbench-batch", "nvbench-cpu-only".
KERNTIME_API Report parse_nvbench_json(std::string_view json_text, const std::string& source,
                                       const ReportReadOptions& options = {});

/// Any of the three formats, by detect_report_format().
KERNTIME_API Report parse_any_report(std::string_view json_text, const std::string& source,
                                     const ReportReadOptions& options = {});

/// How the report file at `path` is read: `statistics`, and its folder and name for NVBench's
/// sample files.
KERNTIME_API ReportReadOptions read_options_for_file(const std::string& path,
                                                     const StatisticsOptions& statistics = {});

/// The report file at `path` in any of the three formats, as `kerntime report` and `compare`
/// read it: bounded and checked as read_report_file() does, NVBench's sample files looked for
/// beside it. Errors name the path.
KERNTIME_API Report read_any_report_file(const std::string& path,
                                         const StatisticsOptions& statistics = {});

/// What to_google_benchmark_json() writes.
struct GoogleBenchmarkJsonOptions {
  /// Only the mean, median, stddev and cv aggregates of each entry, as
  /// `--benchmark_report_aggregates_only` gives: one value per name for dashboards that chart
  /// every object (an entry of one sample is written as its one repetition).
  bool aggregates_only = false;
};

/// `report` as Google Benchmark JSON (json_schema_version 1): each sample one repetition of one
/// iteration, real_time and cpu_time both the sample in ns (kerntime measures GPU time; there is
/// no CPU time to give), then the mean, median, stddev and cv aggregates as Google Benchmark
/// writes them for two repetitions or more. Entries without samples are left out. The label
/// ("timer=cuda-event device=0 run=2") and the "kerntime_*" context keys keep what Google
/// Benchmark's schema has no field for. Throws kerntime::Error naming the entry for a sample
/// that is not finite or a duplicate name.
KERNTIME_API std::string to_google_benchmark_json(const Report& report,
                                                  const GoogleBenchmarkJsonOptions& options = {});

}  // namespace kerntime
