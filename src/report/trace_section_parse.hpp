// SPDX-License-Identifier: Apache-2.0
// Reads a report's "trace" section while the file is parsed: each record of "kernels",
// "memcpys", "memsets" and "api_calls" becomes a model record as soon as it is read, so the parser
// can drop its DOM; the rest of the section (counts, summary rows, origin) is small and read from
// the DOM at the end. The first mistake reported is the one a reader of the whole DOM would report:
// the checks run in the section's field order whatever order the file has.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <kerntime/report.hpp>

#include "report/json_reader.hpp"

namespace kerntime::report {

class TraceSectionParser {
 public:
  /// Errors name `path` (normally "trace") and the path below it; `reader` names the source.
  TraceSectionParser(const JsonReader& reader, std::string path);
  ~TraceSectionParser();
  TraceSectionParser(const TraceSectionParser&) = delete;
  TraceSectionParser& operator=(const TraceSectionParser&) = delete;

  /// Whether the section's member `key` is a list read one record at a time.
  static bool is_record_list(const std::string& key);

  /// The section's member `key` begins: a list of that name read before (a duplicate key,
  /// which the DOM replaces too) is forgotten.
  void start_list(const std::string& key);

  /// Element `index` of the record list `key`, complete. A rejection is kept, not thrown, and
  /// ends the reading of that list; finish() throws it in its turn.
  void add_record(const std::string& key, std::size_t index, const Json& record);

  /// The section from its DOM (whose record lists are empty arrays by now) and the records
  /// read. Throws kerntime::Error for the first mistake. Strings are interned into the
  /// section's own store (TraceSection::strings).
  TraceSection finish(const Json& section);

 private:
  class SectionReader;
  std::unique_ptr<SectionReader> reader_;
};

}  // namespace kerntime::report
