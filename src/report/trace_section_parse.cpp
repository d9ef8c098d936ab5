// SPDX-License-Identifier: Apache-2.0
// Reads a report's trace section: lenient about what is absent (every field but a record's
// name, start and duration has a default; API calls' start_ns are signed), strict about the type of
// what is present. The records are read one at a time while the file is parsed
// (trace_section_parse.hpp).
#include "report/trace_section_parse.hpp"

#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kerntime/error.hpp>

#include "trace/string_store.hpp"

namespace kerntime::report {
namespace {

// Names the format writes (to_string of the enums); a name a later kerntime adds reads as
// "unknown" rather than failing the whole report.
template <class Kind>
Kind kind_from_name(const std::string& name, Kind last) {
  for (int i = 0; i <= static_cast<int>(last); ++i) {
    if (to_string(static_cast<Kind>(i)) == name) return static_cast<Kind>(i);
  }
  return Kind::unknown;
}

// The section's text: each distinct string once, owned by the store the records' views show.
class Interner {
 public:
  std::string_view operator()(const std::string& text) {
    if (auto it = seen_.find(text); it != seen_.end()) return it->second;
    const std::string_view view = store_->add(text);
    seen_.emplace(view, view);
    return view;
  }
  std::shared_ptr<const void> store() const { return store_; }

 private:
  std::shared_ptr<trace::StringStore> store_ = std::make_shared<trace::StringStore>();
  std::unordered_map<std::string_view, std::string_view> seen_;
};

}  // namespace

class TraceSectionParser::SectionReader {
 public:
  SectionReader(const JsonReader& reader, std::string path) : r_(reader), path_(std::move(path)) {}

  static bool is_record_list(const std::string& key) {
    return key == "kernels" || key == "memcpys" || key == "memsets" || key == "api_calls";
  }

  void start_list(const std::string& key) {
    if (key == "kernels") kernels_ = {};
    if (key == "memcpys") memcpys_ = {};
    if (key == "memsets") memsets_ = {};
    if (key == "api_calls") api_calls_ = {};
  }

  // Times are read as if the origin were 0 and moved once the section's "origin_ns" is known
  // (unsigned arithmetic: the same figures as adding it first).
  void add_record(const std::string& key, std::size_t index, const Json& value) {
    if (key == "kernels") {
      add(kernels_, key, index, value,
          [&](const Json& k, const std::string& record_path) { return kernel(k, record_path, 0); });
    } else if (key == "memcpys") {
      add(memcpys_, key, index, value, [&](const Json& m, const std::string& record_path) {
        return memcpy_record(m, record_path, 0);
      });
    } else if (key == "memsets") {
      add(memsets_, key, index, value, [&](const Json& m, const std::string& record_path) {
        return memset_record(m, record_path, 0);
      });
    } else if (key == "api_calls") {
      add(api_calls_, key, index, value,
          [&](const Json& a, const std::string& record_path) { return api_call(a, record_path); });
    }
  }

  // The checks run in the order of the section's fields, whatever order the file has them in,
  // so the first mistake reported is the one the whole-DOM reader reported.
  TraceSection finish(const Json& value) {
    r_.object(value, path_);
    TraceSection t;
    if (const Json* counts = member(value, "counts")) t.counts = trace_counts(*counts, path_);
    if (const Json* rows = member(value, "kernel_summary")) {
      const std::string list_path = path_ + ".kernel_summary";
      r_.array(*rows, list_path);
      for (std::size_t i = 0; i < rows->size(); ++i) {
        const std::string row_path = index_path(list_path, i);
        r_.object((*rows)[i], row_path);
        t.kernel_summary.push_back(summary((*rows)[i], row_path));
      }
    }
    if (const Json* rows = member(value, "range_summary")) {
      const std::string list_path = path_ + ".range_summary";
      r_.array(*rows, list_path);
      for (std::size_t i = 0; i < rows->size(); ++i) {
        const std::string row_path = index_path(list_path, i);
        r_.object((*rows)[i], row_path);
        t.range_summary.push_back(range_row((*rows)[i], row_path));
      }
    }
    if (const Json* origin = member(value, "origin_ns")) {
      t.origin_ns = r_.uint64_value(*origin, path_ + ".origin_ns");
    }
    settle(kernels_, value, "kernels", t.origin_ns, t.kernels);
    settle(memcpys_, value, "memcpys", t.origin_ns, t.memcpys);
    settle(memsets_, value, "memsets", t.origin_ns, t.memsets);
    settle(api_calls_, value, "api_calls", t.origin_ns, t.api_calls);
    if (const Json* omitted = member(value, "omitted_records")) {
      t.omitted_records = r_.uint64_value(*omitted, path_ + ".omitted_records");
    }
    t.strings = intern_.store();
    return t;
  }

