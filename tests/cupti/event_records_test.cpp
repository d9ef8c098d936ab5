// SPDX-License-Identifier: Apache-2.0
// The table of each event's latest record: found again, replaced by a later record, lost (never
// wrong) when the table is full, and never read half-written while other threads write.
#include "cupti/event_records.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace kerntime::cupti {
namespace {

const void* address(std::uintptr_t value) {
  return reinterpret_cast<const void*>(value);
}

EventRecords::Record record_of(std::uintptr_t event, std::uint32_t correlation) {
  EventRecords::Record record;
  record.stream = address(event + 1);
  record.context_id = static_cast<std::uint32_t>(event % 97);
  record.correlation_id = correlation;
  record.per_thread = (event & 0x10U) != 0;
  return record;
}

TEST(EventRecords, AnEventsLatestRecordIsFoundAndAnUnknownEventIsNot) {
  auto table = std::make_unique<EventRecords>();
  table->recorded(address(0x1000), record_of(0x1000, 5));
  table->recorded(address(0x2000), record_of(0x2000, 6));
  table->recorded(address(0x1000), record_of(0x1000, 9));
  const auto first = table->find(address(0x1000));
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->correlation_id, 9u);
  EXPECT_EQ(first->stream, address(0x1001));
  ASSERT_TRUE(table->find(address(0x2000)).has_value());
  EXPECT_EQ(table->find(address(0x2000))->correlation_id, 6u);
  EXPECT_FALSE(table->find(address(0x3000)).has_value());
  EXPECT_FALSE(table->find(nullptr).has_value());
}

TEST(EventRecords, AForgottenEventIsNotFoundAndOthersStay) {
  auto table = std::make_unique<EventRecords>();
  table->recorded(address(0x1000), record_of(0x1000, 5));
  table->recorded(address(0x2000), record_of(0x2000, 6));
  table->forget(address(0x1000));
  EXPECT_FALSE(table->find(address(0x1000)).has_value());
  ASSERT_TRUE(table->find(address(0x2000)).has_value());
  table->recorded(address(0x1000), record_of(0x1000, 7));  // a new event at the address
  ASSERT_TRUE(table->find(address(0x1000)).has_value());
  EXPECT_EQ(table->find(address(0x1000))->correlation_id, 7u);
  table->forget(address(0x3000));  // never recorded: nothing happens
  table->forget(nullptr);
}

TEST(EventRecords, ManyMoreEventsThanSlotsLoseSomeButNeverAnswerWrong) {
  auto table = std::make_unique<EventRecords>();
  constexpr std::uintptr_t kEvents = 4 * EventRecords::kSlots;
  for (std::uintptr_t i = 1; i <= kEvents; ++i)
    table->recorded(address(i * 0x40), record_of(i * 0x40, static_cast<std::uint32_t>(i)));
  std::size_t found = 0;
  for (std::uintptr_t i = 1; i <= kEvents; ++i) {
    if (const auto r = table->find(address(i * 0x40))) {
      ++found;
      EXPECT_EQ(r->correlation_id, i);
      EXPECT_EQ(r->stream, address(i * 0x40 + 1));
    }
  }
  EXPECT_GT(found, EventRecords::kSlots / 2);
  EXPECT_LE(found, EventRecords::kSlots);
}

TEST(EventRecords, ReadersNeverSeeARecordHalfWritten) {
  auto table = std::make_unique<EventRecords>();
  std::atomic<bool> stop{false};
  std::atomic<std::size_t> torn{0};
  std::atomic<std::size_t> seen{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      for (std::uint32_t n = 1; !stop.load(); ++n) {
        const std::uintptr_t event = 0x1000 + 0x40 * ((n + w) % 16);
        // Every field follows from the correlation id, so a mix of two writes shows.
        EventRecords::Record r;
        r.correlation_id = n;
        r.stream = address(event + n);
        r.context_id = n * 3;
        r.per_thread = (n & 1U) != 0;
        table->recorded(address(event), r);
      }
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; i < 200000; ++i) {
      const std::uintptr_t event = 0x1000 + 0x40 * (i % 16);
      if (const auto r = table->find(address(event))) {
        seen.fetch_add(1);
        const std::uint32_t n = r->correlation_id;
        if (r->stream != address(event + n) || r->context_id != n * 3 ||
            r->per_thread != ((n & 1U) != 0)) {
          torn.fetch_add(1);
        }
      }
    }
    stop.store(true);
  });
  for (std::thread& t : threads)
    t.join();
  EXPECT_EQ(torn.load(), 0u);
  EXPECT_GT(seen.load(), 0u);
}

}  // namespace
}  // namespace kerntime::cupti
