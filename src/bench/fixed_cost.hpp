// SPDX-License-Identifier: Apache-2.0
// The kernel fixed cost: the GPU time of the engine's empty kernel as CUPTI sees it, which every
// kernel spends too and which the events-only floor (an empty kernel between two events)
// therefore must not remove (docs/benchmarks.md). Only CUPTI can see it, so once a calibration
// with CUPTI measured it, it is remembered per GPU for the rest of the process and in a small
// file, so that an events-only measurement later (CUPTI held by another tool, or absent) can use
// it. No device constant is assumed anywhere.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kerntime::bench {

/// What the engine knows of one device's fixed cost.
struct FixedCost {
  std::optional<double> ns;
  std::string source;          ///< a kFixedCostFrom... name when `ns` is known
  std::string unknown_reason;  ///< why it is not known, for the warning; empty when known
};

/// The GPU a fixed cost belongs to: its UUID ("GPU-5c3f...", as nvidia-smi writes it) and the
/// CUDA driver version, since a driver update may change the launch path.
struct FixedCostKey {
  std::string device_uuid;
  int driver_version = 0;
};

/// The key of CUDA device `device`; throws kerntime::Error when CUDA cannot describe it.
FixedCostKey fixed_cost_key(int device);

/// Remembers `ns` for the rest of the process and writes it to the cache file (a failure to
/// write is not an error: the cache only saves a later process a CUPTI calibration).
void remember_fixed_cost(const FixedCostKey& key, double ns);

/// A value this process measured before (source kFixedCostFromProcess), else the cache file's
/// (kFixedCostFromCache), else nothing.
FixedCost remembered_fixed_cost(const FixedCostKey& key);

/// The cache file: $KERNTIME_CACHE_DIR/kernel-fixed-cost.txt, else
/// $XDG_CACHE_HOME/kerntime/kernel-fixed-cost.txt, else ~/.cache/kerntime/kernel-fixed-cost.txt;
/// empty when KERNTIME_NO_CACHE is set to anything but "" or "0", or no folder is known.
std::string fixed_cost_cache_path();

/// The cache file's text with `key`'s value set to `ns` (other lines kept), and the value of
/// `key` in such a text; for the tests, which need no file.
std::string cache_text_with(std::string_view text, const FixedCostKey& key, double ns);
std::optional<double> cached_value(std::string_view text, const FixedCostKey& key);

/// Forgets what the process remembered (not the file); for tests.
void forget_remembered_fixed_costs();

}  // namespace kerntime::bench
