// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace kerntime::trace {

/// correlation id -> V, where V{} means "none". CUPTI hands correlation ids out in sequence, so
/// the ids of one trace are nearly dense: then a plain array replaces the hash map (a million
/// launches make three million API records; the array saves most of the build time). Sparse
/// ids, as synthetic tests may use, fall back to a hash map.
template <class V>
class CorrelationMap {
 public:
  CorrelationMap(std::uint32_t lowest, std::uint32_t highest, std::size_t count) : low_(lowest) {
    dense_ = highest >= lowest && std::uint64_t{highest} - lowest < 4 * std::uint64_t{count} + 4096;
    if (dense_) {
      values_.assign(std::size_t{highest} - lowest + 1, V{});
    } else {
      map_.reserve(count);
    }
  }

  /// The value of `id`, or V{}.
  V get(std::uint32_t id) const {
    if (dense_) {
      return id >= low_ && id - low_ < values_.size() ? values_[id - low_] : V{};
    }
    auto it = map_.find(id);
    return it == map_.end() ? V{} : it->second;
  }

  /// The value slot of `id` (V{} when new). Ids outside [lowest, highest] must not be set.
  V& at(std::uint32_t id) { return dense_ ? values_[id - low_] : map_[id]; }

 private:
  std::uint32_t low_;
  bool dense_ = false;
  std::vector<V> values_;
  std::unordered_map<std::uint32_t, V> map_;
};

}  // namespace kerntime::trace
