// SPDX-License-Identifier: Apache-2.0
// The one window onto CUPTI kernel records. Kernel records change version every CUDA release or
// two (Kernel9 in 12.0, Kernel10 in 13.0, Kernel11 in 13.1, Kernel12 in 13.3), but every field
// kerntime reads has kept its offset since Kernel4/Kernel5; the static_asserts below turn a
// move into a build error instead of silently wrong numbers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cupti/cupti_versions.hpp"

namespace kerntime::cupti {

#define KERNTIME_STABLE_KERNEL_FIELD(base, field)                         \
  static_assert(offsetof(KernelRecord, field) == offsetof(base, field) && \
                    sizeof(KernelRecord::field) == sizeof(base::field),   \
                "CUPTI moved kernel record field " #field)

KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, kind);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, registersPerThread);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, start);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, end);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, deviceId);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, contextId);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, streamId);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, gridX);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, gridY);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, gridZ);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, blockX);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, blockY);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, blockZ);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, staticSharedMemory);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, dynamicSharedMemory);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, correlationId);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel4, name);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel5, graphNodeId);
KERNTIME_STABLE_KERNEL_FIELD(CUpti_ActivityKernel5, graphId);
#undef KERNTIME_STABLE_KERNEL_FIELD

// The offsets of the 64-bit CUPTI headers kerntime is built against; a different ABI (32-bit,
// another packing) would fail here.
static_assert(offsetof(KernelRecord, start) == 16 && offsetof(KernelRecord, correlationId) == 92 &&
                  offsetof(KernelRecord, name) == 104 && offsetof(KernelRecord, graphId) == 156,
              "unexpected CUPTI kernel record layout");

/// Read-only view of one kernel record inside a CUPTI buffer. Reads only the stable prefix, so
/// it is right for whatever kernel record version the loaded CUPTI writes.
class KernelView {
 public:
  explicit KernelView(const CUpti_Activity* record)
      : r_(reinterpret_cast<const KernelRecord*>(record)) {}

  std::uint64_t start_ns() const { return r_->start; }
  std::uint64_t end_ns() const { return r_->end; }
  std::uint32_t device() const { return r_->deviceId; }
  std::uint32_t context() const { return r_->contextId; }
  std::uint32_t stream() const { return r_->streamId; }
  std::uint32_t grid_x() const { return dimension(r_->gridX); }
  std::uint32_t grid_y() const { return dimension(r_->gridY); }
  std::uint32_t grid_z() const { return dimension(r_->gridZ); }
  std::uint32_t block_x() const { return dimension(r_->blockX); }
  std::uint32_t block_y() const { return dimension(r_->blockY); }
  std::uint32_t block_z() const { return dimension(r_->blockZ); }
  std::uint32_t registers_per_thread() const { return r_->registersPerThread; }
  std::uint32_t static_shared_bytes() const { return dimension(r_->staticSharedMemory); }
  std::uint32_t dynamic_shared_bytes() const { return dimension(r_->dynamicSharedMemory); }
  std::uint32_t correlation_id() const { return r_->correlationId; }
  const char* mangled_name() const { return r_->name; }
  std::uint32_t graph_id() const { return r_->graphId; }
  std::uint64_t graph_node_id() const { return r_->graphNodeId; }

 private:
  static std::uint32_t dimension(std::int32_t value) {
    return value < 0 ? 0u : static_cast<std::uint32_t>(value);
  }
  const KernelRecord* r_;
};

}  // namespace kerntime::cupti
