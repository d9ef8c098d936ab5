// SPDX-License-Identifier: Apache-2.0
// What the GPU tests of `kerntime run` share: running the command on a test program, and
// finding a kernel's summary row, an entry, a warning in its report.
#pragma once

#include <algorithm>
#include <string>

#include <kerntime/report.hpp>
#include <kerntime/report_json.hpp>

#include "support/gpu_test.hpp"
#include "support/run_command.hpp"

namespace kerntime::testing {

class RunGpu : public GpuTest {
 protected:
  std::string report_path(const std::string& name) {
    return ::testing::TempDir() + "kerntime_run_" + name + ".json";
  }
  /// `kerntime run OPTIONS -- run_target ARGUMENTS`, ended after `limit_s` seconds if it hangs.
  CommandResult run(const std::string& options, const std::string& arguments, int limit_s = 120) {
    return run_command("timeout " + std::to_string(limit_s) + " " + KERNTIME_CLI + " run " +
                       options + " -- " + KERNTIME_RUN_TARGET + " " + arguments);
  }
};

inline const KernelSummary* kernel(const Report& report, const std::string& prefix) {
  for (const KernelSummary& row : report.trace->kernel_summary) {
    if (row.name.rfind(prefix, 0) == 0) return &row;
  }
  return nullptr;
}

inline const Entry* entry(const Report& report, const std::string& prefix) {
  for (const Entry& e : report.entries) {
    if (e.name.rfind(prefix, 0) == 0) return &e;
  }
  return nullptr;
}

/// The first warning containing `text`, or "".
inline std::string warning(const Report& report, const std::string& text) {
  const auto it =
      std::find_if(report.warnings.begin(), report.warnings.end(),
                   [&](const std::string& w) { return w.find(text) != std::string::npos; });
  return it == report.warnings.end() ? std::string{} : *it;
}

}  // namespace kerntime::testing
