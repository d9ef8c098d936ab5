// SPDX-License-Identifier: Apache-2.0
#include "cupti/buffer_pool.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "cupti/resident_pages.hpp"

namespace kerntime::cupti {

static_assert(alignof(std::max_align_t) >= 8, "CUPTI needs 8-byte aligned activity buffers");

BufferPool::BufferPool(std::size_t buffer_bytes, std::size_t preallocated, std::size_t max_buffers)
    : buffer_bytes_(buffer_bytes), max_buffers_(max_buffers) {
  for (std::size_t i = 0; i < preallocated && i < max_buffers; ++i) {
    auto* buffer = static_cast<std::uint8_t*>(std::calloc(1, buffer_bytes_));
    if (buffer == nullptr) break;
    make_resident(buffer, buffer_bytes_);
    free_.push_back(buffer);
    ++allocated_;
  }
  peak_allocated_ = allocated_;
}

BufferPool::~BufferPool() {
  for (std::uint8_t* buffer : free_)
    std::free(buffer);
  for (const ReadyBuffer& buffer : ready_)
    std::free(buffer.data);
}

std::uint8_t* BufferPool::acquire(bool over_cap) noexcept {
  {
    std::lock_guard lock{mutex_};
    if (!free_.empty()) {
      std::uint8_t* buffer = free_.back();
      free_.pop_back();
      lent_.insert(buffer);
      return buffer;
    }
    if (allocated_ >= max_buffers_ && !over_cap) {
      ++refused_;
      return nullptr;
    }
    ++allocated_;
    peak_allocated_ = std::max(peak_allocated_, allocated_);
  }
  // Allocate outside the lock: CUPTI's worker may be waiting to complete another buffer. Its
  // pages map as CUPTI fills them: made resident here, all at once, they would stall this CUDA
  // call for milliseconds.
  auto* buffer = static_cast<std::uint8_t*>(std::calloc(1, buffer_bytes_));
  std::lock_guard lock{mutex_};
  if (buffer == nullptr) {
    --allocated_;
    ++refused_;
    return nullptr;
  }
  lent_.insert(buffer);
  return buffer;
}

bool BufferPool::complete(std::uint8_t* buffer, std::size_t valid_bytes) noexcept {
  {
    std::lock_guard lock{mutex_};
    if (lent_.erase(buffer) == 0) return false;
    ready_.push_back(ReadyBuffer{buffer, valid_bytes});
  }
  changed_.notify_all();
  return true;
}

bool BufferPool::take(ReadyBuffer& out) {
  std::lock_guard lock{mutex_};
  if (ready_.empty()) return false;
  out = ready_.front();
  ready_.pop_front();
  ++reading_;
  return true;
}

void BufferPool::finish(const ReadyBuffer& ready) noexcept {
  std::uint8_t* const buffer = ready.data;
  // Only this thread holds the buffer until it is back on the free list.
  std::memset(buffer, 0, std::min(buffer_bytes_, ready.valid_bytes + kZeroSlackBytes));
  {
    std::lock_guard lock{mutex_};
    --reading_;
    if (allocated_ > max_buffers_) {
      --allocated_;
      std::free(buffer);
    } else {
      free_.push_back(buffer);
    }
  }
  changed_.notify_all();
}

bool BufferPool::wait_settled() {
  std::unique_lock lock{mutex_};
  changed_.wait(lock, [&] { return !ready_.empty() || reading_ == 0; });
  return ready_.empty() && reading_ == 0;
}

std::size_t BufferPool::refused() const {
  std::lock_guard lock{mutex_};
  return refused_;
}

std::size_t BufferPool::peak_allocated() const {
  std::lock_guard lock{mutex_};
  return peak_allocated_;
}

std::size_t BufferPool::allocated() const {
  std::lock_guard lock{mutex_};
  return allocated_;
}

std::size_t BufferPool::lent() const {
  std::lock_guard lock{mutex_};
  return lent_.size();
}

}  // namespace kerntime::cupti
