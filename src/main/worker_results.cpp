// SPDX-License-Identifier: Apache-2.0
#include "main/worker_results.hpp"

#include <algorithm>
#include <exception>
#include <optional>

#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/throughput.hpp>

#include "io/json_text.hpp"

namespace kerntime::bench {
namespace {

using Json = nlohmann::json;

constexpr StopReason kStopReasons[] = {StopReason::fixed_count, StopReason::stable,
                                       StopReason::noise, StopReason::max_samples,
                                       StopReason::timeout};

StopReason parse_stop_reason(const std::string& name) {
  for (StopReason r : kStopReasons) {
    if (to_string(r) == name) return r;
  }
  throw Error("unknown stop reason '" + name + "'");
}

// Later in kStopReasons is less settled.
int unsettledness(StopReason r) {
  return static_cast<int>(std::find(std::begin(kStopReasons), std::end(kStopReasons), r) -
                          std::begin(kStopReasons));
}

Json measurement_json(const Measurement& m) {
  Json json{{"name", m.name},
            {"mode", std::string{to_string(m.mode)}},
            {"device", m.device},
            {"headline_timer", m.headline_timer},
            {"work_bytes", m.work.bytes},
            {"work_flops", m.work.flops},
            {"work_elements", m.work.elements},
            {"warmup_samples", m.warmup_samples},
            {"batch_size", m.batch_size},
            {"invalid_samples", m.invalid_samples},
            {"throttled_samples", m.throttled_samples},
            {"blocking_kernel", m.blocking_kernel},
            {"l2_flushed", m.l2_flushed},
            {"event_floor_ns", m.event_floor_ns},
            {"normal_sm_clock_mhz", m.normal_sm_clock_mhz},
            {"stop_reason", std::string{to_string(m.stop_reason)}},
            {"stop_detail", m.stop_detail},
            {"wall_time_s", m.wall_time_s},
            {"host_overhead_ns", m.host_overhead_ns},
            {"has_cupti", m.cupti.has_value()},
            {"kernel_fixed_cost_source", m.kernel_fixed_cost_source}};
  if (m.median_sm_clock_mhz) json["median_sm_clock_mhz"] = *m.median_sm_clock_mhz;
  if (m.kernel_fixed_cost_ns) json["kernel_fixed_cost_ns"] = *m.kernel_fixed_cost_ns;
  json["counters"] = Json::array();
  for (const Counter& c : m.counters) {
    json["counters"].push_back(
        {{"name", c.name}, {"value", c.value}, {"rate", c.kind == CounterKind::rate}});
  }
  return json;
}

Measurement measurement_from(const Json& json) {
  Measurement m;
  m.name = json.at("name").get<std::string>();
  m.mode = parse_measure_mode(json.at("mode").get<std::string>());
  m.device = json.at("device").get<int>();
  m.headline_timer = json.at("headline_timer").get<std::string>();
  m.work.bytes = json.at("work_bytes").get<double>();
  m.work.flops = json.at("work_flops").get<double>();
  m.work.elements = json.at("work_elements").get<double>();
  m.warmup_samples = json.at("warmup_samples").get<std::size_t>();
  m.batch_size = json.at("batch_size").get<std::size_t>();
  m.invalid_samples = json.at("invalid_samples").get<std::size_t>();
  m.throttled_samples = json.at("throttled_samples").get<std::size_t>();
  m.blocking_kernel = json.at("blocking_kernel").get<bool>();
  m.l2_flushed = json.at("l2_flushed").get<bool>();
  m.event_floor_ns = json.at("event_floor_ns").get<double>();
  m.normal_sm_clock_mhz = json.at("normal_sm_clock_mhz").get<double>();
  m.stop_reason = parse_stop_reason(json.at("stop_reason").get<std::string>());
  m.stop_detail = json.at("stop_detail").get<std::string>();
  m.wall_time_s = json.at("wall_time_s").get<double>();
  m.host_overhead_ns = json.at("host_overhead_ns").get<double>();
  if (json.at("has_cupti").get<bool>()) m.cupti = Statistics{};
  if (json.contains("median_sm_clock_mhz")) {
    m.median_sm_clock_mhz = json.at("median_sm_clock_mhz").get<double>();
  }
  m.kernel_fixed_cost_source = json.at("kernel_fixed_cost_source").get<std::string>();
  if (json.contains("kernel_fixed_cost_ns")) {
    m.kernel_fixed_cost_ns = json.at("kernel_fixed_cost_ns").get<double>();
  }
  for (const Json& c : json.at("counters")) {
    m.counters.push_back({c.at("name").get<std::string>(), c.at("value").get<double>(),
                          c.at("rate").get<bool>() ? CounterKind::rate : CounterKind::value});
  }
  return m;
}

double peak_of(const Report& report, int device) {
  for (const DeviceInfo& d : report.environment.devices) {
    if (d.index == device) return peak_bandwidth_gb_per_s(d);
  }
  return 0.0;
}

}  // namespace

std::string worker_results_json(const WorkerResults& results) {
  Json json = Json::object();
  json["report"] = Json::parse(to_json(results.report));
  json["measurements"] = Json::array();
  for (const Measurement& m : results.measurements)
    json["measurements"].push_back(measurement_json(m));
  json["running"] = results.running;
  return io::dump_json(json);
}

WorkerResults parse_worker_results(std::string_view text, const std::string& source) {
  try {
    const Json json = Json::parse(text);
    WorkerResults results;
    results.report = parse_report(io::dump_json(json.at("report")), source);
    for (const Json& m : json.at("measurements"))
      results.measurements.push_back(measurement_from(m));
    results.running = json.at("running").get<std::string>();
    return results;
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(source + ": not the results of a benchmark process: " + e.what());
  }
}

std::vector<Measurement> combine_measurements(
    const std::vector<std::vector<Measurement>>& per_process, const Report& merged) {
  std::vector<Measurement> combined;
  std::vector<std::vector<const Measurement*>> parts;
  for (const std::vector<Measurement>& process : per_process) {
    for (const Measurement& m : process) {
      auto same = [&m](const Measurement& c) { return c.name == m.name; };
      auto found = std::find_if(combined.begin(), combined.end(), same);
      if (found == combined.end()) {
        combined.push_back(m);
        parts.push_back({&m});
      } else {
        parts[static_cast<std::size_t>(found - combined.begin())].push_back(&m);
      }
    }
  }
  for (std::size_t i = 0; i < combined.size(); ++i) {
    Measurement& m = combined[i];
    m.invalid_samples = 0;
    m.throttled_samples = 0;
    m.wall_time_s = 0.0;
    std::vector<double> clocks;
    std::vector<double> overheads;
    // The calibration figures as `kerntime report a.json b.json` merges them
    // (report/measurement_merge.cpp), so the runner and a merge of its processes' reports agree:
    // medians of the processes', the first source named, the L2 flushed only if it always was.
    std::vector<double> floors;
    std::vector<double> fixed_costs;
    m.kernel_fixed_cost_source.clear();
    for (const Measurement* part : parts[i]) {
      m.invalid_samples += part->invalid_samples;
      m.throttled_samples += part->throttled_samples;
      m.wall_time_s += part->wall_time_s;
      m.blocking_kernel = m.blocking_kernel && part->blocking_kernel;
      m.l2_flushed = m.l2_flushed && part->l2_flushed;
      floors.push_back(part->event_floor_ns);
      if (part->kernel_fixed_cost_ns) {
        fixed_costs.push_back(*part->kernel_fixed_cost_ns);
        if (m.kernel_fixed_cost_source.empty()) {
          m.kernel_fixed_cost_source = part->kernel_fixed_cost_source;
        }
      }
      overheads.push_back(part->host_overhead_ns);
      if (part->median_sm_clock_mhz) clocks.push_back(*part->median_sm_clock_mhz);
      if (unsettledness(part->stop_reason) > unsettledness(m.stop_reason)) {
        m.stop_reason = part->stop_reason;
        m.stop_detail = part->stop_detail;
      }
    }
    m.event_floor_ns = median(floors);
    m.kernel_fixed_cost_ns =
        fixed_costs.empty() ? std::nullopt : std::optional<double>{median(fixed_costs)};
    m.host_overhead_ns = median(overheads);
    m.median_sm_clock_mhz = clocks.empty() ? std::nullopt : std::optional<double>{median(clocks)};
    if (const Entry* headline = merged.find(m.name)) {
      m.headline_ns = headline->samples;
      m.headline = headline->statistics;
    }
    if (const Entry* events = merged.find(m.name + "/events")) m.events = events->statistics;
    const bool cupti_headline = m.cupti && m.headline_timer == "cupti-kernel";
    m.cupti = cupti_headline ? std::optional<Statistics>{m.headline} : std::nullopt;
    m.peak_bandwidth_gb_per_s = peak_of(merged, m.device);
    m.throughput = compute_throughput(m.work, m.headline.median, m.peak_bandwidth_gb_per_s);
  }
  return combined;
}

}  // namespace kerntime::bench
