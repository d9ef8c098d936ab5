// SPDX-License-Identifier: Apache-2.0
#include "inject/range_registry.hpp"

namespace kerntime::inject {
namespace {

std::string range_display_name(std::string_view domain, std::string_view name) {
  std::string text = "nvtx:";
  if (!domain.empty()) {
    text += domain;
    text += ':';
  }
  text += name.empty() ? std::string_view{"(unnamed)"} : name;
  return text;
}

std::uint64_t path_key(std::uint64_t parent, std::uint64_t range) {
  return (parent << 32) ^ range;
}

}  // namespace

std::uint64_t RangeRegistry::range_id(std::string_view domain, std::string_view name) {
  std::string display = range_display_name(domain, name);
  std::lock_guard lock{mutex_};
  const auto it = range_ids_.find(display);
  if (it != range_ids_.end()) return it->second;
  Range range;
  range.name = display;
  range.message = name.empty() ? std::string{"(unnamed)"} : std::string{name};
  range.domain = std::string{domain};
  ranges_.push_back(std::move(range));
  const std::uint64_t id = ranges_.size();
  range_ids_.emplace(std::move(display), id);
  range_count_.store(id, std::memory_order_release);
  return id;
}

std::uint64_t RangeRegistry::add_path(std::uint64_t parent, std::uint64_t range) {
  const auto [it, inserted] = path_ids_.emplace(path_key(parent, range), paths_.size() + 1);
  if (inserted) paths_.push_back({parent, range});
  return it->second;
}

std::uint64_t RangeRegistry::path_id(std::uint64_t parent, std::uint64_t range, bool& exact) {
  exact = true;
  std::lock_guard lock{mutex_};
  if (range == 0 || range > ranges_.size()) return 0;
  if (parent > paths_.size()) parent = 0;
  if (paths_.size() >= kMaxPaths && path_ids_.count(path_key(parent, range)) == 0) {
    ++folded_;
    exact = false;
    return add_path(0, range);
  }
  return add_path(parent, range);
}

void RangeRegistry::copy_new(std::vector<Range>* ranges, std::vector<Path>* paths) const {
  std::lock_guard lock{mutex_};
  if (ranges != nullptr && ranges->size() < ranges_.size()) {
    ranges->insert(ranges->end(), ranges_.begin() + static_cast<std::ptrdiff_t>(ranges->size()),
                   ranges_.end());
  }
  if (paths != nullptr && paths->size() < paths_.size()) {
    paths->insert(paths->end(), paths_.begin() + static_cast<std::ptrdiff_t>(paths->size()),
                  paths_.end());
  }
}

std::uint64_t RangeRegistry::folded() const {
  std::lock_guard lock{mutex_};
  return folded_;
}

std::string RangeRegistry::path_text(std::uint64_t path) const {
  std::lock_guard lock{mutex_};
  std::vector<const Range*> names;  // innermost first
  for (std::uint64_t at = path; at != 0 && at <= paths_.size() && names.size() < kMaxDepth;
       at = paths_[at - 1].parent) {
    names.push_back(&ranges_[paths_[at - 1].range - 1]);
  }
  std::string text;
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    if (!text.empty()) text += " > ";
    text += "\"" + ((*it)->domain.empty() ? "" : (*it)->domain + ":") + (*it)->message + "\"";
  }
  if (names.empty()) return {};
  return (names.size() == 1 ? "range " : "ranges ") + text;
}

}  // namespace kerntime::inject
