// SPDX-License-Identifier: Apache-2.0
// Which differences between two measurement environments make their timings incomparable.
#include "report/environment_diff.hpp"

#include <string>
#include <vector>

#include <kerntime/report.hpp>
#include <kerntime/report_transforms.hpp>

namespace kerntime {
namespace {

std::string cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string mhz(int khz) {
  return std::to_string(khz / 1000) + " MHz";
}

std::string quoted(const std::string& text) {
  return "\"" + text + "\"";
}

void compare_devices(const DeviceInfo& a, const DeviceInfo& b, const std::string& label,
                     std::vector<std::string>& out, bool model_only) {
  if (!a.name.empty() && !b.name.empty() && a.name != b.name) {
    out.push_back(label + " differs: baseline " + quoted(a.name) + ", candidate " + quoted(b.name) +
                  "; timings on different GPU models are not comparable.");
    return;  // every other property follows from the model
  }
  if (a.compute_capability_major != 0 && b.compute_capability_major != 0 &&
      (a.compute_capability_major != b.compute_capability_major ||
       a.compute_capability_minor != b.compute_capability_minor)) {
    out.push_back(label + " compute capability differs: baseline " +
                  std::to_string(a.compute_capability_major) + "." +
                  std::to_string(a.compute_capability_minor) + ", candidate " +
                  std::to_string(b.compute_capability_major) + "." +
                  std::to_string(b.compute_capability_minor) + ".");
  }
  if (model_only) return;
  if (a.sm_clock_khz != 0 && b.sm_clock_khz != 0 && a.sm_clock_khz != b.sm_clock_khz) {
    out.push_back(label + " SM clock differs: baseline " + mhz(a.sm_clock_khz) + ", candidate " +
                  mhz(b.sm_clock_khz) + "; kernel times scale with it.");
  }
  if (a.memory_clock_khz != 0 && b.memory_clock_khz != 0 &&
      a.memory_clock_khz != b.memory_clock_khz) {
    out.push_back(label + " memory clock differs: baseline " + mhz(a.memory_clock_khz) +
                  ", candidate " + mhz(b.memory_clock_khz) +
                  "; memory-bound kernels scale with it.");
  }
  // ECC is only trusted when the rest of the description is there: a minimal file leaves it
  // false without meaning "off".
  if (!a.name.empty() && !b.name.empty() && a.ecc_enabled != b.ecc_enabled) {
    out.push_back(label + " ECC differs: baseline " + (a.ecc_enabled ? "on" : "off") +
                  ", candidate " + (b.ecc_enabled ? "on" : "off") +
                  "; ECC changes memory bandwidth.");
  }
}

void compare_all_devices(const Environment& baseline, const Environment& candidate,
                         std::vector<std::string>& out, bool model_only) {
  const auto& a = baseline.devices;
  const auto& b = candidate.devices;
  if (a.size() == 1 && b.size() == 1) {
    // One GPU each: compare them whatever their ordinals, since CI runners number GPUs freely.
    compare_devices(a.front(), b.front(), "GPU", out, model_only);
  } else {
    for (const DeviceInfo& x : a) {
      for (const DeviceInfo& y : b) {
        if (x.index == y.index) {
          compare_devices(x, y, "GPU " + std::to_string(x.index), out, model_only);
        }
      }
    }
  }
}

}  // namespace

std::vector<std::string> report::gpu_model_differences(const Environment& baseline,
                                                       const Environment& candidate) {
  std::vector<std::string> out;
  compare_all_devices(baseline, candidate, out, true);
  return out;
}

std::vector<std::string> compare_environments(const Environment& baseline,
                                              const Environment& candidate) {
  std::vector<std::string> out;
  compare_all_devices(baseline, candidate, out, false);
  if (baseline.driver_version != 0 && candidate.driver_version != 0 &&
      baseline.driver_version != candidate.driver_version) {
    out.push_back("Driver differs: baseline supports CUDA " +
                  cuda_version(baseline.driver_version) + ", candidate CUDA " +
                  cuda_version(candidate.driver_version) + ".");
  }
  if (baseline.runtime_version != 0 && candidate.runtime_version != 0 &&
      baseline.runtime_version != candidate.runtime_version) {
    out.push_back("CUDA runtime differs: baseline " + cuda_version(baseline.runtime_version) +
                  ", candidate " + cuda_version(candidate.runtime_version) + ".");
  }
  if (!baseline.tool_version.empty() && !candidate.tool_version.empty() &&
      baseline.tool_version != candidate.tool_version) {
    out.push_back("kerntime version differs: baseline " + baseline.tool_version + ", candidate " +
                  candidate.tool_version +
                  "; check the release notes for changes to the measurement.");
  }
  return out;
}

}  // namespace kerntime
