// SPDX-License-Identifier: Apache-2.0
// The names kept at launch for records CUPTI delivers after their module's unload: CUPTI gives
// a freed name's memory, at the same address, to the next module's kernel, which these tests
// play by overwriting one buffer.
#include "inject/launch_names.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace kerntime::inject {
namespace {

trace::RawKernel kernel(const char* name, std::uint32_t correlation) {
  trace::RawKernel k;
  k.name = name;
  k.correlation_id = correlation;
  return k;
}

TEST(LaunchNames, RecordsLaunchedBeforeAnUnloadTakeTheNameTheyHadThen) {
  LaunchNames names;
  char memory[32] = "module_a_kernel";  // CUPTI's name memory, reused by the next module
  names.note(1, memory);
  names.note(2, memory);
  names.keep_before_unload();  // module A goes
  std::snprintf(memory, sizeof(memory), "%s", "module_b_kernel");
  names.note(3, memory);
  EXPECT_EQ(names.kept_through(), 2u);

  // All delivered after the unload, every record pointing at the same memory.
  std::vector<trace::RawKernel> records = {kernel(memory, 1), kernel(memory, 2), kernel(memory, 3)};
  EXPECT_EQ(names.restore_names(records), 2u);
  EXPECT_STREQ(records[0].name, "module_a_kernel");
  EXPECT_STREQ(records[1].name, "module_a_kernel");
  EXPECT_EQ(records[0].name, records[1].name);  // one pointer per text: cached by pointer
  EXPECT_NE(records[0].name, memory);
  EXPECT_EQ(records[2].name, memory);  // launched after the unload: CUPTI's name holds

  names.keep_before_unload();  // module B goes too
  std::snprintf(memory, sizeof(memory), "%s", "module_c_kernel");
  std::vector<trace::RawKernel> later = {kernel(memory, 3)};
  EXPECT_EQ(names.restore_names(later), 1u);
  EXPECT_STREQ(later[0].name, "module_b_kernel");
  EXPECT_EQ(names.lost(), 0u);
}

TEST(LaunchNames, NothingChangesBeforeTheFirstUnloadNorForGraphsAndUnknownIds) {
  LaunchNames names;
  const char* name = "k";
  names.note(5, name);
  names.note(6, nullptr);  // a graph launch: its kernels have names of their own
  std::vector<trace::RawKernel> records = {kernel(name, 5)};
  EXPECT_EQ(names.restore_names(records), 0u);  // no unload yet
  names.keep_before_unload();
  std::vector<trace::RawKernel> after = {kernel("graph_node", 6), kernel("other", 4),
                                         kernel("none", 0)};
  EXPECT_EQ(names.restore_names(after), 0u);
  EXPECT_STREQ(after[0].name, "graph_node");
  EXPECT_STREQ(after[1].name, "other");
}

TEST(LaunchNames, ARingThatOverflowedBeforeAnUnloadSaysHowManyItLost) {
  LaunchNames names;
  const char* name = "k";
  const std::uint32_t count = static_cast<std::uint32_t>(LaunchNames::kNoted) + 10;
  for (std::uint32_t id = 1; id <= count; ++id)
    names.note(id, name);
  names.keep_before_unload();
  EXPECT_EQ(names.lost(), 10u);
  std::vector<trace::RawKernel> records = {kernel("cupti", 10), kernel("cupti", 11),
                                           kernel("cupti", count)};
  EXPECT_EQ(names.restore_names(records), 2u);
  EXPECT_STREQ(records[0].name, "cupti");  // overwritten before the unload
  EXPECT_STREQ(records[1].name, "k");
}

// keep_noted runs for every batch of records once a module was unloaded: names kept a few at a
// time, in order or not, restore as one keep would, and past kKept and a quarter the oldest go.
TEST(LaunchNames, NamesKeptAFewAtATimeRestoreAsOneKeepWouldAndTheOldestGo) {
  LaunchNames names;
  const char* even = "even";
  const char* odd = "odd";
  names.note(2, even);
  names.note(1, odd);  // another thread's launch, noted late
  names.keep_noted();
  names.note(4, even);
  names.keep_noted();
  names.note(3, odd);  // older than one kept already: merged in
  names.note(5, odd);
  names.keep_noted();
  names.keep_noted();  // nothing new
  std::vector<trace::RawKernel> records;
  for (std::uint32_t id = 1; id <= 5; ++id)
    records.push_back(kernel("cupti", id));
  EXPECT_EQ(names.restore_names(records), 5u);
  for (const trace::RawKernel& record : records)
    EXPECT_STREQ(record.name, record.correlation_id % 2 == 0 ? "even" : "odd");

  const auto last = static_cast<std::uint32_t>(LaunchNames::kKept + LaunchNames::kKept / 2);
  for (std::uint32_t id = 6; id <= last; ++id) {
    names.note(id, even);
    if (id % 1000 == 0) names.keep_noted();
  }
  names.keep_noted();
  EXPECT_EQ(names.lost(), 0u);
  std::vector<trace::RawKernel> ends = {kernel("cupti", 1), kernel("cupti", last - 100),
                                        kernel("cupti", last - LaunchNames::kKept + 1)};
  EXPECT_EQ(names.restore_names(ends), 2u);
  EXPECT_STREQ(ends[0].name, "cupti");  // forgotten
  EXPECT_STREQ(ends[1].name, "even");
  EXPECT_STREQ(ends[2].name, "even");
}

// Launches on several threads while unloads keep names on another: every name kept belongs to
// its own launch (no id paired with another launch's name).
TEST(LaunchNames, ConcurrentLaunchesAndUnloadsNeverPairAnIdWithAnotherLaunchsName) {
  LaunchNames names;
  constexpr int kThreads = 4;
  constexpr std::uint32_t kPerThread = 50'000;
  static const char* const kNames[kThreads] = {"thread_0", "thread_1", "thread_2", "thread_3"};
  std::atomic<bool> done{false};
  std::thread unloader{[&] {
    while (!done.load())
      names.keep_before_unload();
  }};
  std::vector<std::thread> launchers;
  for (int t = 0; t < kThreads; ++t) {
    launchers.emplace_back([&, t] {
      for (std::uint32_t i = 0; i < kPerThread; ++i) {
        names.note(i * kThreads + static_cast<std::uint32_t>(t) + 1, kNames[t]);
      }
    });
  }
  for (std::thread& launcher : launchers)
    launcher.join();
  done.store(true);
  unloader.join();
  names.keep_before_unload();
  std::vector<trace::RawKernel> records;
  for (std::uint32_t id = 1; id <= kThreads * kPerThread; ++id)
    records.push_back(kernel("cupti", id));
  const std::size_t renamed = names.restore_names(records);
  std::size_t wrong = 0;
  for (const trace::RawKernel& record : records) {
    if (std::strcmp(record.name, "cupti") == 0) continue;
    const std::string expected = kNames[(record.correlation_id - 1) % kThreads];
    if (record.name != expected) ++wrong;
  }
  EXPECT_EQ(wrong, 0u);
  // Only launches overwritten in the ring before an unload read them go without.
  EXPECT_GE(renamed + names.lost(), records.size());
  EXPECT_GT(renamed, 0u);
}

}  // namespace
}  // namespace kerntime::inject
