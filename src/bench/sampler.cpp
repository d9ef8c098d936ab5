// SPDX-License-Identifier: Apache-2.0
#include "bench/sampler.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "bench/clock_event_reasons.hpp"
#include "bench/stopping.hpp"

namespace kerntime::bench {
namespace {

constexpr std::size_t kListedThrottled = 8;
// A median SM clock under this share of the normal one is said, though no sample is dropped: on
// the H200 unthrottled kernels ran at a median of 99.4 - 100 % of the clock (docs/benchmarks.md).
constexpr double kReducedClockFraction = 0.98;

std::string headline_timer(const SampleSource& source, MeasureMode mode) {
  if (source.cupti()) return "cupti-kernel";
  if (mode != MeasureMode::cold) return "cuda-event-batch";
  // No floor: calibration was skipped (no blocking kernel, or one sample), so nothing is
  // subtracted and the headline is the plain event time.
  return source.event_floor_ns() > 0.0 ? "cuda-event-corrected" : "cuda-event";
}

// The headline of one sample, or nothing when it cannot count.
// Cold, events only: the event time beyond the floor (an empty kernel between the events),
// plus that empty kernel's own GPU time, which the floor holds and every kernel spends too.
std::optional<double> headline_of(const RawSample& s, const SampleSource& source, MeasureMode mode,
                                  double fixed_cost_ns) {
  if (!s.valid) return std::nullopt;
  if (source.cupti()) return s.cupti_ns;
  if (mode == MeasureMode::cold) {
    return std::max(s.event_ns - source.event_floor_ns() + fixed_cost_ns, 0.0);
  }
  return s.event_ns;
}

std::vector<double> event_times(const std::vector<SampleRecord>& records,
                                const std::vector<std::size_t>& counted) {
  std::vector<double> values;
  values.reserve(counted.size());
  for (std::size_t i : counted)
    values.push_back(records[i].event_ns);
  return values;
}

std::vector<double> present(const std::vector<SampleRecord>& records,
                            const std::vector<std::size_t>& counted,
                            std::optional<double> SampleRecord::*time) {
  std::vector<double> values;
  values.reserve(counted.size());
  for (std::size_t i : counted) {
    if (records[i].*time) values.push_back(*(records[i].*time));
  }
  return values;
}

std::optional<double> median_of(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  return median(std::move(values));
}

void summarize_throttling(Measurement& m, double threshold) {
  if (m.info.throttled_samples == 0) return;
  std::string listed;
  std::size_t shown = 0;
  std::uint64_t reasons = 0;
  for (const SampleRecord& r : m.samples) {
    if (!r.throttled) continue;
    reasons |= r.clock_event_reasons.value_or(0);
    if (shown == kListedThrottled) continue;
    listed += fmt::format("{}{:.0f} MHz", shown == 0 ? "" : ", ", *r.sm_clock_mhz);
    ++shown;
  }
  const std::string cause = slowing_clock_events_in_words(reasons);
  m.warnings.push_back(fmt::format(
      "{} of {} samples ran with the SM clock under {:.0f}% of the device's {:.0f} MHz and were "
      "left out of the statistics ({}{}); the GPU is throttling ({})",
      m.info.throttled_samples, m.samples.size(), 100.0 * threshold, m.info.normal_sm_clock_mhz,
      listed, m.info.throttled_samples > shown ? ", ..." : "",
      cause.empty() ? "heat, power or clock limits" : "NVML names " + cause));
}

// What NVML said held the clock down in the samples that count, for the reduced-clock warning.
std::string slowdown_cause(const Measurement& m, std::uint64_t reasons) {
  const std::string generic =
      "a power- or heat-capped GPU (after heavy work, or a kernel at the power limit) runs every "
      "kernel slower in proportion";
  if (m.info.slowed_samples == 0) return generic;
  return fmt::format(
      "NVML named {} in {} of the {} samples that count{}, and every kernel runs "
      "slower in proportion",
      slowing_clock_events_in_words(reasons), m.info.slowed_samples, m.headline_ns.size(),
      m.info.median_power_w ? fmt::format(" (median power draw {:.0f} W)", *m.info.median_power_w)
                            : std::string{});
}

// NVML's readings of the samples that count: how many ran slowed, by what, at what power.
// Returns the slowing reasons seen.
std::uint64_t summarize_power(Measurement& m, const std::vector<std::size_t>& counted) {
  std::uint64_t reasons = 0;
  std::vector<double> power;
  for (std::size_t i : counted) {
    const SampleRecord& r = m.samples[i];
    if (r.power_w) power.push_back(*r.power_w);
    if (!r.clock_event_reasons || (*r.clock_event_reasons & kSlowingClockEvents) == 0) continue;
    ++m.info.slowed_samples;
    reasons |= *r.clock_event_reasons;
  }
  m.info.clock_event_reasons = slowing_clock_event_names(reasons);
  m.info.median_power_w = median_of(std::move(power));
  return reasons & kSlowingClockEvents;
}

// Above the throttle threshold a power- or heat-capped GPU still runs every kernel slower in
// proportion to its clock: softmax measured right after a burst of GEMMs read 7 % slow at 91 %
// of the H200's clock (docs/benchmarks.md). Its samples are kept (they are the GPU's real
// speed at that moment), and the measurement says so.
void warn_of_a_reduced_clock(Measurement& m, double threshold, std::uint64_t reasons) {
  // The samples that count: throttled ones are left out and have a warning of their own.
  std::vector<double> clocks;
  for (const SampleRecord& r : m.samples) {
    if (r.sm_clock_mhz && !r.throttled) clocks.push_back(*r.sm_clock_mhz);
  }
  const std::optional<double> clock = median_of(std::move(clocks));
  const double normal = m.info.normal_sm_clock_mhz;
  if (!clock || !(normal > 0.0) || !(*clock < kReducedClockFraction * normal)) return;
  m.warnings.push_back(fmt::format(
      "the SM clock ran at a median of {:.0f} MHz, {:.0f}% of the device's {:.0f} MHz{}: {}; "
      "compare this time only with times measured at the same clock",
      *clock, 100.0 * *clock / normal, normal,
      threshold > 0.0
          ? fmt::format(" in the samples that count (the throttle threshold is {:.0f}%)",
                        100.0 * threshold)
          : std::string{},
      slowdown_cause(m, reasons)));
}

}  // namespace

bool is_throttled(const std::optional<double>& clock_mhz, double normal_mhz, double threshold) {
  return clock_mhz.has_value() && normal_mhz > 0.0 && *clock_mhz < threshold * normal_mhz;
}

Measurement run_measurement(SampleSource& source, const MeasureOptions& options, int device,
                            double peak_gb_per_s) {
  Measurement m;
  m.name = options.name;
  m.info.mode = std::string{to_string(options.mode)};
  m.device = device;
  m.info.work = options.work;
  m.info.counters = options.counters;
  m.info.warmup_samples = options.run_once ? 0 : options.warmup_samples;
  m.info.peak_bandwidth_gb_per_s = peak_gb_per_s > 0.0 ? peak_gb_per_s : 0.0;

  const double start = source.now_s();
  m.info.warmup_samples =
      source.warm_up(m.info.warmup_samples, options.run_once ? 0.0 : options.warmup_min_time_s);
  m.info.normal_sm_clock_mhz = source.normal_clock_mhz();
  m.info.batch_size = source.batch_size();

  std::vector<std::size_t> counted_index;
  std::vector<double> activities;  // per counted sample, with CUPTI
  std::size_t below_floor = 0;     // cold, events only: samples no longer than the launch floor
  m.info.event_floor_ns = source.event_floor_ns();
  const FixedCost fixed = source.kernel_fixed_cost();
  m.info.kernel_fixed_cost_ns = fixed.ns;
  m.info.kernel_fixed_cost_source = fixed.ns ? fixed.source : std::string{};
  StopDecision decision;
  while (!decision.stop) {
    const double round_start = source.now_s();
    const double elapsed = round_start - start;
    const double per_sample =
        m.samples.empty() ? 0.0 : (round_start - start) / static_cast<double>(m.samples.size());
    const std::size_t size =
        options.run_once
            ? 1
            : next_round_size(options.stopping, m.headline_ns.size(), elapsed, per_sample);
    const std::vector<RawSample> round = source.take(size);
    bool throttled_round = false;
    for (const RawSample& raw : round) {
      const bool throttled = raw.valid && is_throttled(raw.sm_clock_mhz, m.info.normal_sm_clock_mhz,
                                                       options.throttle_threshold);
      SampleRecord record;
      record.event_ns = raw.event_ns;
      record.cupti_ns = raw.cupti_ns;
      record.cupti_sum_ns = raw.cupti_sum_ns;
      record.sm_clock_mhz = raw.sm_clock_mhz;
      record.clock_event_reasons = raw.clock_event_reasons;
      record.power_w = raw.power_w;
      record.valid = raw.valid;
      record.throttled = throttled;
      record.host_overhead_ns = raw.host_overhead_ns;
      m.info.invalid_samples += raw.valid ? 0 : 1;
      m.info.throttled_samples += record.throttled ? 1 : 0;
      throttled_round = throttled_round || record.throttled;
      const std::optional<double> headline =
          headline_of(raw, source, options.mode, fixed.ns.value_or(0.0));
      if (headline && !record.throttled) {
        counted_index.push_back(m.samples.size());
        m.headline_ns.push_back(*headline);
        if (raw.cupti_activities) activities.push_back(*raw.cupti_activities);
        below_floor += raw.event_ns <= m.info.event_floor_ns ? 1 : 0;
      }
      m.samples.push_back(record);
    }
    for (std::string& w : source.take_warnings())
      m.warnings.push_back(std::move(w));
    if (throttled_round && options.throttle_recovery_s > 0) {
      source.pause(options.throttle_recovery_s);
    }
    if (options.on_progress) {
      options.on_progress(MeasureProgress{&m.name, m.headline_ns.size(), source.now_s() - start,
                                          options.stopping.timeout_s});
    }
    decision = options.run_once
                   ? StopDecision{true, StopReason::fixed_count, "one sample (run once)", false}
                   : check_stopping(options.stopping, m.headline_ns, source.now_s() - start,
                                    source.batch_size());
  }

  m.info.stop_reason = std::string{to_string(decision.reason)};
  m.info.stop_detail = decision.detail;
  if (decision.warn) m.warnings.push_back("stopped without a stable estimate: " + decision.detail);
  m.info.wall_time_s = source.now_s() - start;
  m.headline_timer = headline_timer(source, options.mode);
  m.info.blocking_kernel = source.blocking();
  m.info.l2_flushed = source.l2_flushed();

  m.headline = compute_statistics(m.headline_ns);
  std::vector<double> sorted_headline = m.headline_ns;
  std::sort(sorted_headline.begin(), sorted_headline.end());
  m.median_ci_half_width = median_ci_half_width(sorted_headline);
  m.events = compute_statistics(event_times(m.samples, counted_index));
  if (source.cupti()) {
    m.cupti = compute_statistics(present(m.samples, counted_index, &SampleRecord::cupti_ns));
    const std::vector<double> sums = present(m.samples, counted_index, &SampleRecord::cupti_sum_ns);
    m.cupti_sum = compute_statistics(sums);
    m.info.median_cupti_sum_ns = median_of(sums);
    m.info.activities_per_call = median_of(activities);
  }

  std::vector<double> clocks;
  std::vector<double> overheads;
  for (const SampleRecord& r : m.samples) {
    if (r.sm_clock_mhz) clocks.push_back(*r.sm_clock_mhz);
    overheads.push_back(r.host_overhead_ns);
  }
  m.info.median_sm_clock_mhz = median_of(std::move(clocks));
  // The median: the first sample after a round's CUPTI flush pays for the flush, and a mean
  // would spread that over the round.
  m.info.host_overhead_ns = median(std::move(overheads));
  const std::uint64_t slowing = summarize_power(m, counted_index);
  summarize_throttling(m, options.throttle_threshold);
  warn_of_a_reduced_clock(m, options.throttle_threshold, slowing);
  if (!source.cupti() && m.info.event_floor_ns > 0 && 2 * below_floor > m.headline_ns.size()) {
    m.warnings.push_back(fmt::format(
        "most samples took no longer than the launch floor ({:.3f} us, an empty kernel between "
        "the events): the work's GPU time is below what events resolve; measure it with CUPTI "
        "or in graph mode",
        m.info.event_floor_ns / 1e3));
  }
  // The range is what the floor alone read over processes and days: on the H200 -0.53 to -0.63 us
  // one day, -0.77 to -0.90 us another; on an H100 -0.77 to -1.02 us (bench_accuracy,
  // docs/benchmarks.md), which then checks it.
  if (m.headline_timer == "cuda-event-corrected" && m.info.event_floor_ns > 0.0 && !fixed.ns) {
    m.warnings.push_back(
        "the events-only headline may read low by about 0.5 to 1.1 us (0.5 to 0.9 us measured on "
        "an H200, 0.8 to 1.0 us on an H100; up to 45 % of a 2.5 us kernel, about 1 % of a 100 us "
        "one): the GPU time of an empty kernel (0.53 to 0.67 us on an H200, 0.86 us on an H100), "
        "which events cannot see and no CUPTI calibration of this GPU has measured yet, and the "
        "launch floor's drift between processes (up to 0.3 us)" +
        (fixed.unknown_reason.empty() ? std::string{} : " (" + fixed.unknown_reason + ")") +
        "; one measurement with CUPTI available (a Tracer, or none held by another tool) "
        "remembers it for this GPU (docs/benchmarks.md)");
  }
  // With the fixed cost known, spins read within max(2 %, 0.25 us) of CUPTI; copies did not, on
  // either GPU (bench_accuracy's events-only section, docs/benchmarks.md), and nothing here
  // tells a kernel that writes much memory from one that does not.
  if (m.headline_timer == "cuda-event-corrected" && m.info.event_floor_ns > 0.0 && fixed.ns) {
    m.warnings.push_back(
        "events only: the headline read within max(2 %, 0.25 us) of CUPTI's kernel time on "
        "compute-bound kernels from 2.5 us to 10 ms, but may read up to 0.8 us high on device "
        "copies of 1 MiB to 1 GiB (0.72 us, 2.1 %, the most measured), which events see end "
        "later than CUPTI does (an H200 and an H100, docs/benchmarks.md); CUPTI measures either "
        "exactly");
  }
  if (m.info.invalid_samples > 0) {
    m.warnings.push_back(fmt::format("{} of {} samples were invalid and left out",
                                     m.info.invalid_samples, m.samples.size()));
  }
  if (m.headline.count > 0) {
    m.info.throughput = compute_throughput(m.info.work, m.headline.median, peak_gb_per_s);
  }
  return m;
}

}  // namespace kerntime::bench
