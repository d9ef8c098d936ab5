// SPDX-License-Identifier: Apache-2.0
// Reads kerntime-report/1 (docs/report-format.md). Lenient about what is absent or unknown,
// strict about what is present: every rejection names the source, the JSON path and why.
// Entries and trace records are read while the text is parsed, one at a time, so memory
// follows the model rather than a DOM of the whole file (StreamingReader).
#include <algorithm>
#include <cmath>
#include <memory>
#include <new>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/version.hpp>

#include "io/out_of_memory.hpp"
#include "report/entry_fields_json_parse.hpp"
#include "report/environment_json_parse.hpp"
#include "report/json_position.hpp"
#include "report/json_reader.hpp"
#include "report/json_text_errors.hpp"
#include "report/measurement_info_json.hpp"
#include "report/trace_section_parse.hpp"

namespace kerntime {
namespace {

using report::describe;
using report::index_path;
using report::Json;
using report::member;

// What the parse callback collects while the file is read: the entries so far, up to the
// first rejection (kept, not thrown: a syntax error later in the file, and any mistake in the
// fields before "entries", are reported first, as when the whole DOM was read), and the
// samples of the entry being read.
struct EntryList {
  std::vector<Entry> entries;
  std::unordered_map<std::string, std::size_t> first_index;
  std::string error;  // the first rejection's message; empty: none
};

struct SampleList {
  std::vector<double> samples;
  std::string error;
};

class Reader : public report::JsonReader {
 public:
  Reader(const std::string& source, const StatisticsOptions& statistics)
      : JsonReader(source), statistics_(statistics) {}

  // `root` is the DOM without the entries and trace records, which `entries` and `trace`
  // hold; the checks run in the order of the format's fields.
  Report report(const Json& root, EntryList& entries, report::TraceSectionParser* trace) const {
    object(root, "top level");
    Report report;
    check_schema(root);
    if (const Json* tool = member(root, "tool")) {
      object(*tool, "tool");
      if (const Json* version = member(*tool, "version")) {
        report.environment.tool_version = string(*version, "tool.version");
      }
    }
    if (const Json* created = member(root, "created")) {
      report.environment.created_utc = string(*created, "created");
    }
    if (const Json* env = member(root, "environment")) {
      report::read_environment(*this, *env, report.environment);
    }
    if (const Json* warnings = member(root, "warnings")) {
      array(*warnings, "warnings");
      for (std::size_t i = 0; i < warnings->size(); ++i) {
        report.warnings.push_back(string((*warnings)[i], index_path("warnings", i)));
      }
    }
    const Json* entries_value = member(root, "entries");
    if (entries_value == nullptr) {
      fail("entries", "missing; a report lists its regions in \"entries\"");
    }
    array(*entries_value, "entries");
    if (!entries.error.empty()) throw Error(entries.error);
    report.entries = std::move(entries.entries);
    if (const Json* section = member(root, "trace")) {
      if (trace != nullptr) report.trace = trace->finish(*section);
    }
    return report;
  }

  // Element `index` of "entries", complete but for its samples, which `samples` holds.
  void add_entry(const Json& value, std::size_t index, SampleList& samples, EntryList& list) const {
    if (!list.error.empty()) return;  // only the first mistake is reported
    const std::string path = index_path("entries", index);
    try {
      Entry parsed = entry(value, path, samples);
      const auto [it, inserted] = list.first_index.emplace(parsed.name, index);
      if (!inserted) {
        fail(path + ".name", "duplicate name " + io::json_string(parsed.name) + " (also " +
                                 index_path("entries", it->second) + ")");
      }
      list.entries.push_back(std::move(parsed));
    } catch (const Error& error) {
      list.error = error.what();
    }
  }

