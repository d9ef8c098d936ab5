// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace kerntime::inject {

/// A map from correlation ids (which CUPTI never reuses in a process) that forgets its oldest
/// keys past a capacity, so that what waits for a record that never comes cannot grow it.
///
/// One open-addressing table rather than a node per key: the recorder adds and removes a key for
/// most kernel records of a program with NVTX ranges, on the reader thread, and a node each cost
/// an allocation and a free. CUPTI hands ids out in order, so a key's home slot is the id itself
/// (modulo the table): the keys alive at once sit side by side, each mostly at home. Robin Hood
/// probing (a key passes only keys nearer their home) keeps that order, so a miss stops at the
/// first key nearer its home than the probe, and an erasure shifts back only the keys displaced
/// behind it.
template <class Value>
class RecentMap {
 public:
  explicit RecentMap(std::size_t capacity) : capacity_(capacity) {}

  Value* find(std::uint32_t key) {
    const std::size_t at = locate(key);
    return at == kNone ? nullptr : &slots_[at].value;
  }
  /// The value of `key`, made (and the oldest forgotten past the capacity) when it is new.
  Value& get(std::uint32_t key) {
    if (const std::size_t at = locate(key); at != kNone) return slots_[at].value;
    if (4 * (used_ + 1) > 3 * slots_.size()) grow();
    insert(Slot{key, true, Value{}});
    ++used_;
    order_.push_back(key);
    if (used_ > capacity_) trim(key);
    return slots_[locate(key)].value;
  }
  void erase(std::uint32_t key) {
    std::size_t hole = locate(key);
    if (hole == kNone) return;
    --used_;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t next = (hole + 1) & mask; slots_[next].full && distance(next) > 0;
         next = (next + 1) & mask) {
      slots_[hole] = std::move(slots_[next]);
      hole = next;
    }
    slots_[hole].full = false;
  }
  std::size_t size() const { return used_; }

 private:
  static constexpr std::size_t kNone = ~std::size_t{0};
  struct Slot {
    std::uint32_t key = 0;
    bool full = false;
    Value value{};
  };

  std::size_t home(std::uint32_t key) const { return key & (slots_.size() - 1); }
  // How far the key in `at` sits past its home.
  std::size_t distance(std::size_t at) const {
    return (at - home(slots_[at].key)) & (slots_.size() - 1);
  }
  std::size_t locate(std::uint32_t key) const {
    if (used_ == 0) return kNone;
    const std::size_t mask = slots_.size() - 1;
    std::size_t at = home(key);
    for (std::size_t d = 0; slots_[at].full && distance(at) >= d; at = (at + 1) & mask, ++d) {
      if (slots_[at].key == key) return at;
    }
    return kNone;
  }
  void insert(Slot slot) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t at = home(slot.key);
    for (std::size_t d = 0; slots_[at].full; at = (at + 1) & mask, ++d) {
      if (const std::size_t resident = distance(at); resident < d) {
        std::swap(slot, slots_[at]);
        d = resident;
      }
    }
    slots_[at] = std::move(slot);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    for (Slot& slot : old) {
      if (slot.full) insert(std::move(slot));
    }
  }
  // Forgets the oldest keys until the map fits (`keep`, just added, stays); the order's front,
  // which erase() leaves behind, is dropped once it is half of it.
  void trim(std::uint32_t keep) {
    while (used_ > capacity_ && head_ < order_.size()) {
      const std::uint32_t oldest = order_[head_++];
      if (oldest != keep) erase(oldest);
    }
    if (head_ > order_.size() / 2) {
      order_.erase(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

  std::size_t capacity_;
  std::vector<Slot> slots_;  // a power of two long, or empty; at most 3/4 full
  std::size_t used_ = 0;
  std::vector<std::uint32_t> order_;
  std::size_t head_ = 0;
};

}  // namespace kerntime::inject
