// SPDX-License-Identifier: Apache-2.0
#include "inject/recent_map.hpp"

#include <random>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

namespace kerntime::inject {
namespace {

TEST(RecentMap, ForgetsItsOldestKeysPastItsCapacity) {
  RecentMap<int> map(3);
  for (std::uint32_t key = 1; key <= 5; ++key)
    map.get(key) = static_cast<int>(key) * 10;
  EXPECT_EQ(map.size(), 3u);
  EXPECT_EQ(map.find(1), nullptr);
  EXPECT_EQ(map.find(2), nullptr);
  ASSERT_NE(map.find(5), nullptr);
  EXPECT_EQ(*map.find(5), 50);
  map.get(3) = 33;  // an existing key keeps its age
  map.erase(4);
  map.get(6);
  map.get(7);
  EXPECT_EQ(map.size(), 3u);
  EXPECT_EQ(map.find(3), nullptr);
  EXPECT_NE(map.find(6), nullptr);
  EXPECT_NE(map.find(7), nullptr);
}

TEST(RecentMap, StaysBoundedOverManyKeys) {
  RecentMap<int> map(100);
  for (std::uint32_t key = 0; key < 100'000; ++key) {
    map.get(key);
    if (key % 3 == 0) map.erase(key);
  }
  EXPECT_LE(map.size(), 100u);
  EXPECT_NE(map.find(99'998), nullptr);
}

// The map as it was, a node per key: what the table must agree with.
template <class Value>
class NodeRecentMap {
 public:
  explicit NodeRecentMap(std::size_t capacity) : capacity_(capacity) {}
  Value* find(std::uint32_t key) {
    const auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }
  Value& get(std::uint32_t key) {
    auto [it, inserted] = map_.try_emplace(key);
    if (inserted) {
      order_.push_back(key);
      while (map_.size() > capacity_ && head_ < order_.size()) {
        const std::uint32_t oldest = order_[head_++];
        if (oldest != key) map_.erase(oldest);
      }
      it = map_.find(key);
    }
    return it->second;
  }
  void erase(std::uint32_t key) { map_.erase(key); }
  std::size_t size() const { return map_.size(); }

 private:
  std::size_t capacity_;
  std::unordered_map<std::uint32_t, Value> map_;
  std::vector<std::uint32_t> order_;
  std::size_t head_ = 0;
};

// Random gets, finds and erases over keys that mostly rise (as correlation ids do) and
// sometimes come back: the table holds exactly what a map of nodes holds, through its growth,
// its erasures' shifts and its forgetting.
TEST(RecentMap, AgreesWithAMapOfNodesThroughRandomUse) {
  for (const std::size_t capacity : {1u, 7u, 100u, 5'000u}) {
    RecentMap<std::uint64_t> table(capacity);
    NodeRecentMap<std::uint64_t> nodes(capacity);
    std::mt19937 random(static_cast<unsigned>(capacity));
    std::uint32_t next = 1;
    for (int step = 0; step < 200'000; ++step) {
      const std::uint32_t op = random() % 10;
      const std::uint32_t key =
          random() % 4 == 0 && next > 1 ? 1 + static_cast<std::uint32_t>(random() % next) : next++;
      if (op < 5) {
        const std::uint64_t value = random();
        table.get(key) += value;
        nodes.get(key) += value;
      } else if (op < 8) {
        table.erase(key);
        nodes.erase(key);
      } else {
        const std::uint64_t* a = table.find(key);
        const std::uint64_t* b = nodes.find(key);
        ASSERT_EQ(a == nullptr, b == nullptr) << "key " << key << " at step " << step;
        if (a != nullptr) {
          ASSERT_EQ(*a, *b);
        }
      }
      ASSERT_EQ(table.size(), nodes.size()) << "step " << step;
    }
    for (std::uint32_t key = 1; key < next; ++key) {
      const std::uint64_t* a = table.find(key);
      const std::uint64_t* b = nodes.find(key);
      ASSERT_EQ(a == nullptr, b == nullptr) << "key " << key;
      if (a != nullptr) {
        ASSERT_EQ(*a, *b);
      }
    }
  }
}

}  // namespace
}  // namespace kerntime::inject
