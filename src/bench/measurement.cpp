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

namespace {

Entry entry_of(std::string name, std::string timer, int device, std::vector<double> samples,
               const Statistics& statistics) {
  Entry entry;
  entry.name = std::move(name);
  entry.timer = std::move(timer);
  entry.device = device;
  entry.samples = std::move(samples);
  entry.statistics = statistics;
  return entry;
}

}  // namespace

void add_to_report(Report& report, const Measurement& m) {
  if (report.find(m.name) != nullptr || report.find(m.name + "/events") != nullptr) {
    throw Error("the report already has an entry named '" + m.name +
                "'; give each measurement a unique name");
  }
  report.entries.push_back(entry_of(m.name, m.headline_timer, m.device, m.headline_ns, m.headline));
  report.entries.back().measurement = std::make_shared<const MeasurementInfo>(m.info);

  // The raw event time of the very samples the headline counts, so that the two sit side by
  // side in any view and a comparison can check either.
  std::vector<double> event_ns;
  event_ns.reserve(m.headline_ns.size());
  for (const SampleRecord& r : m.samples) {
    const bool counted =
        r.valid && !r.throttled && (m.headline_timer != "cupti-kernel" || r.cupti_ns);
    if (counted) event_ns.push_back(r.event_ns);
  }
  report.entries.push_back(
      entry_of(m.name + "/events", "cuda-event", m.device, std::move(event_ns), m.events));

  for (const std::string& w : m.warnings)
    report.warnings.push_back(m.name + ": " + w);
}

}  // namespace kerntime