 private:
  // The records of one list read so far, up to its first rejection.
  template <class Record>
  struct RecordList {
    std::vector<Record> records;
    std::vector<bool> launch_given;  // "launch" present: must not end before it starts
    std::string error;               // the first rejection's message; empty: none
  };

  template <class Record, class Convert>
  void add(RecordList<Record>& list, const std::string& key, std::size_t index, const Json& value,
           Convert convert) {
    if (!list.error.empty()) return;  // only the first mistake of a list is reported
    try {
      const std::string record_path = index_path(path_ + "." + key, index);
      r_.object(value, record_path);
      list.records.push_back(convert(value, record_path));
      list.launch_given.push_back(member(value, "launch") != nullptr);
    } catch (const Error& error) {
      list.error = error.what();
    }
  }

  // A list of the section's DOM: its records were read while parsing (the DOM keeps an empty
  // array); move them to the origin, then the launch check that needs absolute times.
  template <class Record>
  void settle(RecordList<Record>& list, const Json& section, const char* key, std::uint64_t origin,
              std::vector<Record>& out) const {
    const Json* items = member(section, key);
    if (items == nullptr) return;
    const std::string list_path = path_ + "." + key;
    r_.array(*items, list_path);
    for (std::size_t i = 0; i < list.records.size(); ++i) {
      Record& record = list.records[i];
      record.start_ns += origin;
      record.end_ns += origin;
      if constexpr (!std::is_same_v<Record, ApiCall>) {  // an API call has no launch
        if (!record.launch) continue;
        record.launch->start_ns += origin;
        record.launch->end_ns += origin;
        if (list.launch_given[i] && record.launch->end_ns < record.launch->start_ns) {
          r_.fail(index_path(list_path, i) + ".launch.end_ns", "the call ends before it starts");
        }
      }
    }
    if (!list.error.empty()) throw Error(list.error);
    out = std::move(list.records);
  }

  const Json& required(const Json& object, const char* key, const std::string& path) const {
    const Json* value = member(object, key);
    if (value == nullptr) r_.fail(path + "." + key, "missing; every trace record has one");
    return *value;
  }

  void u64(const Json& object, const char* key, const std::string& path,
           std::uint64_t& field) const {
    if (const Json* v = member(object, key)) field = r_.uint64_value(*v, path + "." + key);
  }
  void u32(const Json& object, const char* key, const std::string& path,
           std::uint32_t& field) const {
    if (const Json* v = member(object, key)) field = r_.uint32_value(*v, path + "." + key);
  }
  void i32(const Json& object, const char* key, const std::string& path, int& field) const {
    if (const Json* v = member(object, key)) field = r_.int_value(*v, path + "." + key, -1);
  }
  std::int64_t i64(const Json& object, const char* key, const std::string& path) const {
    return static_cast<std::int64_t>(r_.integer(required(object, key, path), path + "." + key,
                                                std::numeric_limits<std::int64_t>::min(),
                                                std::numeric_limits<std::int64_t>::max()));
  }
  std::string_view text(const Json& value, const std::string& path) {
    return intern_(r_.string(value, path));
  }

  // The fields every GPU record has: device, stream, times (start_ns counted from the
  // origin), graph ids, and launch call and scope when known.
  void span(const Json& value, const std::string& path, std::uint64_t origin, GpuSpan& s) const {
    if (const Json* v = member(value, "device")) {
      s.device = static_cast<std::uint32_t>(r_.int_value(*v, path + ".device", 0));
    }
    u32(value, "stream", path, s.stream);
    s.start_ns = origin + r_.uint64_value(required(value, "start_ns", path), path + ".start_ns");
    s.end_ns =
        s.start_ns + r_.uint64_value(required(value, "duration_ns", path), path + ".duration_ns");
    u32(value, "graph_id", path, s.graph_id);
    u64(value, "graph_node_id", path, s.graph_node_id);
  }

