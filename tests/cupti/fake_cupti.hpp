// SPDX-License-Identifier: Apache-2.0
// A CuptiApi that behaves like CUPTI from the outside: it asks the registered callbacks for
// buffers, writes real CUPTI record structs into them, hands them back when full or flushed,
// and walks them in next_record(). Tests choose which buffer ("lane") each record lands in and
// the order buffers come back, to reproduce CUPTI's lack of ordering across buffers.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cupti/cupti_api.hpp"
#include "cupti/cupti_versions.hpp"

namespace kerntime::testing {

class FakeCupti final : public cupti::CuptiApi {
 public:
  // Behaviour to simulate.
  CUptiResult subscribe_result = CUPTI_SUCCESS;
  std::string holder;  ///< reported with CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
  std::uint32_t api_version = 130001;
  std::vector<CUpti_ActivityKind> failing_kinds;  ///< enable() fails for these
  std::size_t pending_dropped = 0;                ///< returned (once) by dropped_records
  std::map<std::uint32_t, std::string> runtime_names{{211, "cudaLaunchKernel_v7000"}};
  std::uint64_t clock_ns = 1'000'000;
  CUptiResult watch_result = CUPTI_SUCCESS;
  std::uint64_t launches = 0;  ///< what launches_seen() reports: launches "the callback saw"

  // What happened.
  std::vector<std::string> calls;  ///< "subscribe", "enable 10", "flush 1", ...
  bool subscribed = false;
  bool watching = false;  ///< launch callbacks on
  std::vector<CUpti_ActivityKind> enabled;
  std::size_t refused_buffers = 0;  ///< requests the client answered with no buffer
  std::size_t lent_buffers = 0;     ///< buffers the client lent
  std::size_t reused_buffers = 0;   ///< of them, lent again after they were handed back
  std::size_t dirty_buffers = 0;    ///< of them, holding a byte that is not zero

  std::uint32_t version() override { return api_version; }
  CUptiResult subscribe(const char* name, std::string& held_by) override;
  CUptiResult unsubscribe() override;
  CUptiResult set_attribute(CUpti_ActivityAttribute attribute, std::size_t value) override;
  CUptiResult register_callbacks(CUpti_BuffersCallbackRequestFunc requested,
                                 CUpti_BuffersCallbackCompleteFunc completed) override;
  CUptiResult enable(CUpti_ActivityKind kind) override;
  CUptiResult disable(CUpti_ActivityKind kind) override;
  CUptiResult mute(CUpti_ActivityKind api, CUpti_CallbackId callback_id) override;
  CUptiResult flush_all(std::uint32_t flags) override;
  CUptiResult dropped_records(std::size_t& dropped) override;
  CUptiResult next_record(std::uint8_t* buffer, std::size_t valid_bytes,
                          CUpti_Activity** record) override;
  CUptiResult push_external_id(std::uint64_t id) override;
  CUptiResult pop_external_id(std::uint64_t& last) override;
  CUptiResult timestamp(std::uint64_t& nanoseconds) override;
  CUptiResult watch_launches(bool on) override;
  std::uint64_t launches_seen() override;
  const char* callback_name(CUpti_CallbackDomain domain, std::uint32_t callback_id) override;
  std::string describe(CUptiResult result) override;

  /// Writes `record` into lane `lane`'s buffer, requesting one first if needed and handing the
  /// buffer back when the record does not fit. False when the client refused a buffer (the
  /// record is then dropped, as CUPTI would).
  template <class Record>
  bool emit(const Record& record, int lane = 0) {
    return emit_bytes(&record, sizeof(Record), lane);
  }
  /// Hands lane `lane`'s buffer back now (a buffer boundary).
  void complete(int lane);
  /// Lanes holding a buffer.
  std::size_t open_lanes() const;

  /// CUPTI's behaviour around a launch: the innermost pushed external id of the calling thread,
  /// then the API record, then the kernel record (the kernel in `kernel_lane`).
  void launch(const char* name, std::uint32_t correlation_id, std::uint64_t api_start,
              std::uint64_t kernel_start, std::uint64_t kernel_duration, std::uint32_t stream,
              int api_lane = 0, int kernel_lane = 0);

  /// The external ids pushed on the calling thread, innermost last.
  std::vector<std::uint64_t> pushed_on_this_thread() const;

 private:
  struct Lane {
    std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::size_t used = 0;
  };
  bool emit_bytes(const void* record, std::size_t size, int lane);
  bool request(Lane& lane);
  void hand_back(Lane& lane);

  mutable std::mutex mutex_;
  CUpti_BuffersCallbackRequestFunc requested_ = nullptr;
  CUpti_BuffersCallbackCompleteFunc completed_ = nullptr;
  std::map<int, Lane> lanes_;
  std::set<const std::uint8_t*> seen_buffers_;
  std::map<std::thread::id, std::vector<std::uint64_t>> stacks_;
};

/// A kernel record as CUPTI 13 writes it.
cupti::KernelRecord kernel_record(const char* name, std::uint32_t correlation_id,
                                  std::uint64_t start, std::uint64_t end, std::uint32_t device = 0,
                                  std::uint32_t stream = 7);
/// A runtime API record.
CUpti_ActivityAPI api_record(std::uint32_t correlation_id, std::uint64_t start, std::uint64_t end,
                             std::uint32_t callback_id = 211, std::uint32_t thread = 42);
CUpti_ActivityExternalCorrelation scope_record(std::uint32_t correlation_id,
                                               std::uint64_t scope_id);

}  // namespace kerntime::testing
