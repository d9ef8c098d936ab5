// SPDX-License-Identifier: Apache-2.0
#include "main/worker_results.hpp"

#include <algorithm>
#include <exception>
#include <optional>

#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>

#include "bench/stopping.hpp"
#include "io/json_text.hpp"

namespace kerntime::main {

using Json = nlohmann::json;

std::string worker_results_json(const WorkerResults& results) {
  Json json = Json::object();
  json["report"] = Json::parse(to_json(results.report));
  json["running"] = results.running;
  return io::dump_json(json);
}

WorkerResults parse_worker_results(std::string_view text, const std::string& source) {
  try {
    const Json json = Json::parse(text);
    WorkerResults results;
    results.report = parse_report(io::dump_json(json.at("report")), source);
    results.running = json.at("running").get<std::string>();
    return results;
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(source + ": not the results of a benchmark process: " + e.what());
  }
}

std::vector<Measurement> measurements_of(const Report& report) {
  std::vector<Measurement> measurements;
  for (const Entry& entry : report.entries) {
    if (!entry.measurement) continue;
    Measurement m;
    m.name = entry.name;
    m.device = entry.device.value_or(0);
    m.headline_timer = entry.timer;
    m.headline_ns = entry.samples;
    m.headline = entry.statistics;
    if (m.headline_timer == "cupti-kernel") m.cupti = m.headline;
    if (const Entry* events = report.find(entry.name + "/events")) m.events = events->statistics;
    std::vector<double> sorted = m.headline_ns;
    std::sort(sorted.begin(), sorted.end());
    m.median_ci_half_width = bench::median_ci_half_width(sorted);
    m.info = *entry.measurement;
    measurements.push_back(std::move(m));
  }
  return measurements;
}

}  // namespace kerntime::main