  void attribution(const Json& value, const std::string& path, std::uint64_t origin,
                   Attribution& a) {
    if (const Json* v = member(value, "scope")) a.scope_name = text(*v, path + ".scope");
    const Json* launch = member(value, "launch");
    if (launch == nullptr) return;
    const std::string p = path + ".launch";
    r_.object(*launch, p);
    LaunchCall call;
    if (const Json* v = member(*launch, "api")) {
      call.kind = r_.string(*v, p + ".api") == "driver" ? ApiKind::driver : ApiKind::runtime;
    }
    if (const Json* v = member(*launch, "name")) call.name = text(*v, p + ".name");
    u32(*launch, "thread_id", p, call.thread_id);
    u32(*launch, "process_id", p, call.process_id);
    call.start_ns = origin + static_cast<std::uint64_t>(i64(*launch, "start_ns", p));
    call.end_ns = origin + static_cast<std::uint64_t>(i64(*launch, "end_ns", p));
    a.launch = call;
  }

  Dim3 dim(const Json& value, const std::string& path) const {
    if (!value.is_array() || value.size() != 3) {
      r_.fail(path, "expected [x, y, z], got " + describe(value));
    }
    return Dim3{r_.uint32_value(value[0], index_path(path, 0)),
                r_.uint32_value(value[1], index_path(path, 1)),
                r_.uint32_value(value[2], index_path(path, 2))};
  }

  TraceCounts trace_counts(const Json& value, const std::string& path) const {
    const std::string p = path + ".counts";
    r_.object(value, p);
    TraceCounts c;
    u64(value, "kernels", p, c.kernels);
    u64(value, "memcpys", p, c.memcpys);
    u64(value, "memsets", p, c.memsets);
    u64(value, "api_calls", p, c.api_calls);
    u64(value, "dropped_records", p, c.dropped_records);
    u64(value, "zero_timestamp_records", p, c.zero_timestamp_records);
    u64(value, "inverted_timestamp_records", p, c.inverted_timestamp_records);
    u64(value, "unattributed_kernels", p, c.unattributed_kernels);
    u64(value, "kernels_before_launch", p, c.kernels_before_launch);
    u64(value, "unknown_records", p, c.unknown_records);
    return c;
  }

  KernelSummary summary(const Json& value, const std::string& path) const {
    KernelSummary row;
    row.name = r_.string(required(value, "name", path), path + ".name");
    row.instances = static_cast<std::size_t>(
        r_.uint64_value(required(value, "instances", path), path + ".instances"));
    row.total_ns = r_.uint64_value(required(value, "total_ns", path), path + ".total_ns");
    const auto number = [&](const char* key, double& field) {
      if (const Json* v = member(value, key)) field = r_.duration(*v, path + "." + key);
    };
    number("time_percent", row.time_percent);
    number("average_ns", row.average_ns);
    number("median_ns", row.median_ns);
    u64(value, "min_ns", path, row.min_ns);
    u64(value, "max_ns", path, row.max_ns);
    if (const Json* v = member(value, "stddev_ns")) {
      row.stddev_ns = r_.duration(*v, path + ".stddev_ns");
    }
    if (const Json* v = member(value, "mixed_launch_config")) {
      row.mixed_launch_config = r_.boolean(*v, path + ".mixed_launch_config");
    }
    if (const Json* v = member(value, "grid")) row.grid = dim(*v, path + ".grid");
    if (const Json* v = member(value, "block")) row.block = dim(*v, path + ".block");
    return row;
  }

  RangeSummary range_row(const Json& value, const std::string& path) const {
    RangeSummary row;
    row.name = r_.string(required(value, "name", path), path + ".name");
    if (const Json* v = member(value, "domain")) row.domain = r_.string(*v, path + ".domain");
    row.instances = r_.uint64_value(required(value, "instances", path), path + ".instances");
    u64(value, "total_ns", path, row.total_ns);
    if (const Json* v = member(value, "median_ns")) {
      row.median_ns = r_.duration(*v, path + ".median_ns");
    }
    u64(value, "kernels", path, row.kernels);
    u64(value, "kernel_time_ns", path, row.kernel_time_ns);
    u64(value, "self_kernels", path, row.self_kernels);
    u64(value, "self_kernel_time_ns", path, row.self_kernel_time_ns);
    return row;
  }

  KernelActivity kernel(const Json& value, const std::string& path, std::uint64_t origin) {
    KernelActivity k;
    k.name = text(required(value, "name", path), path + ".name");
    k.mangled_name = k.name;
    if (const Json* v = member(value, "mangled_name")) {
      k.mangled_name = text(*v, path + ".mangled_name");
    }
    span(value, path, origin, k);
    if (const Json* v = member(value, "grid")) k.grid = dim(*v, path + ".grid");
    if (const Json* v = member(value, "block")) k.block = dim(*v, path + ".block");
    u32(value, "registers_per_thread", path, k.registers_per_thread);
    u32(value, "static_shared_memory_bytes", path, k.static_shared_memory_bytes);
    u32(value, "dynamic_shared_memory_bytes", path, k.dynamic_shared_memory_bytes);
    attribution(value, path, origin, k);
    if (!k.launch) launch_from_delays(value, path, k);
    return k;
  }

