// SPDX-License-Identifier: Apache-2.0
#include "trace/scope_table.hpp"

namespace kerntime::trace {

void ScopeTable::record(std::uint64_t id, std::uint64_t parent, std::string_view name,
                        std::uint64_t thread) {
  std::lock_guard lock{mutex_};
  scopes_.push_back(ScopeRecord{id, parent, name_index(name), thread});
}

std::uint32_t ScopeTable::name_index(std::string_view name) {
  if (auto it = by_address_.find(name.data()); it != by_address_.end()) {
    if (names_[it->second] == name) return it->second;
  }
  std::uint32_t index = 0;
  if (auto it = by_text_.find(std::string{name}); it != by_text_.end()) {
    index = it->second;
  } else {
    index = static_cast<std::uint32_t>(names_.size());
    names_.emplace_back(name);
    by_text_.emplace(names_.back(), index);
  }
  by_address_[name.data()] = index;
  return index;
}

ScopeSnapshot ScopeTable::snapshot() const {
  std::lock_guard lock{mutex_};
  return ScopeSnapshot{scopes_, names_};
}

std::size_t ScopeTable::size() const {
  std::lock_guard lock{mutex_};
  return scopes_.size();
}

}  // namespace kerntime::trace
