// SPDX-License-Identifier: Apache-2.0
#include "inject/thread_ranges.hpp"

#include <functional>
#include <new>

namespace kerntime::inject {
namespace {

constexpr std::size_t kFirstSlots = 64;

std::uint64_t range_hash(std::string_view domain, std::string_view name) {
  const std::hash<std::string_view> hash;
  return hash(name) ^ (hash(domain) * 0x9e3779b97f4a7c15ULL);
}

std::uint64_t path_hash(std::uint64_t parent, std::uint64_t range) {
  std::uint64_t h = parent * 0x9e3779b97f4a7c15ULL ^ range * 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}

// Makes room for one more entry in an open-addressing table kept at most half full: doubles it
// up to twice `max` slots, and empties it once it holds `max` entries.
template <class Entry, class Hash>
void make_room(std::vector<Entry>& table, std::size_t& used, std::size_t max, Hash hash_of) {
  if (table.empty()) {
    table.resize(kFirstSlots);
    return;
  }
  if (2 * (used + 1) <= table.size()) return;
  if (used + 1 > max) {
    for (Entry& entry : table)
      entry = Entry{};
    used = 0;
    return;
  }
  std::vector<Entry> bigger(table.size() * 2);
  const std::size_t mask = bigger.size() - 1;
  for (Entry& entry : table) {
    if (!entry.used()) continue;
    std::size_t at = hash_of(entry) & mask;
    while (bigger[at].used())
      at = (at + 1) & mask;
    bigger[at] = std::move(entry);
  }
  table = std::move(bigger);
}

std::atomic<std::uint64_t> next_instance{1};
thread_local std::uint64_t t_owner = 0;
thread_local ThreadRanges* t_ranges = nullptr;

}  // namespace

ThreadRanges::ThreadRanges() : ring_(std::make_unique<FinishedRange[]>(kRing)) {}

std::uint64_t ThreadRanges::cached_range(std::string_view domain,
                                         std::string_view name) const noexcept {
  if (ranges_.empty()) return 0;
  const std::uint64_t hash = range_hash(domain, name);
  const std::size_t mask = ranges_.size() - 1;
  for (std::size_t at = hash & mask; ranges_[at].used(); at = (at + 1) & mask) {
    const RangeEntry& entry = ranges_[at];
    if (entry.hash == hash && entry.name == name && entry.domain == domain) return entry.id;
  }
  return 0;
}

void ThreadRanges::cache_range(std::string_view domain, std::string_view name, std::uint64_t id) {
  make_room(ranges_, ranges_used_, kMaxCached, [](const RangeEntry& e) { return e.hash; });
  const std::uint64_t hash = range_hash(domain, name);
  const std::size_t mask = ranges_.size() - 1;
  std::size_t at = hash & mask;
  while (ranges_[at].used())
    at = (at + 1) & mask;
  ranges_[at] = RangeEntry{hash, id, std::string{domain}, std::string{name}};
  ++ranges_used_;
}

std::uint64_t ThreadRanges::cached_path(std::uint64_t parent, std::uint64_t range) const noexcept {
  if (paths_.empty()) return 0;
  const std::size_t mask = paths_.size() - 1;
  for (std::size_t at = path_hash(parent, range) & mask; paths_[at].used(); at = (at + 1) & mask) {
    if (paths_[at].parent == parent && paths_[at].range == range) return paths_[at].path;
  }
  return 0;
}

void ThreadRanges::cache_path(std::uint64_t parent, std::uint64_t range, std::uint64_t path) {
  make_room(paths_, paths_used_, kMaxCached,
            [](const PathEntry& e) { return path_hash(e.parent, e.range); });
  const std::size_t mask = paths_.size() - 1;
  std::size_t at = path_hash(parent, range) & mask;
  while (paths_[at].used())
    at = (at + 1) & mask;
  paths_[at] = PathEntry{parent, range, path};
  ++paths_used_;
}

bool ThreadRanges::finish(const FinishedRange& range) {
  const std::uint64_t head = head_.load(std::memory_order_relaxed);
  if (!spilling_.load(std::memory_order_relaxed) &&
      head - tail_.load(std::memory_order_acquire) < kRing) {
    ring_[head % kRing] = range;
    head_.store(head + 1, std::memory_order_release);
    return true;
  }
  std::lock_guard lock{spill_mutex_};
  if (!spilling_.load(std::memory_order_relaxed)) {
    if (head - tail_.load(std::memory_order_acquire) < kRing) {  // the reader made room
      ring_[head % kRing] = range;
      head_.store(head + 1, std::memory_order_release);
      return true;
    }
    spilling_.store(true, std::memory_order_relaxed);
  }
  if (spill_.size() >= kMaxSpilled) return false;
  spill_.push_back(range);
  return true;
}

void ThreadRanges::Spill::push_back(const FinishedRange& range) {
  if (size_ == chunks_.size() * kRing) chunks_.push_back(std::make_unique<FinishedRange[]>(kRing));
  chunks_[size_ / kRing][size_ % kRing] = range;
  ++size_;
}

ThreadRangesSet::ThreadRangesSet() : id_(next_instance.fetch_add(1)) {}

ThreadRangesSet::~ThreadRangesSet() {
  for (std::atomic<ThreadRanges*>& ranges : threads_)
    delete ranges.load();
}

ThreadRanges* ThreadRangesSet::mine() noexcept {
  if (t_owner == id_) return t_ranges;
  t_owner = id_;
  t_ranges = nullptr;
  const std::size_t index = claimed_.fetch_add(1, std::memory_order_relaxed);
  if (index >= kThreads) return nullptr;
  try {
    t_ranges = new ThreadRanges;
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
  threads_[index].store(t_ranges, std::memory_order_release);
  return t_ranges;
}

}  // namespace kerntime::inject
