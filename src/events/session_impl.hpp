// SPDX-License-Identifier: Apache-2.0
// Session's state, shared by session.cpp and scoped_timer.cpp.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nvtx3/nvToolsExt.h>

#include <kerntime/session.hpp>

#include "events/event_pool.hpp"

namespace kerntime {

namespace events {

struct RegionData {
  std::string name;
  std::vector<double> samples;  // nanoseconds, in the order they were read
  nvtxStringHandle_t nvtx_name = nullptr;
  int device = -1;  // the device of every sample, or -2 once samples come from several
};

}  // namespace events

struct Session::Impl {
  explicit Impl(SessionOptions options);

  // Everything below is guarded by `mutex`. The lock is held only for bookkeeping: CUDA calls
  // on the timing path (event records) are made outside it.
  std::uint32_t region_id(std::string_view name);
  events::EventPool& pool(int device);
  /// A free slot of `pool`, reading finished timers (and if need be waiting for the oldest) when
  /// every slot is taken.
  std::uint32_t acquire(events::EventPool& pool);
  /// Reads the oldest closed timer of `pool` into its region, waiting for it when `wait`.
  /// Returns false when it has not finished and `wait` is false.
  bool read_oldest(events::EventPool& pool, bool wait);
  void read_all();
  void defer_error(std::string message);
  /// The message for `error` from `call`: for a kernel fault, where the fault happened, told by
  /// the completion flags of the closed scopes (events cannot be read after a fault).
  std::string describe_error(cudaError_t error, const std::string& call) const;

  const SessionOptions options;
  /// Unique among the Sessions of the process (never reused, unlike an address), so that a
  /// Region can name the Session it belongs to.
  const std::uint64_t serial;
  nvtxDomainHandle_t nvtx_domain = nullptr;
  mutable std::mutex mutex;
  std::deque<events::RegionData> regions;  // deque: elements never move once created
  std::unordered_map<std::string_view, std::uint32_t> region_index;  // keys view region names
  std::vector<std::unique_ptr<events::EventPool>> pools;  // by device; sized once, filled lazily
  std::string deferred_error;
  std::size_t lost_samples = 0;
};

}  // namespace kerntime
