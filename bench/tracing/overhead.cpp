// SPDX-License-Identifier: Apache-2.0
// The parent side of part (a): runs each configuration's process, pools their samples (each a
// batch's mean host time per launch) and compares medians.
#include "overhead.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <kerntime/kerntime.hpp>

namespace trace_examples {
namespace {

const char* const kConfigs[] = {"untraced", "bare-cupti", "kerntime"};
const char* const kVariants[] = {"launch", "launch-in-open-scope", "scoped-timer-per-launch"};

struct Pooled {
  // samples[config][phase][variant]
  std::map<std::string, std::map<std::string, std::map<std::string, std::vector<double>>>> samples;
  // Per process, in order of running: the median of its "enabled" launch samples.
  std::map<std::string, std::vector<double>> process_launch_ns;
  // Per process: median(enabled) - median(before) of each variant, [config][variant]. The
  // launch cost of a process moves by up to 2 us from one process to the next, much more than
  // the difference sought; within one process both phases share that level, so the difference
  // of the two phases cancels it.
  std::map<std::string, std::map<std::string, std::vector<double>>> process_cost_ns;
  std::map<std::string, std::vector<double>> enable_ns;
  std::map<std::string, std::vector<double>> first_launch_ns;
  std::vector<std::string> errors;
  unsigned long long kerntime_kernels = 0;
  unsigned long long dropped = 0;
};

void run_child(const std::string& self, const std::string& config, const OverheadSettings& s,
               Pooled& pooled) {
  const std::string command = "'" + self + "' --overhead-child " + config + " " +
                              std::to_string(s.batches) + " " + std::to_string(s.launches);
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    pooled.errors.push_back(config + ": cannot start " + command);
    return;
  }
  std::vector<double> launch_samples;
  std::map<std::string, std::map<std::string, std::vector<double>>> mine;  // [phase][variant]
  char line[4096];
  while (std::fgets(line, sizeof(line), pipe) != nullptr) {
    std::istringstream in{line};
    std::string key;
    in >> key;
    if (key == "sample") {
      std::string phase;
      std::string variant;
      double ns = 0;
      in >> phase >> variant >> ns;
      pooled.samples[config][phase][variant].push_back(ns);
      mine[phase][variant].push_back(ns);
      if (phase == "enabled" && variant == "launch") launch_samples.push_back(ns);
    } else if (key == "enable_ns" || key == "first_launch_ns") {
      double ns = 0;
      in >> ns;
      (key == "enable_ns" ? pooled.enable_ns : pooled.first_launch_ns)[config].push_back(ns);
    } else if (key == "records") {
      unsigned long long kernels = 0;
      unsigned long long dropped = 0;
      in >> kernels >> dropped;
      pooled.kerntime_kernels += kernels;
      pooled.dropped += dropped;
    } else if (key == "error") {
      pooled.errors.push_back(config + ": " + std::string{line + 6});
    }
  }
  if (!launch_samples.empty()) {
    pooled.process_launch_ns[config].push_back(kerntime::compute_statistics(launch_samples).median);
  }
  for (auto& [variant, enabled] : mine["enabled"]) {
    const auto& before = mine["before"][variant];
    if (enabled.empty() || before.empty()) continue;
    pooled.process_cost_ns[config][variant].push_back(kerntime::compute_statistics(enabled).median -
                                                      kerntime::compute_statistics(before).median);
  }
  const int status = pclose(pipe);
  if (status != 0) {
    pooled.errors.push_back(config + " process exited with status " + std::to_string(status));
  }
}

double median_of(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  return kerntime::compute_statistics(values).median;
}

std::string ms_range(const std::vector<double>& ns) {
  if (ns.empty()) return "-";
  const auto [low, high] = std::minmax_element(ns.begin(), ns.end());
  char text[128];
  std::snprintf(text, sizeof(text), "median %.3f ms (%.3f to %.3f ms, %zu processes)",
                median_of(ns) / 1e6, *low / 1e6, *high / 1e6, ns.size());
  return text;
}

}  // namespace

