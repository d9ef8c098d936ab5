// SPDX-License-Identifier: Apache-2.0
#include "inject/launch_names.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <unordered_map>

namespace kerntime::inject {
namespace {

// An entry's stamp while a launch writes it.
constexpr std::uint64_t kWriting = ~std::uint64_t{0};

}  // namespace

void LaunchNames::note(std::uint32_t correlation_id, const char* name) noexcept {
  if (correlation_id == 0 || name == nullptr) return;
  const std::uint64_t position = next_.fetch_add(1, std::memory_order_relaxed);
  Entry& entry = noted_[position & (kNoted - 1)];
  // A sequence lock: the stamp reads kWriting while the entry changes, then its position. A launch
  // that lost its thread's CPU for a whole lap of the ring must not overwrite the newer entry
  // there, nor one being written: it gives its own up.
  std::uint64_t seen = entry.stamp.load(std::memory_order_relaxed);
  do {
    if (seen > position + 1) {  // kWriting included
      lost_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  } while (!entry.stamp.compare_exchange_weak(seen, kWriting, std::memory_order_relaxed));
  std::atomic_thread_fence(std::memory_order_release);
  entry.correlation_id.store(correlation_id, std::memory_order_relaxed);
  entry.name.store(name, std::memory_order_relaxed);
  entry.stamp.store(position + 1, std::memory_order_release);
}

void LaunchNames::keep_noted() {
  std::lock_guard lock{mutex_};
  const std::uint64_t end = next_.load(std::memory_order_acquire);
  std::uint64_t from = read_up_to_;
  if (end - from > kNoted) {
    lost_.fetch_add(end - kNoted - from, std::memory_order_relaxed);
    from = end - kNoted;
  }
  if (from == end) return;
  const std::size_t first_new = kept_.size();
  std::unordered_map<const char*, const char*> copied;  // noted pointer -> kept text
  std::uint32_t highest = kept_through_.load(std::memory_order_relaxed);
  std::uint64_t unfinished = end;  // the first entry a launch was still writing
  for (std::uint64_t position = from; position < end; ++position) {
    const Entry& entry = noted_[position & (kNoted - 1)];
    const std::uint64_t stamp = entry.stamp.load(std::memory_order_acquire);
    const std::uint32_t id = entry.correlation_id.load(std::memory_order_relaxed);
    const char* name = entry.name.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    const std::uint64_t again = entry.stamp.load(std::memory_order_relaxed);
    if (stamp == kWriting || again == kWriting) {
      unfinished = std::min(unfinished, position);  // see below
      continue;
    }
    if (stamp > position + 1 || again > position + 1) {
      lost_.fetch_add(1, std::memory_order_relaxed);  // a later launch took its place
      continue;
    }
    if (stamp != position + 1 || again != stamp) {
      // Its launch is still writing it (on another thread, inside its launch): read it at the
      // next unload. Entries after it are read again then.
      unfinished = std::min(unfinished, position);
      continue;
    }
    auto [it, inserted] = copied.try_emplace(name, nullptr);
    if (inserted) {
      it->second = texts_.emplace(name, strnlen(name, kMaxName)).first->c_str();
    }
    kept_.emplace_back(id, it->second);
    highest = std::max(highest, id);
  }
  read_up_to_ = unfinished;
  // Launches of several threads reach the ring a little out of order. Called for every batch
  // of records, this must not cost the whole list each time: correlation ids grow, so the new
  // entries nearly always follow the old ones, and only then is the merge skipped.
  const auto new_begin = kept_.begin() + static_cast<std::ptrdiff_t>(first_new);
  std::sort(new_begin, kept_.end());
  const bool in_order =
      first_new == 0 || new_begin == kept_.end() || std::prev(new_begin)->first <= new_begin->first;
  if (!in_order) std::inplace_merge(kept_.begin(), new_begin, kept_.end());
  // Entries read again after an unfinished one are kept once.
  const auto same_id = [](const auto& a, const auto& b) { return a.first == b.first; };
  const std::size_t unique_from = in_order && first_new > 0 ? first_new - 1 : 0;
  kept_.erase(
      std::unique(kept_.begin() + static_cast<std::ptrdiff_t>(unique_from), kept_.end(), same_id),
      kept_.end());
  if (kept_.size() > kKept + kKept / 4) {
    kept_.erase(kept_.begin(), kept_.begin() + static_cast<std::ptrdiff_t>(kept_.size() - kKept));
  }
  kept_through_.store(highest, std::memory_order_release);
}

std::size_t LaunchNames::restore_names(std::vector<trace::RawKernel>& kernels) const {
  const std::uint32_t through = kept_through();
  if (through == 0) return 0;
  std::size_t renamed = 0;
  std::lock_guard lock{mutex_};
  for (trace::RawKernel& kernel : kernels) {
    if (kernel.correlation_id == 0 || kernel.correlation_id > through) continue;
    const auto it = std::lower_bound(kept_.begin(), kept_.end(), kernel.correlation_id,
                                     [](const std::pair<std::uint32_t, const char*>& kept,
                                        std::uint32_t id) { return kept.first < id; });
    if (it == kept_.end() || it->first != kernel.correlation_id) continue;
    kernel.name = it->second;
    ++renamed;
  }
  return renamed;
}

}  // namespace kerntime::inject