  // Sample `index` of the entry at `entry_index`; the path is built only for a rejection.
  void add_sample(const Json& value, std::size_t entry_index, std::size_t index,
                  SampleList& samples) const {
    if (!samples.error.empty()) return;
    if (value.is_number()) {
      const double ns = value.get<double>();
      if (std::isfinite(ns) && ns >= 0.0) {
        samples.samples.push_back(ns);
        return;
      }
    }
    try {
      duration(value, index_path(index_path("entries", entry_index) + ".samples", index));
    } catch (const Error& error) {
      samples.error = error.what();
    }
  }

 private:
  void check_schema(const Json& root) const {
    const std::string expected = kReportSchema;
    const Json* schema = member(root, "schema");
    if (schema == nullptr) fail("schema", "missing; expected " + io::json_string(expected));
    const std::string value = string(*schema, "schema");
    if (value == expected) return;
    const std::string family = "kerntime-report/";
    if (value.compare(0, family.size(), family) == 0) {
      fail("schema", "unsupported version " + io::json_string(value) + "; this kerntime (" +
                         kVersion + ") reads " + io::json_string(expected) + " only");
    }
    fail("schema", io::json_string(value) + " is not a kerntime report; expected " +
                       io::json_string(expected));
  }

  Entry entry(const Json& value, const std::string& path, SampleList& samples_read) const {
    object(value, path);
    Entry e;
    const Json* name = member(value, "name");
    if (name == nullptr) fail(path + ".name", "missing; every entry needs a name");
    e.name = string(*name, path + ".name");
    if (e.name.empty()) fail(path + ".name", "empty; every entry needs a name");
    if (const Json* unit = member(value, "unit")) {
      e.unit = string(*unit, path + ".unit");
      if (e.unit != "ns") {
        fail(path + ".unit",
             "unsupported unit " + io::json_string(e.unit) + "; supported units: \"ns\"");
      }
    }
    if (const Json* timer = member(value, "timer")) e.timer = string(*timer, path + ".timer");
    if (const Json* device = member(value, "device")) {
      e.device = int_value(*device, path + ".device", 0);
    }
    const Json* samples = member(value, "samples");
    if (samples == nullptr) {
      fail(path + ".samples", "missing; expected an array of durations in ns");
    }
    if (!samples->is_array()) {
      fail(path + ".samples", "expected an array of durations in ns, got " + describe(*samples));
    }
    // The array itself is empty by now: its values went to `samples_read` as they were read.
    if (!samples_read.error.empty()) throw Error(samples_read.error);
    e.samples = std::move(samples_read.samples);
    if (const Json* runs = member(value, "runs")) {
      report::read_run_sizes(*this, *runs, path + ".runs", e);
    }
    // Statistics in the file are never trusted: a hand-edited median must not win a comparison.
    if (!e.samples.empty()) {
      try {
        e.statistics = compute_statistics(e.samples, statistics_);
      } catch (const Error& error) {
        fail(path + ".samples", error.what());
      }
    }
    if (const Json* measurement = member(value, "measurement")) {
      e.measurement = std::make_shared<const MeasurementInfo>(
          report::read_measurement_info(*this, *measurement, path + ".measurement", e.statistics));
    }
    if (const Json* summary = member(value, "summary_only")) {
      e.summary_only = report::read_summary_only(*this, *summary, path + ".summary_only");
    }
    if (const Json* columns = member(value, "columns")) {
      report::read_sample_columns(*this, *columns, path + ".columns", e);
    }
    return e;
  }

  StatisticsOptions statistics_;
};

// The parse callback: turns each element of "entries" into an Entry, and each record of the
// trace section's lists into a model record, as soon as it is read, and tells nlohmann to drop
// it, so the DOM never holds more than one of them. Samples go straight into the entry's
// vector. Everything else (environment, warnings, a trace's counts and summary) stays in the
// DOM: small, and read after the parse.
class StreamingReader {
 public:
  using Event = Json::parse_event_t;

  StreamingReader(const std::string& source, const StatisticsOptions& statistics)
      : reader_(source, statistics) {}

