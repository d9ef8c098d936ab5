// SPDX-License-Identifier: Apache-2.0
#include "accuracy_events_only.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>
#include <unistd.h>

#include <kerntime/error.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/tracer.hpp>

#include "bare_cupti.hpp"
#include "device_buffer.hpp"
#include "kernels/samples.hpp"

namespace kerntime::examples {
namespace {

constexpr std::size_t kLargestCopy = std::size_t{1} << 30;

struct Scenario {
  const char* name;
  const char* environment;  ///< set for the child only
  const char* meaning;
};

const Scenario kScenarios[] = {
    {"held", "KERNTIME_NO_CACHE=1 KERNTIME_CLI=" KERNTIME_CLI_PATH,
     "CUPTI held by another client from the start, no cache (fixed cost from a calibration "
     "process)"},
    {"absent", "KERNTIME_CUPTI_LIBRARY=/nonexistent/libcupti.so",
     "CUPTI absent (fixed cost from the cache)"},
    {"none", "KERNTIME_CUPTI_LIBRARY=/nonexistent/libcupti.so KERNTIME_NO_CACHE=1",
     "CUPTI absent and no cache: the floor alone"},
};

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string{"'\\''"} : std::string(1, c);
  return out + "'";
}

std::vector<EventsOnlyRow> parse_rows(const std::string& text, std::string& cupti_line) {
  std::vector<EventsOnlyRow> rows;
  std::istringstream lines{text};
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields{line};
    std::string tag;
    fields >> tag;
    if (tag == "cupti") {
      std::getline(fields, cupti_line);
      continue;
    }
    if (tag != "row") continue;
    EventsOnlyRow row;
    std::string fixed;
    int says_copies_high = 0;
    fields >> row.name >> row.headline_ns >> row.events_ns >> row.floor_ns >> fixed >> row.source >>
        row.samples >> says_copies_high >> row.stop;
    row.says_copies_high = says_copies_high != 0;
    if (fixed != "-") row.fixed_cost_ns = std::stod(fixed);
    rows.push_back(row);
  }
  return rows;
}

std::vector<EventsOnlyRow> run_child(const Scenario& scenario, const std::string& cache_dir,
                                     std::string& cupti_line) {
  const std::string command = std::string{"KERNTIME_CACHE_DIR="} + shell_quoted(cache_dir) + " " +
                              scenario.environment + " " + shell_quoted(own_executable()) +
                              " --events-only=" + scenario.name;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw Error("cannot start " + command);
  std::string text;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr)
    text += buffer;
  const int status = ::pclose(pipe);
  if (status != 0) {
    throw Error(std::string{"the events-only child ("} + scenario.name + ") failed: " + text);
  }
  return parse_rows(text, cupti_line);
}

double us(double ns) {
  return ns / 1000.0;
}

bool within(double error, double reference) {
  return std::abs(error) <= std::max(0.02 * reference, 250.0);
}

// A corrected headline says copies may read up to 0.8 us high (src/bench/sampler.cpp): a copy
// that misses the target is within what it says only if its headline said so and read high by
// no more than that.
constexpr double kCopiesSaidHighNs = 800.0;

bool high_as_said(double error, bool says_copies_high) {
  return says_copies_high && error > 0.0 && error <= kCopiesSaidHighNs;
}

// The floor alone (no fixed cost known) says it may read low by about 0.5 to 1.1 us
// (src/bench/sampler.cpp): below by up to that, plus the target's 2 % for the work's own noise,
// and never above the target.
bool within_what_it_says(double error, double reference) {
  return error >= -(1100.0 + 0.02 * reference) && error <= std::max(0.02 * reference, 250.0);
}

}  // namespace

std::string own_executable() {
  char path[4096];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) throw Error("cannot find bench_accuracy's own executable (/proc/self/exe)");
  return std::string(path, static_cast<std::size_t>(n));
}

std::vector<EventsOnlyCase> events_only_cases() {
  std::vector<EventsOnlyCase> cases;
  for (std::uint64_t ns : {2'000u, 5'000u, 10'000u, 100'000u, 1'000'000u, 10'000'000u}) {
    cases.push_back({"spin/ns=" + std::to_string(ns) + "/cold", ns, 0, 0.0});
  }
  for (std::uint64_t bytes :
       {std::uint64_t{1} << 20, std::uint64_t{1} << 26, std::uint64_t{1} << 30}) {
    cases.push_back({"device_copy/bytes=" + std::to_string(bytes) + "/cold", 0, bytes, 0.0});
  }
  return cases;
}

