// SPDX-License-Identifier: Apache-2.0
// kerntime-compare/1: the comparison for programs. Absent values are null, never NaN; keys keep
// a fixed order so diffs of two outputs are readable.
#include <string>

#include <nlohmann/json.hpp>

#include "format/compare/renderers.hpp"
#include "io/json_text.hpp"

namespace kerntime::format_detail {
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

std::string render_comparison_json(const Comparison& comparison) {
  Json out;
  out["schema"] = "kerntime-compare/1";
  out["baseline"] = comparison.baseline_source;
  out["candidate"] = comparison.candidate_source;
  out["alpha"] = comparison.alpha;
  out["confidence_level"] = comparison.confidence_level();
  out["default_threshold"] = comparison.default_threshold;
  out["min_samples"] = comparison.min_samples;
  out["min_change_ns"] = comparison.min_change_ns;
  out["failed"] = comparison.failed();
  out["decided"] = comparison.decided();
  Json summary;
  for (Verdict verdict : {Verdict::regressed, Verdict::improved, Verdict::same,
                          Verdict::inconclusive, Verdict::added, Verdict::removed}) {
    summary[std::string(to_string(verdict))] = comparison.count(verdict);
  }
  out["summary"] = summary;
  out["warnings"] = comparison.warnings;
  out["notes"] = comparison.notes;
  out["entries"] = Json::array();
  for (const EntryComparison& entry : comparison.entries) {
    out["entries"].push_back(entry_json(entry));
  }
  // Replace rather than throw on invalid UTF-8: a report built in code may carry any bytes.
  return io::dump_json(out, 2) + "\n";
}

}  // namespace kerntime::format_detail