void run_overhead(const std::string& self, const OverheadSettings& s, Checks& checks) {
  Pooled pooled;
  for (int round = 0; round < s.rounds; ++round) {
    // Rotate the order each round, so no configuration always runs first or last.
    for (int i = 0; i < 3; ++i)
      run_child(self, kConfigs[(i + round) % 3], s, pooled);
  }
  std::printf(
      "(a) Host time per launch of an empty kernel: median of batch means (%d processes per "
      "configuration x %d batches x %d launches; variants interleaved batch by batch)\n\n",
      s.rounds, s.batches, s.launches);
  for (const std::string& error : pooled.errors)
    std::printf("  error: %s\n", error.c_str());

  std::printf("  %-24s %10s %11s %10s %11s %14s %14s\n", "Variant", "untraced", "bare CUPTI",
              "kerntime", "CUPTI cost", "kerntime cost", "ours - CUPTI");
  for (const char* variant : kVariants) {
    const double untraced = median_of(pooled.samples["untraced"]["enabled"][variant]);
    const double bare = median_of(pooled.samples["bare-cupti"]["enabled"][variant]);
    const double ours = median_of(pooled.samples["kerntime"]["enabled"][variant]);
    std::printf("  %-24s %10s %11s %10s %11s %14s %14s\n", variant, us(untraced).c_str(),
                us(bare).c_str(), us(ours).c_str(), signed_us(bare - untraced).c_str(),
                signed_us(ours - untraced).c_str(), signed_us(ours - bare).c_str());
  }
  std::printf(
      "\n  Within each process, enabled minus before (median over processes; what the checks "
      "use):\n");
  std::printf("  %-24s %11s %11s %14s %14s\n", "Variant", "untraced", "CUPTI cost", "kerntime cost",
              "ours - CUPTI");
  std::map<std::string, double> excess;
  for (const char* variant : kVariants) {
    const double drift = median_of(pooled.process_cost_ns["untraced"][variant]);
    const double bare = median_of(pooled.process_cost_ns["bare-cupti"][variant]);
    const double ours = median_of(pooled.process_cost_ns["kerntime"][variant]);
    excess[variant] = ours - bare;
    std::printf("  %-24s %11s %11s %14s %14s\n", variant, signed_us(drift).c_str(),
                signed_us(bare).c_str(), signed_us(ours).c_str(), signed_us(ours - bare).c_str());
  }
  std::printf(
      "\n  launch, median of each process in the order they ran (the spread between processes):\n");
  for (const char* config : kConfigs) {
    std::string list;
    for (const double ns : pooled.process_launch_ns[config])
      list += " " + us(ns);
    std::printf("    %-11s%s\n", config, list.c_str());
  }
  std::printf("\n  launch, untraced, in each process before anything was enabled (pooled):\n");
  for (const char* config : kConfigs) {
    std::printf("    %-11s processes: %s\n", config,
                us(median_of(pooled.samples[config]["before"]["launch"])).c_str());
  }
  std::printf("\n  Cost of enabling (after CUDA start and module load, i.e. a late enable):\n");
  std::printf("    kerntime::Tracer construction: %s\n",
              ms_range(pooled.enable_ns["kerntime"]).c_str());
  std::printf("    bare CUPTI subscribe + enable: %s\n",
              ms_range(pooled.enable_ns["bare-cupti"]).c_str());
  std::printf("    first launch + sync after enabling: kerntime %s, bare CUPTI %s\n",
              us(median_of(pooled.first_launch_ns["kerntime"]), 1).c_str(),
              us(median_of(pooled.first_launch_ns["bare-cupti"]), 1).c_str());
  std::printf("\n");

  checks.check(
      pooled.errors.empty(), "every configuration ran",
      pooled.errors.empty() ? std::to_string(3 * s.rounds) + " processes" : pooled.errors.front());
  checks.check(pooled.dropped == 0, "no records dropped while measuring",
               std::to_string(pooled.dropped) + " dropped, " +
                   std::to_string(pooled.kerntime_kernels) + " kernels traced by kerntime");
  for (const char* variant : kVariants) {
    checks.check(
        excess[variant] <= kOverheadLimitNs, std::string{"kerntime over bare CUPTI, "} + variant,
        signed_us(excess[variant]) + " per launch (limit +" + us(kOverheadLimitNs, 1) + ")");
  }
}

}  // namespace trace_examples
