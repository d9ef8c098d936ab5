// SPDX-License-Identifier: Apache-2.0
#include "inject/capture_windows.hpp"

namespace kerntime::inject {

CaptureWindows::CaptureWindows(bool open_at_start) {
  if (open_at_start) {
    windows_.push_back({});
    depth_ = 1;
  }
}

void CaptureWindows::bound(std::uint64_t begin, std::optional<std::uint64_t> end) {
  std::lock_guard lock{mutex_};
  bound_begin_ = begin;
  bound_end_ = end.value_or(UINT64_MAX);
}

void CaptureWindows::open(std::uint64_t now_ns) {
  std::lock_guard lock{mutex_};
  if (depth_++ == 0) windows_.push_back({now_ns, UINT64_MAX});
}

void CaptureWindows::close(std::uint64_t now_ns) {
  std::lock_guard lock{mutex_};
  if (depth_ == 0) return;  // a stop without a start: nothing was open
  if (--depth_ == 0) windows_.back().end = now_ns;
}

bool CaptureWindows::contains(std::uint64_t time_ns) const {
  std::lock_guard lock{mutex_};
  if (time_ns < bound_begin_ || time_ns >= bound_end_) return false;
  // Newest first: a kernel usually belongs to the window open now.
  for (auto it = windows_.rbegin(); it != windows_.rend(); ++it) {
    if (time_ns >= it->begin && time_ns < it->end) return true;
  }
  return false;
}

std::size_t CaptureWindows::opened() const {
  std::lock_guard lock{mutex_};
  return windows_.size();
}

}  // namespace kerntime::inject
