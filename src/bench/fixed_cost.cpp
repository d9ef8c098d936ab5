// SPDX-License-Identifier: Apache-2.0
#include "bench/fixed_cost.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>

#include <cuda_runtime_api.h>
#include <fmt/core.h>

#include <kerntime/error.hpp>
#include <kerntime/measurement_info.hpp>

#include "cuda/cuda_check.hpp"
#include "io/file_reader.hpp"
#include "io/file_writer.hpp"

namespace kerntime::bench {
namespace {

constexpr const char* kHeader =
    "# kerntime: the GPU time of the benchmark engine's empty kernel by CUPTI, per GPU and "
    "driver (docs/benchmarks.md). Lines: device UUID, CUDA driver version, nanoseconds.\n";
constexpr const char* kFileName = "kernel-fixed-cost.txt";
// A value outside this is not an empty kernel's time: a corrupt or hand-edited line.
constexpr double kMaxPlausibleNs = 100'000.0;

std::mutex& lock() {
  static std::mutex m;
  return m;
}

std::map<std::string, double>& remembered() {
  static std::map<std::string, double> values;
  return values;
}

bool plausible(double ns) {
  return std::isfinite(ns) && ns > 0.0 && ns < kMaxPlausibleNs;
}

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string{value} : std::string{};
}

// The cache is small: anything larger than this is not a cache kerntime wrote.
constexpr std::uint64_t kMaxCacheBytes = 1 << 20;

std::optional<std::string> read_small_file(const std::string& path) {
  try {
    return io::read_file_bounded(path, path, kMaxCacheBytes, "fixed-cost cache");
  } catch (const Error&) {
    return std::nullopt;  // no cache yet, or an unreadable one: as if there were none
  }
}

struct CacheLine {
  std::string device_uuid;
  int driver_version = 0;
  double ns = 0.0;
};

// A line of the file, or nothing for a comment, a damaged line or an implausible value.
std::optional<CacheLine> parse_line(const std::string& line) {
  if (line.empty() || line[0] == '#') return std::nullopt;
  std::istringstream fields{line};
  CacheLine parsed;
  if (!(fields >> parsed.device_uuid >> parsed.driver_version >> parsed.ns)) return std::nullopt;
  if (!plausible(parsed.ns)) return std::nullopt;
  return parsed;
}

}  // namespace

FixedCostKey fixed_cost_key(int device) {
  cudaDeviceProp properties{};
  cuda::check_cuda(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  const auto* b = reinterpret_cast<const unsigned char*>(properties.uuid.bytes);
  FixedCostKey key;
  key.device_uuid = fmt::format(
      "GPU-{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}"
      "{:02x}{:02x}",
      b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
      b[15]);
  cuda::check_cuda(cudaDriverGetVersion(&key.driver_version), "cudaDriverGetVersion");
  return key;
}

std::string fixed_cost_cache_path() {
  const std::string off = env("KERNTIME_NO_CACHE");
  if (!off.empty() && off != "0") return {};
  if (const std::string dir = env("KERNTIME_CACHE_DIR"); !dir.empty()) return dir + "/" + kFileName;
  if (const std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty()) {
    return xdg + "/kerntime/" + kFileName;
  }
  if (const std::string home = env("HOME"); !home.empty()) {
    return home + "/.cache/kerntime/" + kFileName;
  }
  return {};
}

std::optional<double> cached_value(std::string_view text, const FixedCostKey& key) {
  std::istringstream lines{std::string{text}};
  for (std::string line; std::getline(lines, line);) {
    const std::optional<CacheLine> parsed = parse_line(line);
    if (parsed && parsed->device_uuid == key.device_uuid &&
        parsed->driver_version == key.driver_version) {
      return parsed->ns;
    }
  }
  return std::nullopt;
}

std::string cache_text_with(std::string_view text, const FixedCostKey& key, double ns) {
  std::string out = kHeader;
  std::istringstream lines{std::string{text}};
  for (std::string line; std::getline(lines, line);) {
    const std::optional<CacheLine> parsed = parse_line(line);
    // One line per GPU: an older driver's value goes, as the driver it was measured with did.
    if (parsed && parsed->device_uuid != key.device_uuid) out += line + "\n";
  }
  out += fmt::format("{} {} {}\n", key.device_uuid, key.driver_version, ns);
  return out;
}

void remember_fixed_cost(const FixedCostKey& key, double ns) {
  if (!plausible(ns)) return;
  std::lock_guard guard{lock()};
  remembered()[key.device_uuid] = ns;
  const std::string path = fixed_cost_cache_path();
  if (path.empty()) return;
  try {
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path{path}.parent_path(), ignored);
    const std::string old = read_small_file(path).value_or("");
    if (cached_value(old, key) == ns) return;
    io::write_file_atomically(path, cache_text_with(old, key, ns));
  } catch (...) {
    // A read-only home or a full disk costs a later process one calibration, nothing more.
  }
}

FixedCost remembered_fixed_cost(const FixedCostKey& key) {
  std::lock_guard guard{lock()};
  FixedCost known;
  if (const auto it = remembered().find(key.device_uuid); it != remembered().end()) {
    known.ns = it->second;
    known.source = kFixedCostFromProcess;
    return known;
  }
  const std::string path = fixed_cost_cache_path();
  if (path.empty()) return known;
  if (const std::optional<std::string> text = read_small_file(path)) {
    if (const std::optional<double> ns = cached_value(*text, key)) {
      known.ns = ns;
      known.source = kFixedCostFromCache;
    }
  }
  return known;
}

void forget_remembered_fixed_costs() {
  std::lock_guard guard{lock()};
  remembered().clear();
}

}  // namespace kerntime::bench
