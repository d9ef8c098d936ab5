// SPDX-License-Identifier: Apache-2.0
#include "inject/recent_map.hpp"

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

}  // namespace
}  // namespace kerntime::inject
