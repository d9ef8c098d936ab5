// SPDX-License-Identifier: Apache-2.0
#include "cupti/event_records.hpp"

#include <cstdint>

namespace kerntime::cupti {

std::size_t EventRecords::home(const void* event) noexcept {
  // Fibonacci hashing: event handles are heap addresses, alike in their low bits.
  const auto key = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(event));
  return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> 54) % kSlots;
}

void EventRecords::recorded(const void* event, const Record& record) noexcept {
  if (event == nullptr) return;
  const std::size_t first = home(event);
  // The event's own slot if it has one, else the first free one of its probe, else its home.
  std::size_t chosen = first;
  bool found = false;
  for (std::size_t i = 0; i < kProbe && !found; ++i) {
    const std::size_t at = (first + i) % kSlots;
    const void* held = slots_[at].event.load(std::memory_order_relaxed);
    if (held == event) {
      chosen = at;
      found = true;
    }
  }
  for (std::size_t i = 0; i < kProbe && !found; ++i) {
    const std::size_t at = (first + i) % kSlots;
    if (slots_[at].event.load(std::memory_order_relaxed) == nullptr) {
      chosen = at;
      found = true;
    }
  }
  Slot& slot = slots_[chosen];
  std::uint32_t version = slot.version.load(std::memory_order_relaxed);
  if ((version & 1U) != 0 ||
      !slot.version.compare_exchange_strong(version, version + 1, std::memory_order_acquire)) {
    return;  // another thread is writing it
  }
  // A reader that sees any of the stores below sees the odd version after them (a seqlock).
  std::atomic_thread_fence(std::memory_order_release);
  slot.event.store(event, std::memory_order_relaxed);
  slot.stream.store(record.stream, std::memory_order_relaxed);
  slot.context_id.store(record.context_id, std::memory_order_relaxed);
  slot.correlation_id.store(record.correlation_id, std::memory_order_relaxed);
  slot.per_thread.store(record.per_thread, std::memory_order_relaxed);
  slot.version.store(version + 2, std::memory_order_release);
}

std::optional<EventRecords::Record> EventRecords::find(const void* event) const noexcept {
  if (event == nullptr) return std::nullopt;
  const std::size_t first = home(event);
  for (std::size_t i = 0; i < kProbe; ++i) {
    const Slot& slot = slots_[(first + i) % kSlots];
    const std::uint32_t before = slot.version.load(std::memory_order_acquire);
    // A slot being written may be this event's newest record: an older copy further on (two
    // threads that recorded it at once can leave two) must not answer for it.
    if ((before & 1U) != 0) return std::nullopt;
    if (slot.event.load(std::memory_order_relaxed) != event) continue;
    Record record;
    record.stream = slot.stream.load(std::memory_order_relaxed);
    record.context_id = slot.context_id.load(std::memory_order_relaxed);
    record.correlation_id = slot.correlation_id.load(std::memory_order_relaxed);
    record.per_thread = slot.per_thread.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (slot.version.load(std::memory_order_relaxed) != before) return std::nullopt;
    return record;
  }
  return std::nullopt;
}

void EventRecords::forget(const void* event) noexcept {
  if (event == nullptr) return;
  const std::size_t first = home(event);
  for (std::size_t i = 0; i < kProbe; ++i) {
    Slot& slot = slots_[(first + i) % kSlots];
    if (slot.event.load(std::memory_order_relaxed) != event) continue;
    std::uint32_t version = slot.version.load(std::memory_order_relaxed);
    if ((version & 1U) != 0 ||
        !slot.version.compare_exchange_strong(version, version + 1, std::memory_order_acquire)) {
      continue;  // being written: the writer's record is a new event's, or this one's again
    }
    std::atomic_thread_fence(std::memory_order_release);
    if (slot.event.load(std::memory_order_relaxed) == event) {
      slot.event.store(nullptr, std::memory_order_relaxed);
    }
    slot.version.store(version + 2, std::memory_order_release);
  }
}

}  // namespace kerntime::cupti