  bool on_event(int depth, Event event, Json& parsed) {
    position_.update(depth, event, parsed);
    if (depth == 0) return true;
    const std::string& top = position_.key_at(0);
    if (top == "entries") return on_entries(depth, event, parsed);
    if (top == "trace") return on_trace(depth, event, parsed);
    return true;
  }

  Report report(const Json& root) { return reader_.report(root, entries_, trace_.get()); }

 private:
  // Returns false for what has been read into the model (the parser drops it).
  bool on_entries(int depth, Event event, const Json& parsed) {
    if (depth == 1) {
      if (event == Event::key) entries_ = EntryList{};  // a duplicate key replaces, as in a DOM
      return true;
    }
    if (!position_.array_at(1)) return true;  // not an array: the DOM keeps it for the error
    if (depth == 2) {
      switch (event) {
        case Event::object_start:
          samples_ = SampleList{};
          return true;
        case Event::object_end:
        case Event::value:
          add_entry(parsed);
          return false;
        case Event::array_start:
          add_entry(Json::array());
          return false;
        default:
          return true;
      }
    }
    if (position_.key_at(2) != "samples") return true;
    if (depth == 3) {
      if (event == Event::key) samples_ = SampleList{};
      return true;
    }
    if (depth != 4 || !position_.array_at(3) || !entries_.error.empty()) return true;
    switch (event) {
      case Event::value:
        add_sample(parsed);
        return false;
      case Event::object_start:
        add_sample(Json::object());
        return false;
      case Event::array_start:
        add_sample(Json::array());
        return false;
      default:
        return true;
    }
  }

  bool on_trace(int depth, Event event, const Json& parsed) {
    if (depth == 1) {
      if (event == Event::key) {
        trace_ = std::make_unique<report::TraceSectionParser>(reader_, "trace");
      }
      return true;
    }
    if (position_.array_at(1)) return true;  // not an object: the DOM keeps it for the error
    const std::string& list = position_.key_at(1);
    if (!report::TraceSectionParser::is_record_list(list)) return true;
    if (depth == 2) {
      if (event == Event::key) trace_->start_list(list);
      return true;
    }
    if (depth != 3 || !position_.array_at(2)) return true;
    switch (event) {
      case Event::object_end:
      case Event::value:
        trace_->add_record(list, position_.index_at(2), parsed);
        return false;
      case Event::array_start:
        trace_->add_record(list, position_.index_at(2), Json::array());
        return false;
      default:
        return true;
    }
  }

  void add_entry(const Json& value) {
    reader_.add_entry(value, position_.index_at(1), samples_, entries_);
    samples_ = SampleList{};
  }

  void add_sample(const Json& value) {
    reader_.add_sample(value, position_.index_at(1), position_.index_at(3), samples_);
  }

  Reader reader_;
  report::JsonPosition position_;
  EntryList entries_;
  SampleList samples_;
  std::unique_ptr<report::TraceSectionParser> trace_;
};

}  // namespace

Report parse_report(std::string_view json_text, const std::string& source,
                    const StatisticsOptions& statistics) {
  // nlohmann's wording for this case differs between releases; say it in our own words.
  if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw Error(source + ": the file is empty; expected a kerntime-report/1 JSON object");
  }
  // An allocation that fails names the file and what to do; std::bad_alloc says neither.
  try {
    StreamingReader reader(source, statistics);
    Json root;
    try {
      root = Json::parse(json_text.begin(), json_text.end(),
                         [&reader](int depth, Json::parse_event_t event, Json& parsed) {
                           return reader.on_event(depth, event, parsed);
                         });
    } catch (const Json::exception& e) {
      report::throw_json_text_error(json_text, source, e);
    }
    return reader.report(root);
  } catch (const std::bad_alloc&) {
    io::throw_out_of_memory(source, "report", json_text.size(), io::OutOfMemoryWhile::parsing);
  }
}

}  // namespace kerntime
