// SPDX-License-Identifier: Apache-2.0
// The activity buffers of the benchmarks' own bare CUPTI clients (bench/tracing/bare_cupti.cpp,
// bench/run's injection libraries). A free list makes a request as cheap as kerntime's pool, so a
// comparison with kerntime is about what happens to the records. Buffers live until the process
// ends: CUPTI may still hold some after it is released.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace kerntime_bench {

class CuptiBufferFreeList {
 public:
  /// The size of TracerOptions::buffer_bytes' default.
  static constexpr std::size_t kBufferBytes = std::size_t{8} << 20;

  /// What CUPTI's buffer-request callback answers: a free buffer, or a new one.
  void take(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    {
      std::lock_guard lock{mutex_};
      if (!free_.empty()) {
        *buffer = free_.back();
        free_.pop_back();
      } else {
        *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
      }
    }
    *size = *buffer != nullptr ? kBufferBytes : 0;
    *max_records = 0;
  }

  /// A buffer CUPTI completed, once its records are read.
  void give_back(std::uint8_t* buffer) {
    std::lock_guard lock{mutex_};
    free_.push_back(buffer);
  }

 private:
  std::mutex mutex_;
  std::vector<std::uint8_t*> free_;
};

}  // namespace kerntime_bench
