// SPDX-License-Identifier: Apache-2.0
// bench_accuracy's events-only section: the engine's headline without CUPTI, measured in child
// processes of bench_accuracy in the situations a user meets, against the CUPTI figures of the
// parent (docs/benchmarks.md, "Events only"):
//   held    another CUPTI client holds CUPTI from the start (as Nsight Systems or
//           compute-sanitizer do); the fixed cost comes from the cache the parent's CUPTI
//           calibration wrote
//   absent  no CUPTI can be loaded (KERNTIME_CUPTI_LIBRARY points nowhere); the cache likewise
//   none    absent and no cache (KERNTIME_NO_CACHE=1): the floor alone, reading low by the
//           fixed cost, as every events-only headline did before
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kerntime::examples {

/// One configuration of the section and its reference: for spins the kernel's CUPTI duration
/// from plain launches, for copies the engine's cold CUPTI headline (same flush, same sizes).
struct EventsOnlyCase {
  std::string name;  ///< "spin/ns=2000/cold", "device_copy/bytes=1048576/cold"
  std::uint64_t spin_ns = 0;
  std::uint64_t copy_bytes = 0;
  double reference_ns = 0.0;
};

/// What a child measured for one case.
struct EventsOnlyRow {
  std::string name;
  double headline_ns = 0.0;
  double events_ns = 0.0;
  double floor_ns = 0.0;
  std::optional<double> fixed_cost_ns;
  std::string source;  ///< where the fixed cost came from; "-" when unknown
  std::size_t samples = 0;
  bool says_copies_high = false;  ///< a warning says copies may read up to 0.8 us high
  std::string stop;
};

/// bench_accuracy's own path (/proc/self/exe), for its children.
std::string own_executable();

/// The spins and copies of the section, references not yet filled in.
std::vector<EventsOnlyCase> events_only_cases();

/// The child's body (`bench_accuracy --events-only=SCENARIO`): measures every case without a
/// Tracer and prints one "row" line per case and one "cupti" line saying what a Tracer finds.
int run_events_only_child(const std::string& scenario);

/// Runs the three children and prints the section's table against `cases`' references;
/// returns the number of targets missed (held and absent within max(2 %, 0.25 us), or for copies
/// high by no more than the 0.8 us their headline says; the floor
/// alone within what its warning says: low by up to 1.1 us, plus 2 % of the work).
int events_only_section(const std::vector<EventsOnlyCase>& cases, const std::string& cache_dir);

}  // namespace kerntime::examples
