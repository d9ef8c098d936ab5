// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_builder.hpp"

#include <algorithm>
#include <iterator>

namespace kerntime::trace {
namespace {

template <class T>
void move_append(std::vector<T>& into, std::vector<T>& from) {
  if (into.empty()) {
    into = std::move(from);
  } else {
    into.insert(into.end(), std::make_move_iterator(from.begin()),
                std::make_move_iterator(from.end()));
  }
}

}  // namespace

TraceBuilder::TraceBuilder() : store_(std::make_shared<StringStore>()), kernel_names_(*store_) {}

void TraceBuilder::append(RecordBatch batch) {
  // CUPTI owns the name text; intern it now, while it is certainly alive.
  for (RawKernel& kernel : batch.kernels) {
    kernel.name_id = kernel_names_.intern(kernel.name);
    kernel.name = nullptr;
  }
  for (const RawApi& call : batch.api_calls) {
    api_functions_.insert(api_key(call.kind, call.callback_id));
  }
  move_append(records_.kernels, batch.kernels);
  move_append(records_.api_calls, batch.api_calls);
  move_append(records_.scope_tags, batch.scope_tags);
  move_append(records_.memcpys, batch.memcpys);
  move_append(records_.memsets, batch.memsets);
  move_append(records_.synchronizations, batch.synchronizations);
  records_.unknown_records += batch.unknown_records;
  records_.foreign_tags += batch.foreign_tags;
  records_.truncated_buffers += batch.truncated_buffers;
}

void TraceBuilder::add_warning(std::string message) {
  if (std::find(warnings_.begin(), warnings_.end(), message) == warnings_.end()) {
    warnings_.push_back(std::move(message));
  }
}

std::vector<std::pair<ApiKind, std::uint32_t>> TraceBuilder::unnamed_api_functions() const {
  std::vector<std::pair<ApiKind, std::uint32_t>> result;
  for (const std::uint64_t key : api_functions_) {
    if (api_names_.count(key) != 0) continue;
    result.emplace_back((key >> 32) != 0 ? ApiKind::driver : ApiKind::runtime,
                        static_cast<std::uint32_t>(key));
  }
  std::sort(result.begin(), result.end());
  return result;
}

void TraceBuilder::set_api_name(ApiKind kind, std::uint32_t callback_id, std::string_view name) {
  api_names_[api_key(kind, callback_id)] = store_->add(std::string{strip_version_suffix(name)});
}

std::string_view TraceBuilder::api_name(ApiKind kind, std::uint32_t callback_id) {
  const std::uint64_t key = api_key(kind, callback_id);
  if (auto it = api_names_.find(key); it != api_names_.end()) return it->second;
  // Unnamed (CUPTI could not name it): say which function it was rather than nothing.
  const std::string fallback = std::string{kind == ApiKind::driver ? "driver" : "runtime"} +
                               " API function " + std::to_string(callback_id);
  return api_names_[key] = store_->add(fallback);
}

std::string_view TraceBuilder::scope_name(const std::string& name) {
  if (auto it = scope_names_.find(name); it != scope_names_.end()) return it->second;
  const std::string_view view = store_->add(name);
  scope_names_.emplace(name, view);
  return view;
}

void TraceBuilder::clear_records() {
  records_ = RecordBatch{};
  dropped_ = 0;
}

std::size_t TraceBuilder::record_count() const {
  return records_.kernels.size() + records_.api_calls.size() + records_.scope_tags.size() +
         records_.memcpys.size() + records_.memsets.size() + records_.synchronizations.size() +
         records_.unknown_records;
}

}  // namespace kerntime::trace
