// SPDX-License-Identifier: Apache-2.0
// Uses the installed headers and library; needs no GPU.
#include <cstdio>
#include <string>

#include <kerntime/kerntime.hpp>

int main() {
  const kerntime::Statistics stats = kerntime::compute_statistics({1, 2, 3, 4, 5});
  kerntime::Report report;
  kerntime::Entry entry;
  entry.name = "example";
  entry.samples = {1, 2, 3, 4, 5};
  entry.statistics = stats;
  report.entries.push_back(entry);
  const kerntime::Report back = kerntime::parse_report(kerntime::to_json(report), "consumer");
  if (back.entries.size() != 1 || back.entries[0].statistics.median != 3.0) return 1;

  // Other tools' formats: through Google Benchmark JSON and back; an nsys-style summary.
  const kerntime::Report gbench =
      kerntime::parse_any_report(kerntime::to_google_benchmark_json(report), "consumer-gbench");
  if (gbench.entries.size() != 1 || gbench.entries[0].samples != entry.samples) return 1;
  kerntime::Trace trace;
  const std::string api = kerntime::render_trace_summary(
      trace, kerntime::parse_trace_summary_kind("cuda_api_sum"), kerntime::Format::csv);
  if (api.rfind("Time (%),Total Time (ns),Num Calls,", 0) != 0) return 1;

  // An error thrown inside libkerntime.so is caught here by its type (exported: export.hpp).
  try {
    kerntime::parse_report("{", "consumer");
    return 1;
  } catch (const kerntime::Error&) {
  }
  std::printf("consumer: median %.0f ns, kerntime %s\n", stats.median, kerntime::kVersion);
  return 0;
}