  // Files without a launch record (kerntime before 0.x, or a launch without a name) keep only
  // enqueue_ns and queue_delay_ns: rebuild a nameless launch that gives the same two figures.
  void launch_from_delays(const Json& value, const std::string& path, KernelActivity& k) const {
    const Json* enqueue = member(value, "enqueue_ns");
    if (enqueue == nullptr) return;
    LaunchCall call;
    if (const Json* delay = member(value, "queue_delay_ns")) {
      call.start_ns = k.start_ns - r_.uint64_value(*delay, path + ".queue_delay_ns");
    } else {
      call.start_ns = k.start_ns + 1;  // the kernel started first: no queue delay
    }
    call.end_ns = call.start_ns + r_.uint64_value(*enqueue, path + ".enqueue_ns");
    k.launch = call;
  }

  MemcpyActivity memcpy_record(const Json& value, const std::string& path, std::uint64_t origin) {
    MemcpyActivity m;
    if (const Json* v = member(value, "kind")) {
      m.kind = kind_from_name(r_.string(*v, path + ".kind"), MemcpyKind::peer_to_peer);
    }
    m.source_kind = memory_kind(value, "source_kind", path);
    m.destination_kind = memory_kind(value, "destination_kind", path);
    u64(value, "bytes", path, m.bytes);
    i32(value, "source_device", path, m.source_device);
    i32(value, "destination_device", path, m.destination_device);
    span(value, path, origin, m);
    attribution(value, path, origin, m);
    return m;
  }

  MemsetActivity memset_record(const Json& value, const std::string& path, std::uint64_t origin) {
    MemsetActivity m;
    u32(value, "value", path, m.value);
    u64(value, "bytes", path, m.bytes);
    m.memory_kind = memory_kind(value, "memory_kind", path);
    span(value, path, origin, m);
    attribution(value, path, origin, m);
    return m;
  }

  // An API call's start_ns is signed (calls often precede the origin); read as if the origin
  // were 0, like the GPU records, and moved in settle().
  ApiCall api_call(const Json& value, const std::string& path) {
    ApiCall call;
    call.name = text(required(value, "name", path), path + ".name");
    if (const Json* v = member(value, "api")) {
      call.kind = r_.string(*v, path + ".api") == "driver" ? ApiKind::driver : ApiKind::runtime;
    }
    u32(value, "thread_id", path, call.thread_id);
    u32(value, "process_id", path, call.process_id);
    call.start_ns = static_cast<std::uint64_t>(i64(value, "start_ns", path));
    call.end_ns = call.start_ns +
                  r_.uint64_value(required(value, "duration_ns", path), path + ".duration_ns");
    u32(value, "return_value", path, call.return_value);
    if (const Json* v = member(value, "scope")) call.scope_name = text(*v, path + ".scope");
    return call;
  }

  MemoryKind memory_kind(const Json& value, const char* key, const std::string& path) const {
    const Json* v = member(value, key);
    if (v == nullptr) return MemoryKind::unknown;
    return kind_from_name(r_.string(*v, path + "." + key), MemoryKind::managed_static);
  }

  const JsonReader& r_;
  const std::string path_;
  Interner intern_;
  RecordList<KernelActivity> kernels_;
  RecordList<MemcpyActivity> memcpys_;
  RecordList<MemsetActivity> memsets_;
  RecordList<ApiCall> api_calls_;
};

TraceSectionParser::TraceSectionParser(const JsonReader& reader, std::string path)
    : reader_(std::make_unique<SectionReader>(reader, std::move(path))) {}

TraceSectionParser::~TraceSectionParser() = default;

bool TraceSectionParser::is_record_list(const std::string& key) {
  return SectionReader::is_record_list(key);
}

void TraceSectionParser::start_list(const std::string& key) {
  reader_->start_list(key);
}

void TraceSectionParser::add_record(const std::string& key, std::size_t index, const Json& record) {
  reader_->add_record(key, index, record);
}

TraceSection TraceSectionParser::finish(const Json& section) {
  return reader_->finish(section);
}

}  // namespace kerntime::report
