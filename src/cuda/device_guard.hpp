// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace kerntime::cuda {

/// Makes `device` current for a scope and restores the previous device afterwards, so that
/// kerntime never leaves the caller's thread on another device than it found.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace kerntime::cuda
