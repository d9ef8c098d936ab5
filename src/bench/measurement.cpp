// SPDX-License-Identifier: Apache-2.0
#include <kerntime/error.hpp>
#include <kerntime/measurement.hpp>

namespace kerntime {

std::string_view to_string(MeasureMode mode) {
  switch (mode) {
    case MeasureMode::cold:
      return "cold";
    case MeasureMode::hot:
      return "hot";
    case MeasureMode::graph:
      return "graph";
  }
  return "unknown";
}

MeasureMode parse_measure_mode(std::string_view name) {
  if (name == "cold") return MeasureMode::cold;
  if (name == "hot") return MeasureMode::hot;
  if (name == "graph") return MeasureMode::graph;
  throw Error("unknown measurement mode '" + std::string{name} +
              "'; the modes are cold, hot and graph");
}

std::string_view to_string(StopReason reason) {
  switch (reason) {
    case StopReason::fixed_count:
      return "fixed-count";
    case StopReason::stable:
      return "stable";
    case StopReason::noise:
      return "noise";
    case StopReason::max_samples:
      return "max-samples";
    case StopReason::timeout:
      return "timeout";
  }
  return "unknown";
}

void add_to_report(Report& report, const Measurement& m) {
  if (report.find(m.name) != nullptr || report.find(m.name + "/events") != nullptr) {
    throw Error("the report already has an entry named '" + m.name +
                "'; give each measurement a unique name");
  }
  Entry headline;
  headline.name = m.name;
  headline.timer = m.headline_timer;
  headline.device = m.device;
  headline.samples = m.headline_ns;
  headline.statistics = m.headline;
  headline.measurement = std::make_shared<const MeasurementInfo>(m.info);
  report.entries.push_back(std::move(headline));

  // The raw event time of the very samples the headline counts, so that the two sit side by
  // side in any view and a comparison can check either.
  Entry events;
  events.name = m.name + "/events";
  events.timer = "cuda-event";
  events.device = m.device;
  events.statistics = m.events;
  events.samples.reserve(m.headline_ns.size());
  for (const SampleRecord& r : m.samples) {
    const bool counted =
        r.valid && !r.throttled && (m.headline_timer != "cupti-kernel" || r.cupti_ns);
    if (counted) events.samples.push_back(r.event_ns);
  }
  report.entries.push_back(std::move(events));

  for (const std::string& w : m.warnings)
    report.warnings.push_back(m.name + ": " + w);
}

}  // namespace kerntime
