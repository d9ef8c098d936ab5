// SPDX-License-Identifier: Apache-2.0
#include "report/measurement_info_json.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <kerntime/error.hpp>

#include "report/measurement_merge.hpp"

namespace kerntime::report {
namespace {

using OrderedJson = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw Error("cannot write report: " + path + ": " + why);
}

// Finite and >= 0: every figure of the object is a time, a count, a clock or an amount.
double amount(double value, const std::string& path) {
  if (!std::isfinite(value) || value < 0.0) {
    fail(path, "expected a finite number >= 0, got " + std::to_string(value));
  }
  return value;
}

// The rates are derived (the reader recomputes them from the work and the median), so one that
// overflowed, declared work over a denormal median, is left out rather than failing the write
// of a report that was read without complaint.
OrderedJson rates_json(const Throughput& t, const std::string& path) {
  OrderedJson json = OrderedJson::object();
  const auto rate = [&](const char* key, const std::optional<double>& value) {
    if (value && *value != std::numeric_limits<double>::infinity())
      json[key] = amount(*value, path + "." + key);
  };
  rate("gb_per_s", t.gb_per_s);
  rate("tflop_per_s", t.tflop_per_s);
  rate("peak_bandwidth_percent", t.peak_bandwidth_percent);
  rate("elements_per_s", t.elements_per_s);
  return json;
}

// A counter's kind as the file spells it.
const char* kind_name(CounterKind kind) {
  return kind == CounterKind::rate ? "rate" : "value";
}

OrderedJson counters_json(const std::vector<Counter>& counters, const std::string& path) {
  OrderedJson json = OrderedJson::array();
  for (std::size_t i = 0; i < counters.size(); ++i) {
    const Counter& c = counters[i];
    const std::string at = path + "[" + std::to_string(i) + "]";
    if (c.name.empty()) fail(at + ".name", "expected a non-empty name");
    // Any sign: a counter is the benchmark's own figure, not a time or an amount.
    if (!std::isfinite(c.value)) {
      fail(at + ".value", "expected a finite number, got " + std::to_string(c.value));
    }
    json.push_back({{"name", c.name}, {"value", c.value}, {"kind", kind_name(c.kind)}});
  }
  return json;
}

// Each counter needs a name, unique in the entry, and a finite value; its kind is "value"
// (also when absent) or "rate". A kind a later kerntime adds is refused rather than shown as
// something it is not.
std::vector<Counter> read_counters(const JsonReader& r, const Json& value,
                                   const std::string& path) {
  r.array(value, path);
  std::vector<Counter> counters;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const Json& item = value[i];
    const std::string at = path + "[" + std::to_string(i) + "]";
    r.object(item, at);
    Counter c;
    const Json* name = member(item, "name");
    if (name == nullptr) r.fail(at, "a counter needs a \"name\"");
    c.name = r.string(*name, at + ".name");
    if (c.name.empty()) r.fail(at + ".name", "expected a non-empty name");
    for (const Counter& earlier : counters) {
      if (earlier.name == c.name) r.fail(at + ".name", "a second counter named \"" + c.name + "\"");
    }
    const Json* number = member(item, "value");
    if (number == nullptr) r.fail(at, "a counter needs a \"value\"");
    if (!number->is_number() || !std::isfinite(number->get<double>())) {
      r.fail(at + ".value", "expected a finite number, got " + describe(*number));
    }
    c.value = number->get<double>();
    if (const Json* kind = member(item, "kind")) {
      const std::string k = r.string(*kind, at + ".kind");
      if (k == "rate") {
        c.kind = CounterKind::rate;
      } else if (k != "value") {
        r.fail(at + ".kind", "expected \"value\" or \"rate\", got " + describe(*kind));
      }
    }
    counters.push_back(std::move(c));
  }
  return counters;
}

}  // namespace

