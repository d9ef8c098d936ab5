// SPDX-License-Identifier: Apache-2.0
// Uses the installed headers and library; needs no GPU.
#include <cstdio>

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
  std::printf("consumer: median %.0f ns, kerntime %s\n", stats.median, kerntime::kVersion);
  return 0;
}
