// SPDX-License-Identifier: Apache-2.0
// The kernel fixed cost from another process. When a tool in this process holds CUPTI from its
// start (Nsight Systems, torch.profiler, a CUPTI injection), the engine cannot calibrate here;
// a short-lived `kerntime calibrate` process has CUPTI of its own and can. It measures the
// same GPU, prints the value and caches it (docs/benchmarks.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kerntime::bench {

/// What one attempt gave: the value, or why there is none.
struct HelperResult {
  std::optional<double> ns;
  std::string problem;
};

/// Runs `kerntime calibrate` for the GPU at PCI bus id `pci_bus_id` and waits for it (at most
/// 60 s). Never throws. A GPU whose process failed is not tried again in this process. Refused
/// (with the reason) inside such a helper process, and when KERNTIME_NO_CALIBRATION_PROCESS is set
/// to anything but "" or "0".
HelperResult fixed_cost_from_helper(const std::string& pci_bus_id);

/// The `kerntime` command to run: $KERNTIME_CLI, else `kerntime` in ../bin beside the loaded
/// kerntime library (or in the bin folder of the Python environment it is installed in), else
/// the first on PATH; empty when none is found.
std::string helper_command();

/// The helper's environment: this process's, without the variables that would make a tool
/// inject itself into the helper (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH), and marked
/// as a helper so that it never starts one of its own. For tests.
std::vector<std::string> helper_environment(const std::vector<std::string>& environment);

/// The value a helper printed: its last line, a plausible time in ns; for tests.
std::optional<double> parse_helper_output(const std::string& output);

}  // namespace kerntime::bench