OrderedJson measurement_info_json(const MeasurementInfo& info, const std::string& path) {
  OrderedJson json = OrderedJson::object();
  // Empty text is unknown and left out, like the environment's.
  if (!info.mode.empty()) json["mode"] = info.mode;
  if (!info.stop_reason.empty()) json["stop_reason"] = info.stop_reason;
  if (!info.stop_detail.empty()) json["stop_detail"] = info.stop_detail;
  json["warmup_samples"] = info.warmup_samples;
  json["invalid_samples"] = info.invalid_samples;
  json["throttled_samples"] = info.throttled_samples;
  json["batch_size"] = info.batch_size;
  json["l2_flushed"] = info.l2_flushed;
  json["blocking_kernel"] = info.blocking_kernel;
  json["event_floor_ns"] = amount(info.event_floor_ns, path + ".event_floor_ns");
  if (info.kernel_fixed_cost_ns) {
    json["kernel_fixed_cost_ns"] =
        amount(*info.kernel_fixed_cost_ns, path + ".kernel_fixed_cost_ns");
  }
  if (!info.kernel_fixed_cost_source.empty()) {
    json["kernel_fixed_cost_source"] = info.kernel_fixed_cost_source;
  }
  if (info.median_cupti_sum_ns) {
    json["median_cupti_sum_ns"] = amount(*info.median_cupti_sum_ns, path + ".median_cupti_sum_ns");
  }
  if (info.activities_per_call) {
    json["activities_per_call"] = amount(*info.activities_per_call, path + ".activities_per_call");
  }
  if (info.median_sm_clock_mhz) {
    json["median_sm_clock_mhz"] = amount(*info.median_sm_clock_mhz, path + ".median_sm_clock_mhz");
  }
  if (info.normal_sm_clock_mhz > 0.0) {
    json["normal_sm_clock_mhz"] = amount(info.normal_sm_clock_mhz, path + ".normal_sm_clock_mhz");
  }
  // Only when NVML said something, so a report without NVML is written as before it was read.
  if (info.slowed_samples > 0) json["slowed_samples"] = info.slowed_samples;
  if (!info.clock_event_reasons.empty()) json["clock_event_reasons"] = info.clock_event_reasons;
  if (info.median_power_w) {
    json["median_power_w"] = amount(*info.median_power_w, path + ".median_power_w");
  }
  // Only what was declared: 0 means "not declared" in Work.
  OrderedJson work = OrderedJson::object();
  if (info.work.bytes != 0.0) work["bytes"] = amount(info.work.bytes, path + ".work.bytes");
  if (info.work.flops != 0.0) work["flops"] = amount(info.work.flops, path + ".work.flops");
  if (info.work.elements != 0.0) {
    work["elements"] = amount(info.work.elements, path + ".work.elements");
  }
  json["work"] = std::move(work);
  json["throughput"] = rates_json(info.throughput, path + ".throughput");
  if (info.peak_bandwidth_gb_per_s > 0.0) {
    json["peak_bandwidth_gb_per_s"] =
        amount(info.peak_bandwidth_gb_per_s, path + ".peak_bandwidth_gb_per_s");
  }
  // Only when declared, so a report without counters is written as before they existed.
  if (!info.counters.empty()) json["counters"] = counters_json(info.counters, path + ".counters");
  // Only when known, so a report of hand-made entries is written as before they were kept.
  if (info.wall_time_s > 0.0) json["wall_time_s"] = amount(info.wall_time_s, path + ".wall_time_s");
  if (info.host_overhead_ns > 0.0) {
    json["host_overhead_ns"] = amount(info.host_overhead_ns, path + ".host_overhead_ns");
  }
  return json;
}

MeasurementInfo read_measurement_info(const JsonReader& r, const Json& value,
                                      const std::string& path, const Statistics& statistics) {
  r.object(value, path);
  MeasurementInfo info;
  const auto text = [&](const char* key, std::string& field) {
    if (const Json* v = member(value, key)) field = r.string(*v, path + "." + key);
  };
  const auto count = [&](const char* key, std::size_t& field) {
    if (const Json* v = member(value, key)) field = r.byte_count(*v, path + "." + key);
  };
  const auto flag = [&](const char* key, bool& field) {
    if (const Json* v = member(value, key)) field = r.boolean(*v, path + "." + key);
  };
  const auto number = [&](const Json& object, const std::string& object_path,
                          const char* key) -> std::optional<double> {
    const Json* v = member(object, key);
    if (v == nullptr) return std::nullopt;
    if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0.0) {
      r.fail(object_path + "." + key, "expected a finite number >= 0, got " + describe(*v));
    }
    return v->get<double>();
  };
  text("mode", info.mode);
  text("stop_reason", info.stop_reason);
  text("stop_detail", info.stop_detail);
  count("warmup_samples", info.warmup_samples);
  count("invalid_samples", info.invalid_samples);
  count("throttled_samples", info.throttled_samples);
  count("batch_size", info.batch_size);
  if (info.batch_size == 0) r.fail(path + ".batch_size", "expected at least 1 call per sample");
  flag("l2_flushed", info.l2_flushed);
  flag("blocking_kernel", info.blocking_kernel);
  info.event_floor_ns = number(value, path, "event_floor_ns").value_or(0.0);
  info.kernel_fixed_cost_ns = number(value, path, "kernel_fixed_cost_ns");
  text("kernel_fixed_cost_source", info.kernel_fixed_cost_source);
  info.median_cupti_sum_ns = number(value, path, "median_cupti_sum_ns");
  info.activities_per_call = number(value, path, "activities_per_call");
  info.median_sm_clock_mhz = number(value, path, "median_sm_clock_mhz");
  info.normal_sm_clock_mhz = number(value, path, "normal_sm_clock_mhz").value_or(0.0);
  count("slowed_samples", info.slowed_samples);
  text("clock_event_reasons", info.clock_event_reasons);
  info.median_power_w = number(value, path, "median_power_w");
  if (const Json* work = member(value, "work")) {
    const std::string work_path = path + ".work";
    r.object(*work, work_path);
    info.work.bytes = number(*work, work_path, "bytes").value_or(0.0);
    info.work.flops = number(*work, work_path, "flops").value_or(0.0);
    info.work.elements = number(*work, work_path, "elements").value_or(0.0);
  }
  if (const Json* rates = member(value, "throughput")) r.object(*rates, path + ".throughput");
  info.peak_bandwidth_gb_per_s = number(value, path, "peak_bandwidth_gb_per_s").value_or(0.0);
  if (const Json* counters = member(value, "counters")) {
    info.counters = read_counters(r, *counters, path + ".counters");
  }
  info.wall_time_s = number(value, path, "wall_time_s").value_or(0.0);
  info.host_overhead_ns = number(value, path, "host_overhead_ns").value_or(0.0);
  // Like the statistics: derived figures in a file are never trusted.
  refresh_throughput(info, statistics);
  return info;
}

}  // namespace kerntime::report
