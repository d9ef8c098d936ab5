// SPDX-License-Identifier: Apache-2.0
#include "cupti/resident_pages.hpp"

#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

namespace kerntime::cupti {
namespace {

// Linux 5.14; older headers lack the name, older kernels refuse it (EINVAL).
#ifndef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = 23;
#else
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#endif

}  // namespace

void make_resident(void* data, std::size_t bytes) noexcept {
  if (data == nullptr || bytes == 0) return;
  const long page_size = ::sysconf(_SC_PAGESIZE);
  const std::uintptr_t page = page_size > 0 ? static_cast<std::uintptr_t>(page_size) : 4096;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t end = begin + bytes;
  // The whole pages that hold the range: each holds bytes of it, so each is mapped writable,
  // and populating a page changes none of its bytes.
  const std::uintptr_t first = begin & ~(page - 1);
  const std::uintptr_t last = (end + page - 1) & ~(page - 1);
  if (::madvise(reinterpret_cast<void*>(first), last - first, kPopulateWrite) == 0) return;
  // Refused: writing a zero into each page maps it (the memory is zero, so nothing changes);
  // volatile, so that the compiler keeps stores it can see change nothing.
  auto* const zeroed = static_cast<volatile unsigned char*>(data);
  for (std::uintptr_t at = begin; at < end; at = (at & ~(page - 1)) + page)
    zeroed[at - begin] = 0;
}

}  // namespace kerntime::cupti
