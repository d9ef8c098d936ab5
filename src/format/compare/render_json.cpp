// SPDX-License-Identifier: Apache-2.0
// kerntime-compare/1: the comparison for programs. Absent values are null, never NaN; keys keep
// a fixed order so diffs of two outputs are readable.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "format/compare/render_cells.hpp"
#include "format/compare/renderers.hpp"
#include "io/json_text.hpp"

namespace kerntime::format {
namespace {

using Json = nlohmann::ordered_json;

Json side(const std::optional<SampleSummary>& summary) {
  if (!summary) return nullptr;
  Json out;
  out["count"] = summary->count;
  out["median"] = summary->count == 0 ? Json(nullptr) : Json(summary->median);
  out["unit"] = summary->unit;
  out["timer"] = summary->timer;
  out["runs"] = summary->runs;
  // The declared work's rates at the median (an engine report's entries); null without.
  const Throughput& t = summary->throughput;
  const auto value = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
  if (has_rate(t)) {
    out["throughput"] = Json{{"gb_per_s", value(t.gb_per_s)},
                             {"tflop_per_s", value(t.tflop_per_s)},
                             {"peak_bandwidth_percent", value(t.peak_bandwidth_percent)},
                             {"elements_per_s", value(t.elements_per_s)}};
  } else {
    out["throughput"] = nullptr;
  }
  return out;
}

Json entry_json(const EntryComparison& entry) {
  Json out;
  out["name"] = entry.name;
  out["verdict"] = std::string(to_string(entry.verdict));
  out["fails"] = entry.fails;
  out["reason"] = entry.reason;
  out["threshold"] = entry.threshold;
  out["ratio"] = entry.ratio ? Json(*entry.ratio) : Json(nullptr);
  if (entry.ratio_ci) {
    out["ratio_ci"] = Json{{"low", entry.ratio_ci->low}, {"high", entry.ratio_ci->high}};
  } else {
    out["ratio_ci"] = nullptr;
  }
  out["p_value"] = entry.p_value ? Json(*entry.p_value) : Json(nullptr);
  out["test"] = entry.p_value ? Json(entry.exact_test ? "exact" : "normal") : Json(nullptr);
  out["baseline"] = side(entry.baseline);
  out["candidate"] = side(entry.candidate);
  out["between_runs"] = entry.between_runs;
  out["run_spread"] = entry.run_spread ? Json(*entry.run_spread) : Json(nullptr);
  out["detectable_change"] =
      entry.detectable_change ? Json(*entry.detectable_change) : Json(nullptr);
  return out;
}

}  // namespace

// Written piece by piece, each entry its own small JSON value, in the bytes one pretty-printed
// document would have: a comparison of a million entries never exists as one JSON tree.
void write_comparison_json(const Comparison& comparison, ChunkedText& out) {
  Json head;
  head["schema"] = "kerntime-compare/1";
  head["baseline"] = comparison.baseline_source;
  head["candidate"] = comparison.candidate_source;
  head["alpha"] = comparison.alpha;
  head["confidence_level"] = comparison.confidence_level();
  head["default_threshold"] = comparison.default_threshold;
  head["min_samples"] = comparison.min_samples;
  head["min_change_ns"] = comparison.min_change_ns;
  head["failed"] = comparison.failed();
  head["decided"] = comparison.decided();
  Json summary;
  for (Verdict verdict : {Verdict::regressed, Verdict::improved, Verdict::same,
                          Verdict::inconclusive, Verdict::added, Verdict::removed}) {
    summary[std::string(to_string(verdict))] = comparison.count(verdict);
  }
  head["summary"] = summary;
  head["warnings"] = comparison.warnings;
  head["notes"] = comparison.notes;
  // Replace rather than throw on invalid UTF-8: a report built in code may carry any bytes.
  std::string text = io::dump_json(head, 2);
  text.resize(text.size() - 2);  // "\n}": the entries follow
  out += text;
  out += ",\n  \"entries\": [";
  for (std::size_t i = 0; i < comparison.entries.size(); ++i) {
    out += i == 0 ? "\n    " : ",\n    ";
    out += io::nested_json(io::dump_json(entry_json(comparison.entries[i]), 2), 2);
  }
  out += comparison.entries.empty() ? "]" : "\n  ]";
  out += "\n}\n";
}

}  // namespace kerntime::format
