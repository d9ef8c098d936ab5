// SPDX-License-Identifier: Apache-2.0
// The NVTX ranges each launch was made under, noted by CUPTI's launch callback on the launching
// thread and read when the kernel's record arrives. It replaces CUPTI's external correlation ids:
// with an id pushed, CUPTI writes an external correlation record for every API call the thread
// makes inside the range, and PyTorch makes several per operator (cudaGetDevice,
// cudaGetLastError, ...), each a cost to the program (docs/run.md, "The cost target"). Here a
// launch costs one store.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>

#include "cupti/resident_pages.hpp"

namespace kerntime::inject {

class LaunchRanges {
 public:
  /// Correlation ids remembered: CUPTI numbers every API call, so a kernel whose record comes
  /// more than this many calls after its launch may have lost its ranges (forgotten()).
  static constexpr std::size_t kSlots = std::size_t{1} << 20;

  // Zeroed pages from the system (8 MiB), made resident now: launches land all over them, and
  // each page mapped on its first launch would be a page fault on the launching thread.
  LaunchRanges()
      : slots_(static_cast<std::atomic<std::uint64_t>*>(
            std::calloc(kSlots, sizeof(std::atomic<std::uint64_t>)))) {
    if (slots_ == nullptr) throw std::bad_alloc{};
    cupti::make_resident(slots_, kSlots * sizeof(std::atomic<std::uint64_t>));
  }
  ~LaunchRanges() { std::free(slots_); }
  LaunchRanges(const LaunchRanges&) = delete;
  LaunchRanges& operator=(const LaunchRanges&) = delete;

  /// Inside a launch, on the launching thread: no lock, no allocation. `path` is the range
  /// path open on the thread (0: none); paths past 32 bits are never made (RangeRegistry).
  void note(std::uint32_t correlation_id, std::uint64_t path) noexcept {
    if (correlation_id == 0 || path == 0 || path > std::numeric_limits<std::uint32_t>::max()) {
      return;
    }
    slots_[correlation_id & (kSlots - 1)].store((std::uint64_t{correlation_id} << 32) | path,
                                                std::memory_order_release);
  }

  /// The path noted for the launch with `correlation_id`; 0 for a launch outside every range,
  /// or one noted so long ago that its slot was taken (forgotten()).
  std::uint64_t path_of(std::uint32_t correlation_id) const noexcept {
    const std::uint64_t slot =
        slots_[correlation_id & (kSlots - 1)].load(std::memory_order_acquire);
    return (slot >> 32) == correlation_id ? (slot & 0xffff'ffffu) : 0;
  }

  /// Whether a launch with `correlation_id` may have lost its ranges: a later launch inside a
  /// range took its slot. (Only launches inside ranges write, so a launch outside every range
  /// whose slot was taken later is counted too: "may".) Launches store nothing shared beyond
  /// their slot, so the program's threads do not contend for a counter.
  bool forgotten(std::uint32_t correlation_id) const noexcept {
    const auto taken_by = static_cast<std::uint32_t>(
        slots_[correlation_id & (kSlots - 1)].load(std::memory_order_acquire) >> 32);
    // Correlation ids wrap at 2^32: "later" is a forward distance under half of that.
    return taken_by != 0 && taken_by != correlation_id &&
           taken_by - correlation_id < (std::uint32_t{1} << 31);
  }

 private:
  std::atomic<std::uint64_t>* slots_;
};

}  // namespace kerntime::inject
