// SPDX-License-Identifier: Apache-2.0
// TraceBuilder::build: pass 1 builds the correlation maps from every record (API calls and
// scope tags), pass 2 turns GPU records into activities that look their correlation id up.
#include <algorithm>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>

#include "trace/correlation_map.hpp"
#include "trace/trace_builder.hpp"

namespace kerntime::trace {
namespace {

enum class Stamps { valid, zero, inverted };

Stamps check(std::uint64_t start, std::uint64_t end) {
  if (start == 0 || end == 0) return Stamps::zero;
  if (end < start) return Stamps::inverted;
  return Stamps::valid;
}

/// Depth of each scope in its thread's nesting, to pick the innermost of several tags.
class ScopeIndex {
 public:
  explicit ScopeIndex(const std::vector<TraceScope>& scopes) : scopes_(scopes) {
    for (std::size_t i = 0; i < scopes.size(); ++i)
      position_.emplace(scopes[i].id, i);
  }

  const TraceScope* find(std::uint64_t id) const {
    auto it = position_.find(id);
    return it == position_.end() ? nullptr : &scopes_[it->second];
  }

  std::size_t depth(std::uint64_t id) const {
    std::size_t depth = 0;
    // Parents always opened earlier, so ids fall; the bound guards against a corrupt table.
    for (const TraceScope* scope = find(id); scope != nullptr && depth <= scopes_.size();
         scope = find(scope->parent_id)) {
      ++depth;
    }
    return depth;
  }

 private:
  const std::vector<TraceScope>& scopes_;
  std::unordered_map<std::uint64_t, std::size_t> position_;
};

struct Counters {
  std::uint64_t zero = 0;
  std::uint64_t inverted = 0;

