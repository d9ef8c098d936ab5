// SPDX-License-Identifier: Apache-2.0
#include "bench/validate.hpp"

#include <cmath>
#include <string>

#include <kerntime/error.hpp>
#include <kerntime/measure.hpp>

namespace kerntime {
namespace {

void require(bool ok, const std::string& field, const std::string& rule, double value) {
  if (!ok) {
    throw Error("MeasureOptions::" + field + " must be " + rule + " (got " + std::to_string(value) +
                ")");
  }
}

bool finite_at_least(double value, double low) {
  return std::isfinite(value) && value >= low;
}

}  // namespace

void validate(const MeasureOptions& o) {
  if (o.name.empty()) throw Error("MeasureOptions::name must not be empty");
  const StoppingCriteria& s = o.stopping;
  require(s.min_samples >= 1, "stopping.min_samples", "at least 1",
          static_cast<double>(s.min_samples));
  require(finite_at_least(s.min_time_s, 0.0), "stopping.min_time_s", "a time >= 0", s.min_time_s);
  require(finite_at_least(s.max_noise, 0.0), "stopping.max_noise", "a share >= 0", s.max_noise);
  require(finite_at_least(s.max_ci_half_width, 0.0), "stopping.max_ci_half_width", "a share >= 0",
          s.max_ci_half_width);
  require(finite_at_least(s.max_ci_half_width_ns, 0.0), "stopping.max_ci_half_width_ns",
          "a time >= 0", s.max_ci_half_width_ns);
  require(std::isfinite(s.timeout_s) && s.timeout_s > 0.0, "stopping.timeout_s",
          "a time > 0 seconds", s.timeout_s);
  require(s.max_samples >= 1, "stopping.max_samples", "at least 1",
          static_cast<double>(s.max_samples));
  require(s.fixed_samples <= s.max_samples, "stopping.fixed_samples", "at most max_samples",
          static_cast<double>(s.fixed_samples));
  require(std::isfinite(o.blocking_timeout_s) && o.blocking_timeout_s >= 1e-3 &&
              o.blocking_timeout_s <= 600.0,
          "blocking_timeout_s", "between 0.001 and 600 seconds", o.blocking_timeout_s);
  require(std::isfinite(o.throttle_threshold) && o.throttle_threshold >= 0.0 &&
              o.throttle_threshold < 1.0,
          "throttle_threshold", "in [0, 1)", o.throttle_threshold);
  require(finite_at_least(o.throttle_recovery_s, 0.0), "throttle_recovery_s", "a time >= 0",
          o.throttle_recovery_s);
  require(std::isfinite(o.warmup_min_time_s) && o.warmup_min_time_s >= 0.0 &&
              o.warmup_min_time_s <= 60.0,
          "warmup_min_time_s", "between 0 and 60 seconds", o.warmup_min_time_s);
  require(std::isfinite(o.batch_target_s) && o.batch_target_s > 0.0, "batch_target_s", "a time > 0",
          o.batch_target_s);
  require(finite_at_least(o.work.bytes, 0.0), "work.bytes", "a count >= 0", o.work.bytes);
  require(finite_at_least(o.work.flops, 0.0), "work.flops", "a count >= 0", o.work.flops);
  require(finite_at_least(o.work.elements, 0.0), "work.elements", "a count >= 0", o.work.elements);
  for (std::size_t i = 0; i < o.counters.size(); ++i) {
    const Counter& c = o.counters[i];
    if (c.name.empty())
      throw Error("MeasureOptions::counters[" + std::to_string(i) + "] has no name");
    require(std::isfinite(c.value), "counters '" + c.name + "'", "a finite value", c.value);
    for (std::size_t j = 0; j < i; ++j) {
      if (o.counters[j].name == c.name) {
        throw Error("MeasureOptions::counters has two counters named '" + c.name + "'");
      }
    }
  }
}

}  // namespace kerntime