int run_events_only_child(const std::string& scenario) {
  // The other client starts before kerntime looks at CUPTI, as a tool attached at launch does.
  std::unique_ptr<trace_examples::BareCupti> other;
  if (scenario == "held") other = std::make_unique<trace_examples::BareCupti>();
  {
    Tracer probe;  // what a user's Tracer would find here
    std::printf("cupti %s\n",
                probe.active() ? "free (a Tracer started)" : probe.unavailable_reason().c_str());
  }
  const DeviceBuffer src{kLargestCopy};
  const DeviceBuffer dst{kLargestCopy};
  Engine engine;
  for (const EventsOnlyCase& c : events_only_cases()) {
    MeasureOptions options;  // the defaults: cold, L2 flush, no Tracer
    options.name = c.name;
    Launcher launcher;
    if (c.spin_ns > 0) {
      launcher = [ns = c.spin_ns](cudaStream_t s) { samples::launch_spin(ns, s); };
    } else {
      launcher = [&src, &dst, bytes = c.copy_bytes](cudaStream_t s) {
        samples::launch_device_copy(dst.as<void>(), src.as<void>(), bytes, s);
      };
    }
    const Measurement m = engine.measure(launcher, options);
    const bool says_copies_high =
        std::any_of(m.warnings.begin(), m.warnings.end(), [](const std::string& warning) {
          return warning.find("high on device copies") != std::string::npos;
        });
    const std::string fixed = m.info.kernel_fixed_cost_ns
                                  ? std::to_string(*m.info.kernel_fixed_cost_ns)
                                  : std::string{"-"};
    std::printf(
        "row %s %.3f %.3f %.3f %s %s %zu %d %s\n", m.name.c_str(), m.headline.median,
        m.events.median, m.info.event_floor_ns, fixed.c_str(),
        m.info.kernel_fixed_cost_source.empty() ? "-" : m.info.kernel_fixed_cost_source.c_str(),
        m.headline.count, says_copies_high ? 1 : 0, m.info.stop_reason.c_str());
  }
  if (other) other->stop();
  return 0;
}

int events_only_section(const std::vector<EventsOnlyCase>& cases, const std::string& cache_dir) {
  std::vector<std::vector<EventsOnlyRow>> results;
  std::printf("## Events only (no CUPTI headline), cold mode\n\n");
  std::printf(
      "Each scenario is a child process of bench_accuracy measuring with the defaults and no "
      "Tracer. References: spins, the kernel's CUPTI duration from plain launches; copies, the "
      "engine's cold CUPTI headline. Target: max(2%%, 0.25 us) in the first two (a copy's headline "
      "may instead say it reads up to 0.8 us high: \"as it says\" when it did and was within "
      "that); in the third, what its warning says (low by up to 1.1 us, plus 2%% of the "
      "work).\n\n");
  for (const Scenario& scenario : kScenarios) {
    std::string cupti_line;
    results.push_back(run_child(scenario, cache_dir, cupti_line));
    std::printf("- %s: %s; a Tracer there finds:%s\n", scenario.name, scenario.meaning,
                cupti_line.c_str());
  }
  std::printf(
      "\n| Configuration | Reference | Held: headline | Error | Within | Absent: headline | "
      "Error | Within | None: headline | Error | As it says | Floor | Fixed cost (source) |\n");
  std::printf("|---|---:|---:|---:|:-:|---:|---:|:-:|---:|---:|:-:|---:|---:|\n");
  int missed = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const EventsOnlyCase& c = cases[i];
    std::string cells;
    for (std::size_t s = 0; s < results.size(); ++s) {
      if (i >= results[s].size() || results[s][i].name != c.name) {
        throw Error("the events-only child (" + std::string{kScenarios[s].name} +
                    ") did not measure " + c.name);
      }
      const EventsOnlyRow& row = results[s][i];
      const double error = row.headline_ns - c.reference_ns;
      char cell[160];
      if (s < 2) {
        // Spins are held to the target; copies to the target or to what their headline says.
        const bool on_target = within(error, c.reference_ns);
        const bool ok =
            on_target || (c.copy_bytes > 0 && high_as_said(error, row.says_copies_high));
        missed += ok ? 0 : 1;
        std::snprintf(cell, sizeof cell, " %.3f us | %+.3f us (%+.2f%%) | %s |",
                      us(row.headline_ns), us(error), 100.0 * error / c.reference_ns,
                      on_target ? "yes"
                      : ok      ? "as it says"
                                : "**NO**");
      } else {
        const bool ok = within_what_it_says(error, c.reference_ns);
        missed += ok ? 0 : 1;
        std::snprintf(cell, sizeof cell, " %.3f us | %+.3f us (%+.2f%%) | %s |",
                      us(row.headline_ns), us(error), 100.0 * error / c.reference_ns,
                      ok ? "yes" : "**NO**");
      }
      cells += cell;
    }
    const EventsOnlyRow& held = results[0][i];
    char fixed[96] = "unknown";
    if (held.fixed_cost_ns) {
      std::snprintf(fixed, sizeof fixed, "%.3f us (%s)", us(*held.fixed_cost_ns),
                    held.source.c_str());
    }
    std::printf("| %s | %.3f us |%s %.3f us | %s |\n", c.name.c_str(), us(c.reference_ns),
                cells.c_str(), us(held.floor_ns), fixed);
  }
  std::printf("\n");
  return missed;
}

}  // namespace kerntime::examples
