// SPDX-License-Identifier: Apache-2.0
// Memory made resident takes no page fault when it is written later (resident_pages.hpp): the
// page faults CUPTI's record writes cost the program's threads before.
#include "cupti/resident_pages.hpp"

#include <cstddef>
#include <cstdint>
#include <sys/mman.h>
#include <sys/resource.h>

#include <gtest/gtest.h>

namespace {

constexpr std::size_t kBytes = std::size_t{8} << 20;
constexpr std::size_t kPage = 4096;

// Fresh zero pages straight from the system, none mapped yet (calloc may hand out heap memory
// it has touched already, once glibc's mmap threshold has risen).
class FreshPages {
 public:
  FreshPages()
      : data_(static_cast<unsigned char*>(
            ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))) {}
  ~FreshPages() {
    if (data_ != MAP_FAILED) ::munmap(data_, kBytes);
  }
  FreshPages(const FreshPages&) = delete;
  FreshPages& operator=(const FreshPages&) = delete;
  bool ok() const { return data_ != MAP_FAILED; }
  unsigned char* data() const { return data_; }

 private:
  unsigned char* data_;
};

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

// Writes one byte into each page, as CUPTI's records fill a buffer; returns the faults taken.
long faults_writing(unsigned char* data, std::size_t bytes) {
  const long before = minor_faults();
  for (std::size_t at = 0; at < bytes; at += kPage)
    reinterpret_cast<volatile unsigned char*>(data)[at] = 1;
  return minor_faults() - before;
}

TEST(ResidentPages, FreshPagesFaultOnFirstWrite) {
  // The control: without make_resident, writing fresh memory faults page by page.
  const FreshPages pages;
  ASSERT_TRUE(pages.ok());
  EXPECT_GT(faults_writing(pages.data(), kBytes), static_cast<long>(kBytes / kPage / 2));
}

TEST(ResidentPages, ResidentPagesTakeNoFaultAndStayZero) {
  const FreshPages pages;
  ASSERT_TRUE(pages.ok());
  unsigned char* const data = pages.data();
  kerntime::cupti::make_resident(data, kBytes);
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < kBytes; ++i)
    nonzero += data[i] != 0 ? 1 : 0;
  EXPECT_EQ(nonzero, 0u);
  // A handful at most: the pages of the faulting loop's own stack, never one per page.
  EXPECT_LT(faults_writing(data, kBytes), 16);
}

TEST(ResidentPages, UnalignedEndsAreMappedToo) {
  // A range that starts and ends inside pages: the partial pages at both ends are mapped too.
  const FreshPages pages;
  ASSERT_TRUE(pages.ok());
  unsigned char* const data = pages.data();
  const std::size_t offset = 100;
  const std::size_t bytes = kBytes - 2 * kPage + 7;
  kerntime::cupti::make_resident(data + offset, bytes);
  const long before = minor_faults();
  reinterpret_cast<volatile unsigned char*>(data)[offset] = 1;
  reinterpret_cast<volatile unsigned char*>(data)[offset + bytes - 1] = 1;
  EXPECT_EQ(minor_faults() - before, 0);
  // The control: the page past the range was left to map on its first write.
  EXPECT_GT(faults_writing(data + kBytes - kPage, kPage), 0);
}

TEST(ResidentPages, NothingToDoIsFine) {
  kerntime::cupti::make_resident(nullptr, kBytes);
  unsigned char byte = 0;
  kerntime::cupti::make_resident(&byte, 0);
  kerntime::cupti::make_resident(&byte, 1);
  EXPECT_EQ(byte, 0);
}

}  // namespace
