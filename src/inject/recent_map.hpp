// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace kerntime::inject {

/// A map from correlation ids (which CUPTI never reuses in a process) that forgets its oldest
/// keys past a capacity, so that what waits for a record that never comes cannot grow it.
template <class Value>
class RecentMap {
 public:
  explicit RecentMap(std::size_t capacity) : capacity_(capacity) {}

  Value* find(std::uint32_t key) {
    const auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }
  /// The value of `key`, made (and the oldest forgotten past the capacity) when it is new.
  Value& get(std::uint32_t key) {
    auto [it, inserted] = map_.try_emplace(key);
    if (inserted) {
      order_.push_back(key);
      if (map_.size() > capacity_) trim(key);
      it = map_.find(key);
    }
    return it->second;
  }
  void erase(std::uint32_t key) { map_.erase(key); }
  std::size_t size() const { return map_.size(); }

 private:
  // Forgets the oldest keys until the map fits (`keep`, just added, stays); the order's front,
  // which erase() leaves behind, is dropped once it is half of it.
  void trim(std::uint32_t keep) {
    while (map_.size() > capacity_ && head_ < order_.size()) {
      const std::uint32_t oldest = order_[head_++];
      if (oldest != keep) map_.erase(oldest);
    }
    if (head_ > order_.size() / 2) {
      order_.erase(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

  std::size_t capacity_;
  std::unordered_map<std::uint32_t, Value> map_;
  std::vector<std::uint32_t> order_;
  std::size_t head_ = 0;
};

}  // namespace kerntime::inject
