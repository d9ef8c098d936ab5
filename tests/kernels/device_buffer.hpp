// SPDX-License-Identifier: Apache-2.0
// Test helpers for the sample kernels: device buffers whose unused bytes are poisoned, so a test
// sees both elements a kernel failed to write and writes outside the range it was given.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

namespace kerntime::testing {

/// Throws std::runtime_error naming `what` when a CUDA call failed; GoogleTest reports it as a
/// failure of the running test.
inline void cuda_ok(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    throw std::runtime_error(std::string{what} + " failed: " + cudaGetErrorName(error) + " (" +
                             cudaGetErrorString(error) + ")");
  }
}

/// Every float made of these bytes is a NaN, so an unwritten element never compares equal or
/// falls within a tolerance.
inline constexpr unsigned char kPoisonByte = 0xff;

/// `size()` elements of T with kGuard poisoned elements before and after them. All operations
/// finish before they return (they end with cudaDeviceSynchronize), so they order correctly
/// with kernels on any stream once that stream has been synchronized.
template <class T>
class DeviceBuffer {
 public:
  /// 64 elements: keeps get() 256-byte aligned for floats, like plain cudaMalloc memory.
  static constexpr std::size_t kGuard = 64;

  explicit DeviceBuffer(std::size_t count) : count_(count) {
    cuda_ok(cudaMalloc(reinterpret_cast<void**>(&base_), total_bytes()), "cudaMalloc");
    poison();
  }
  ~DeviceBuffer() { cudaFree(base_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() { return base_ + kGuard; }
  const T* get() const { return base_ + kGuard; }
  std::size_t size() const { return count_; }

  /// Fills the elements and the guards with kPoisonByte.
  void poison() {
    cuda_ok(cudaMemset(base_, kPoisonByte, total_bytes()), "cudaMemset");
    cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize after cudaMemset");
  }

  void upload(const std::vector<T>& values) {
    if (values.size() != count_) throw std::invalid_argument("upload: size mismatch");
    cuda_ok(cudaMemcpy(get(), values.data(), count_ * sizeof(T), cudaMemcpyHostToDevice),
            "cudaMemcpy to the device");
    cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize after cudaMemcpy");
  }

  std::vector<T> download() const {
    std::vector<T> values(count_);
    cuda_ok(cudaMemcpy(values.data(), get(), count_ * sizeof(T), cudaMemcpyDeviceToHost),
            "cudaMemcpy to the host");
    return values;
  }

  /// Success when no byte of either guard changed.
  ::testing::AssertionResult guards_intact() const {
    std::vector<unsigned char> bytes(total_bytes());
    cuda_ok(cudaMemcpy(bytes.data(), base_, bytes.size(), cudaMemcpyDeviceToHost),
            "cudaMemcpy of the guards to the host");
    const std::size_t guard_bytes = kGuard * sizeof(T);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      const bool in_guard = i < guard_bytes || i >= guard_bytes + count_ * sizeof(T);
      if (in_guard && bytes[i] != kPoisonByte) {
        return ::testing::AssertionFailure()
               << "a kernel wrote outside its output: guard byte at offset "
               << static_cast<long long>(i) - static_cast<long long>(guard_bytes)
               << " from the start of the " << count_ * sizeof(T) << "-byte output changed";
      }
    }
    return ::testing::AssertionSuccess();
  }

 private:
  std::size_t total_bytes() const { return (count_ + 2 * kGuard) * sizeof(T); }

  T* base_ = nullptr;
  std::size_t count_;
};

/// Success when |actual[i] - expected[i]| <= tolerance(i) for every i; otherwise says how many
/// elements failed and shows the first. A NaN (an element never written) always fails.
template <class Actual, class Expected, class Tolerance>
::testing::AssertionResult all_within(const std::vector<Actual>& actual,
                                      const std::vector<Expected>& expected, Tolerance tolerance) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << "sizes differ: " << actual.size() << " vs " << expected.size();
  }
  std::size_t wrong = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double error =
        std::fabs(static_cast<double>(actual[i]) - static_cast<double>(expected[i]));
    if (!(error <= tolerance(i))) {
      if (wrong == 0) first = i;
      ++wrong;
    }
  }
  if (wrong == 0) return ::testing::AssertionSuccess();
  const double got = static_cast<double>(actual[first]);
  return ::testing::AssertionFailure()
         << wrong << " of " << actual.size() << " elements wrong; first at index " << first
         << ": got " << got << (std::isnan(got) ? " (the poison: never written?)" : "")
         << ", expected " << static_cast<double>(expected[first]) << " +- " << tolerance(first);
}

/// all_within() with no tolerance: every element equal.
template <class Actual, class Expected>
::testing::AssertionResult all_equal(const std::vector<Actual>& actual,
                                     const std::vector<Expected>& expected) {
  return all_within(actual, expected, [](std::size_t) { return 0.0; });
}

}  // namespace kerntime::testing