  bool accept(std::uint64_t start, std::uint64_t end) {
    switch (check(start, end)) {
      case Stamps::zero:
        ++zero;
        return false;
      case Stamps::inverted:
        ++inverted;
        return false;
      case Stamps::valid:
        return true;
    }
    return false;
  }
};

// Sorting the compact raw records in place, once, is cheaper than sorting what build()
// makes of them, and a later build finds them nearly sorted already.
template <class Record, class Key>
void sort_records(std::vector<Record>& records, Key key) {
  auto less = [&key](const Record& a, const Record& b) { return key(a) < key(b); };
  if (!std::is_sorted(records.begin(), records.end(), less)) {
    std::stable_sort(records.begin(), records.end(), less);
  }
}

std::string count_text(std::uint64_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

}  // namespace

Trace TraceBuilder::build(const ScopeSnapshot& snapshot) {
  Trace trace;
  trace.strings = store_;
  trace.clock = clock_;
  trace.dropped_records = dropped_;
  trace.unknown_records = records_.unknown_records;
  trace.warnings = warnings_;

  trace.scopes.reserve(snapshot.scopes.size());
  for (const ScopeRecord& record : snapshot.scopes) {
    trace.scopes.push_back(TraceScope{record.id, record.parent,
                                      scope_name(snapshot.names.at(record.name)), record.thread});
  }
  std::sort(trace.scopes.begin(), trace.scopes.end(),
            [](const TraceScope& a, const TraceScope& b) { return a.id < b.id; });
  const ScopeIndex scopes{trace.scopes};

  sort_records(records_.api_calls,
               [](const RawApi& r) { return std::tie(r.start, r.thread_id, r.correlation_id); });
  sort_records(records_.kernels, [](const RawKernel& r) {
    return std::tie(r.start_ns, r.device, r.stream, r.correlation_id, r.graph_node_id);
  });
  auto by_start = [](const GpuSpan& r) { return std::tie(r.start_ns, r.correlation_id); };
  sort_records(records_.memcpys, by_start);
  sort_records(records_.memsets, by_start);
  sort_records(records_.synchronizations,
               [](const RawSynchronization& r) { return std::tie(r.start, r.correlation_id); });

  // Pass 1: correlation id -> innermost scope, and -> launching API call.
  std::uint32_t lowest = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t highest = 0;
  for (const RawScopeTag& tag : records_.scope_tags) {
    lowest = std::min(lowest, tag.correlation_id);
    highest = std::max(highest, tag.correlation_id);
  }
  for (const RawApi& call : records_.api_calls) {
    lowest = std::min(lowest, call.correlation_id);
    highest = std::max(highest, call.correlation_id);
  }
  const std::size_t count = records_.scope_tags.size() + records_.api_calls.size();
  CorrelationMap<std::uint64_t> scope_of{lowest, highest, count};
  for (const RawScopeTag& tag : records_.scope_tags) {
    std::uint64_t& scope = scope_of.at(tag.correlation_id);
    if (scope == 0 || scope == tag.scope_id) {
      scope = tag.scope_id;
      continue;
    }
    const std::size_t mine = scopes.depth(tag.scope_id);
    const std::size_t theirs = scopes.depth(scope);
    if (mine > theirs || (mine == theirs && tag.scope_id > scope)) scope = tag.scope_id;
  }
  Counters counters;
  CorrelationMap<const RawApi*> launch_of{lowest, highest, count};
  std::size_t valid_calls = 0;
  for (const RawApi& call : records_.api_calls) {
    if (!counters.accept(call.start, call.end)) continue;
    ++valid_calls;
    const RawApi*& launch = launch_of.at(call.correlation_id);
    // A runtime call and the driver call beneath it may share an id: the runtime one is what
    // the user wrote.
    if (launch == nullptr || call.kind == ApiKind::runtime) launch = &call;
  }

  auto scope_name_of = [&](std::uint64_t id) -> std::string_view {
    const TraceScope* scope = scopes.find(id);
    return scope != nullptr ? scope->name : std::string_view{};
  };
  auto attribute = [&](std::uint32_t correlation_id, auto& activity) {
    if (const std::uint64_t scope = scope_of.get(correlation_id); scope != 0) {
      activity.scope_id = scope;
      activity.scope_name = scope_name_of(scope);
    }
    const RawApi* found = launch_of.get(correlation_id);
    if (found == nullptr) return false;
    const RawApi& call = *found;
    LaunchCall launch{call.kind,      api_name(call.kind, call.callback_id),
                      call.start,     call.end,
                      call.thread_id, call.process_id};
    if constexpr (std::is_same_v<std::decay_t<decltype(activity)>, SynchronizationActivity>) {
      activity.call = launch;
    } else {
      activity.launch = launch;
    }
    return true;
  };

  // Pass 2: records, each looking up its correlation id.
  trace.api_calls.reserve(valid_calls);
  for (const RawApi& call : records_.api_calls) {
    if (check(call.start, call.end) != Stamps::valid) continue;  // counted in pass 1
    ApiCall& out = trace.api_calls.emplace_back();
    out.kind = call.kind;
    out.callback_id = call.callback_id;
    out.name = api_name(call.kind, call.callback_id);
    out.correlation_id = call.correlation_id;
    out.start_ns = call.start;
    out.end_ns = call.end;
    out.process_id = call.process_id;
    out.thread_id = call.thread_id;
    out.return_value = call.return_value;
    if (const std::uint64_t scope = scope_of.get(call.correlation_id); scope != 0) {
      out.scope_id = scope;
      out.scope_name = scope_name_of(scope);
    }
  }

  // GPU records: the span and payload are the raw record's own, copied whole.
  trace.kernels.reserve(records_.kernels.size());
  for (const RawKernel& raw : records_.kernels) {
    if (!counters.accept(raw.start_ns, raw.end_ns)) continue;
    KernelActivity& out = trace.kernels.emplace_back();
    static_cast<GpuSpan&>(out) = raw;
    static_cast<KernelConfig&>(out) = raw;
    out.name = kernel_names_.demangled(raw.name_id);
    out.mangled_name = kernel_names_.mangled(raw.name_id);
    if (!attribute(raw.correlation_id, out)) {
      ++trace.unattributed_kernels;
    } else if (out.start_ns < out.launch->start_ns) {
      ++trace.kernels_before_launch;
    }
  }

  trace.memcpys.reserve(records_.memcpys.size());
  for (const RawMemcpy& raw : records_.memcpys) {
    if (!counters.accept(raw.start_ns, raw.end_ns)) continue;
    MemcpyActivity& out = trace.memcpys.emplace_back();
    static_cast<GpuSpan&>(out) = raw;
    static_cast<MemcpyInfo&>(out) = raw;
    attribute(raw.correlation_id, out);
  }

  trace.memsets.reserve(records_.memsets.size());
  for (const RawMemset& raw : records_.memsets) {
    if (!counters.accept(raw.start_ns, raw.end_ns)) continue;
    MemsetActivity& out = trace.memsets.emplace_back();
    static_cast<GpuSpan&>(out) = raw;
    static_cast<MemsetInfo&>(out) = raw;
    attribute(raw.correlation_id, out);
  }

  for (const RawSynchronization& raw : records_.synchronizations) {
    if (!counters.accept(raw.start, raw.end)) continue;
    SynchronizationActivity& out = trace.synchronizations.emplace_back();
    out.kind = raw.kind;
    out.context = raw.context;
    out.stream = raw.stream;
    out.event = raw.event;
    out.start_ns = raw.start;
    out.end_ns = raw.end;
    out.correlation_id = raw.correlation_id;
    attribute(raw.correlation_id, out);
  }

  trace.zero_timestamp_records = counters.zero;
  trace.inverted_timestamp_records = counters.inverted;
  auto& warnings = trace.warnings;
  if (trace.dropped_records > 0) {
    warnings.push_back("CUPTI dropped " +
                       count_text(trace.dropped_records, "activity record", "activity records") +
                       " (no free host buffer): counts and totals are incomplete; raise "
                       "TracerOptions::max_buffers or buffer_bytes");
  }
  if (counters.zero > 0) {
    warnings.push_back("excluded " + count_text(counters.zero, "record", "records") +
                       " without timestamps (work still running at a forced flush, or CUPTI's "
                       "device buffers ran out)");
  }
  if (counters.inverted > 0) {
    warnings.push_back("excluded " + count_text(counters.inverted, "record", "records") +
                       " that end before they start");
  }
  if (trace.unattributed_kernels > 0) {
    warnings.push_back("no launch API record for " +
                       count_text(trace.unattributed_kernels, "kernel", "kernels") +
                       " (runtime/driver tracing off, or the record was lost): no launch time, "
                       "thread or scope");
  }
  if (trace.kernels_before_launch > 0) {
    warnings.push_back("GPU start before the launch call for " +
                       count_text(trace.kernels_before_launch, "kernel", "kernels") +
                       ": GPU and host timestamps come from different clocks; compare durations "
                       "only");
  }
  if (records_.truncated_buffers > 0) {
    warnings.push_back("skipped the incomplete end of " + count_text(records_.truncated_buffers,
                                                                     "activity buffer",
                                                                     "activity buffers"));
  }
  if (kernel_names_.demangle_failures() > 0) {
    warnings.push_back(
        "could not demangle " +
        count_text(kernel_names_.demangle_failures(), "kernel name", "kernel names") +
        " (shown as compiled)");
  }
  return trace;
}

std::string TraceBuilder::in_flight(const ScopeSnapshot& snapshot) const {
  constexpr std::size_t kNamed = 4;
  std::string text;
  std::size_t count = 0;
  for (const RawKernel& kernel : records_.kernels) {
    if (kernel.start_ns != 0 && kernel.end_ns != 0) continue;
    if (++count > kNamed) continue;
    if (!text.empty()) text += "; ";
    text += "kernel " + std::string{kernel_names_.demangled(kernel.name_id)} + " on device " +
            std::to_string(kernel.device) + ", stream " + std::to_string(kernel.stream);
    for (const RawApi& call : records_.api_calls) {
      if (call.correlation_id != kernel.correlation_id) continue;
      text += ", launched by thread " + std::to_string(call.thread_id);
      break;
    }
    for (const RawScopeTag& tag : records_.scope_tags) {
      if (tag.correlation_id != kernel.correlation_id) continue;
      for (const ScopeRecord& scope : snapshot.scopes) {
        if (scope.id == tag.scope_id && scope.name < snapshot.names.size()) {
          text += " in scope \"" + snapshot.names[scope.name] + "\"";
          break;
        }
      }
      break;
    }
  }
  if (count > kNamed) text += "; and " + std::to_string(count - kNamed) + " more";
  return text;
}

}  // namespace kerntime::trace
