// SPDX-License-Identifier: Apache-2.0
// Which tool wrote a JSON text, from its first top-level keys: a SAX pass that stops as soon as
// a key decides, so a large file costs a few bytes of reading, not a parse.
#include <new>
#include <string>

#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>

#include "io/out_of_memory.hpp"
#include "report/json_structure_sax.hpp"

namespace kerntime {
namespace {

class Sniffer : public report::StructureSax {
 public:
  ReportFileFormat format = ReportFileFormat::kerntime;

  bool start_object(std::size_t) override {
    ++depth_;
    return true;
  }
  bool end_object() override { return leave(); }
  bool start_array(std::size_t) override {
    ++depth_;
    return true;
  }
  bool end_array() override { return leave(); }
  bool key(string_t& name) override {
    // Top level: kerntime starts with "schema", Google Benchmark with "context", NVBench with
    // "meta" (or "devices"). A file of "benchmarks" alone is told by its first benchmark.
    if (depth_ == 1) {
      if (name == "schema") return decide(ReportFileFormat::kerntime);
      if (name == "context") return decide(ReportFileFormat::google_benchmark);
      if (name == "meta" || name == "devices") return decide(ReportFileFormat::nvbench);
      in_benchmarks_ = name == "benchmarks";
    } else if (depth_ == 3 && in_benchmarks_) {
      if (name == "states" || name == "axes") return decide(ReportFileFormat::nvbench);
      if (name == "real_time" || name == "run_name" || name == "iterations") {
        return decide(ReportFileFormat::google_benchmark);
      }
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;  // not JSON: kerntime's reader says where
  }

 private:
  bool value() override { return true; }
  bool leave() {
    --depth_;
    return true;
  }
  bool decide(ReportFileFormat found) {
    format = found;
    return false;  // stop reading
  }

  int depth_ = 0;
  bool in_benchmarks_ = false;
};

}  // namespace

std::string_view to_string(ReportFileFormat format) {
  switch (format) {
    case ReportFileFormat::kerntime:
      return kReportSchema;
    case ReportFileFormat::google_benchmark:
      return "Google Benchmark JSON";
    case ReportFileFormat::nvbench:
      return "NVBench JSON";
  }
  return "unknown";
}

ReportFileFormat detect_report_format(std::string_view json_text) {
  Sniffer sniffer;
  try {
    nlohmann::json::sax_parse(json_text.begin(), json_text.end(), &sniffer);
  } catch (const nlohmann::json::exception&) {
    // Not JSON after all (a number too large, say): kerntime's reader says what is wrong.
  }
  return sniffer.format;
}

namespace {

// A text that is not JSON but another file kerntime writes (or a neighbour's), named as what it
// is; "" for anything else, which the JSON reader then describes.
std::string other_format(std::string_view text) {
  std::size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;  // a byte order mark
  while (i < text.size() &&
         (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
    ++i;
  if (i == text.size() || text[i] == '{' || text[i] == '[') return {};
  if (text[i] == '<') {
    return "is XML (a JUnit file such as kerntime compare --format junit writes?), not a report";
  }
  const std::string_view first = text.substr(i, text.find('\n', i) - i);
  if (first.find(',') != std::string_view::npos && first.find('"') != 0) {
    return "is CSV (such as kerntime report --format csv writes?), which keeps no samples and "
           "cannot be read back";
  }
  return {};
}

}  // namespace

Report parse_any_report(std::string_view json_text, const std::string& source,
                        const ReportReadOptions& options) {
  if (const std::string what = other_format(json_text); !what.empty()) {
    throw Error(source + " " + what +
                "; give a report in JSON: kerntime's, Google Benchmark's or NVBench's");
  }
  try {
    switch (detect_report_format(json_text)) {
      case ReportFileFormat::google_benchmark:
        return parse_google_benchmark_json(json_text, source, options);
      case ReportFileFormat::nvbench:
        return parse_nvbench_json(json_text, source, options);
      case ReportFileFormat::kerntime:
        break;
    }
    return parse_report(json_text, source, options.statistics);
  } catch (const std::bad_alloc&) {
    io::throw_out_of_memory(source, "report", json_text.size(), io::OutOfMemoryWhile::parsing);
  }
}

}  // namespace kerntime
