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
  ++version_;
}

void CaptureWindows::open(std::uint64_t now_ns) {
  std::lock_guard lock{mutex_};
  if (depth_++ == 0) {
    windows_.push_back({now_ns, UINT64_MAX});
    ++version_;
  }
}

void CaptureWindows::close(std::uint64_t now_ns) {
  std::lock_guard lock{mutex_};
  if (depth_ == 0) return;  // a stop without a start: nothing was open
  if (--depth_ == 0) {
    windows_.back().end = now_ns;
    ++version_;
  }
}

namespace {

bool inside(const std::vector<CaptureWindows::Window>& windows, std::uint64_t begin,
            std::uint64_t end, std::uint64_t time_ns) {
  if (time_ns < begin || time_ns >= end) return false;
  // Newest first: a kernel usually belongs to the window open now.
  for (auto it = windows.rbegin(); it != windows.rend(); ++it) {
    if (time_ns >= it->begin && time_ns < it->end) return true;
  }
  return false;
}

}  // namespace

bool CaptureWindows::contains(std::uint64_t time_ns) const {
  std::lock_guard lock{mutex_};
  return inside(windows_, bound_begin_, bound_end_, time_ns);
}

bool CaptureWindows::Snapshot::contains(std::uint64_t time_ns) const {
  return inside(windows_, bound_begin_, bound_end_, time_ns);
}

void CaptureWindows::refresh(Snapshot& snapshot) const {
  std::lock_guard lock{mutex_};
  if (snapshot.version_ == version_) return;
  snapshot.windows_ = windows_;
  snapshot.bound_begin_ = bound_begin_;
  snapshot.bound_end_ = bound_end_;
  snapshot.version_ = version_;
}

std::size_t CaptureWindows::opened() const {
  std::lock_guard lock{mutex_};
  return windows_.size();
}

}  // namespace kerntime::inject
