// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace kerntime::inject {

/// The stretches of time (CUPTI's clock, ns) whose kernels `kerntime run` records: opened and
/// closed by cudaProfilerStart/Stop or by an NVTX range of one name, as the program runs, and
/// bounded by --delay and --duration. A kernel counts when it starts on the GPU inside one.
///
/// Opening and closing happen on the program's threads before the work they frame is launched,
/// so a window is known before any record of that work arrives. Nested or overlapping openings
/// (the same NVTX range on two threads) keep the window open until the last one closes.
/// Thread-safe.
class CaptureWindows {
 public:
  /// `open_at_start`: recording starts at once (no capture range given).
  explicit CaptureWindows(bool open_at_start);

  /// Records only from `begin` on, and before `end` when given (--delay, --duration).
  void bound(std::uint64_t begin, std::optional<std::uint64_t> end);
  void open(std::uint64_t now_ns);
  void close(std::uint64_t now_ns);

  bool contains(std::uint64_t time_ns) const;
  /// How many windows opened so far (the whole run counts as one).
  std::size_t opened() const;

  struct Window {
    std::uint64_t begin = 0;
    std::uint64_t end = UINT64_MAX;  // open
  };
  /// The windows as they were at some point, asked without a lock: a batch of records is
  /// tested against one (kernels in it ran before it came, so before any window opened since).
  class Snapshot {
   public:
    bool contains(std::uint64_t time_ns) const;

   private:
    friend class CaptureWindows;
    std::vector<Window> windows_;
    std::uint64_t bound_begin_ = 0;
    std::uint64_t bound_end_ = UINT64_MAX;
    std::uint64_t version_ = 0;  // 0: never taken
  };
  /// Brings `snapshot` up to date; copies only when a window opened or closed since.
  void refresh(Snapshot& snapshot) const;

 private:
  mutable std::mutex mutex_;
  std::vector<Window> windows_;
  int depth_ = 0;
  std::uint64_t bound_begin_ = 0;
  std::uint64_t bound_end_ = UINT64_MAX;
  std::uint64_t version_ = 1;  // bumped by every change
};

}  // namespace kerntime::inject
