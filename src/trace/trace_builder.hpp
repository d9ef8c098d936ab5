// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <kerntime/trace.hpp>

#include "trace/names.hpp"
#include "trace/raw_records.hpp"
#include "trace/scope_table.hpp"
#include "trace/string_store.hpp"

namespace kerntime::trace {

/// Collects decoded records from any number of buffers, in any order, and turns them into a
/// Trace. Correlation happens only in build(), over everything appended so far (two passes:
/// correlation maps first, then records), so where a buffer boundary fell or which buffer CUPTI
/// delivered first never changes the result.
///
/// Not thread-safe: the owner serializes calls. It makes no CUPTI call, so a lock the owner
/// holds around it is never held across one.
class TraceBuilder {
 public:
  TraceBuilder();

  /// Takes the records of one batch; kernel name pointers are read here, not later.
  void append(RecordBatch batch);
  /// Records CUPTI reported as dropped (the count it returns resets on each read).
  void add_dropped(std::uint64_t count) { dropped_ += count; }
  /// A warning for every built Trace; repeated text is kept once.
  void add_warning(std::string message);
  void set_clock(ClockAnchor clock) { clock_ = clock; }

  /// API functions seen in records whose name is not known yet.
  std::vector<std::pair<ApiKind, std::uint32_t>> unnamed_api_functions() const;
  /// Names an API function; `name` is CUPTI's, with or without its "_vNNNN" suffix.
  void set_api_name(ApiKind kind, std::uint32_t callback_id, std::string_view name);

  /// Forgets records and the dropped count; names, warnings and the clock stay.
  void clear_records();
  std::size_t record_count() const;

  /// The correlated, attributed Trace of everything appended so far.
  Trace build(const ScopeSnapshot& scopes);

  /// The kernels that were running when the GPU stopped at a fault: CUPTI hands them over at a
  /// forced flush without timestamps. One line naming each (up to a few), with its device,
  /// stream, launching thread and innermost scope where known; empty when there are none.
  std::string in_flight(const ScopeSnapshot& scopes) const;

 private:
  static std::uint64_t api_key(ApiKind kind, std::uint32_t callback_id) {
    return (std::uint64_t{kind == ApiKind::driver} << 32) | callback_id;
  }
  std::string_view api_name(ApiKind kind, std::uint32_t callback_id);
  std::string_view scope_name(const std::string& name);

  std::shared_ptr<StringStore> store_;
  KernelNames kernel_names_;
  RecordBatch records_;
  std::uint64_t dropped_ = 0;
  std::vector<std::string> warnings_;
  ClockAnchor clock_;
  std::unordered_set<std::uint64_t> api_functions_;
  std::unordered_map<std::uint64_t, std::string_view> api_names_;
  std::unordered_map<std::string, std::string_view> scope_names_;
};

}  // namespace kerntime::trace
