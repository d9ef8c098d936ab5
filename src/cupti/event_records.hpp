// SPDX-License-Identifier: Apache-2.0
// The latest record of each CUDA event, so that an event synchronization or query that succeeds
// says what had finished, as a stream synchronization does: every launch on the event's stream
// before its record. Frameworks that wait on events and never on a stream (XLA, TensorFlow,
// PyTorch's cross-stream copies) would otherwise leave every kernel they ever launched looking
// as if it were still running when a GPU fault surfaces.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace kerntime::cupti {

/// A fixed table written inside CUDA calls on any thread, without a lock or an allocation.
/// What it cannot keep (a slot another thread is writing, every slot of an event's probe
/// taken) is lost, and a lost record only means fewer launches known to have finished.
class EventRecords {
 public:
  static constexpr std::size_t kSlots = 1024;
  static constexpr std::size_t kProbe = 8;

  struct Record {
    const void* stream = nullptr;      ///< the stream the event was recorded on
    std::uint32_t context_id = 0;      ///< CUPTI's id of the context
    std::uint32_t correlation_id = 0;  ///< the record call's: launches before it have lower ones
    bool per_thread = false;           ///< a _ptsz entry point: a null stream is the thread's
  };

  /// `event` was recorded as `record` says (it replaces the event's earlier record).
  void recorded(const void* event, const Record& record) noexcept;
  /// The event's latest record kept, or nullopt (never recorded, lost, or being rewritten).
  std::optional<Record> find(const void* event) const noexcept;
  /// The event is destroyed: its records go, so that a new event at its address never finds
  /// them (a synchronization of an event never recorded returns at once, and says nothing).
  void forget(const void* event) noexcept;

 private:
  struct Slot {
    std::atomic<std::uint32_t> version{0};  // odd while a writer owns the slot
    std::atomic<const void*> event{nullptr};
    std::atomic<const void*> stream{nullptr};
    std::atomic<std::uint32_t> context_id{0};
    std::atomic<std::uint32_t> correlation_id{0};
    std::atomic<bool> per_thread{false};
  };
  static std::size_t home(const void* event) noexcept;

  Slot slots_[kSlots];
};

}  // namespace kerntime::cupti
