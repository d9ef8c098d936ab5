// SPDX-License-Identifier: Apache-2.0
#include "cupti/record_decoder.hpp"

#include <cstddef>

#include "cupti/cupti_versions.hpp"
#include "cupti/kernel_record.hpp"

namespace kerntime::cupti {
namespace {

// Fields read from the other record kinds, pinned like the kernel record's.
#define KERNTIME_STABLE_FIELD(record, base, field)                  \
  static_assert(offsetof(record, field) == offsetof(base, field) && \
                    sizeof(record::field) == sizeof(base::field),   \
                "CUPTI moved " #record " field " #field)
KERNTIME_STABLE_FIELD(MemcpyRecord, CUpti_ActivityMemcpy4, bytes);
KERNTIME_STABLE_FIELD(MemcpyRecord, CUpti_ActivityMemcpy4, start);
KERNTIME_STABLE_FIELD(MemcpyRecord, CUpti_ActivityMemcpy4, end);
KERNTIME_STABLE_FIELD(MemcpyRecord, CUpti_ActivityMemcpy4, deviceId);
KERNTIME_STABLE_FIELD(MemcpyRecord, CUpti_ActivityMemcpy4, streamId);
KERNTIME_STABLE_FIELD(MemcpyRecord, CUpti_ActivityMemcpy4, correlationId);
KERNTIME_STABLE_FIELD(MemcpyRecord, CUpti_ActivityMemcpy4, graphNodeId);
KERNTIME_STABLE_FIELD(MemcpyRecord, CUpti_ActivityMemcpy4, graphId);
KERNTIME_STABLE_FIELD(PeerMemcpyRecord, CUpti_ActivityMemcpyPtoP3, bytes);
KERNTIME_STABLE_FIELD(PeerMemcpyRecord, CUpti_ActivityMemcpyPtoP3, end);
KERNTIME_STABLE_FIELD(PeerMemcpyRecord, CUpti_ActivityMemcpyPtoP3, srcDeviceId);
KERNTIME_STABLE_FIELD(PeerMemcpyRecord, CUpti_ActivityMemcpyPtoP3, dstDeviceId);
KERNTIME_STABLE_FIELD(PeerMemcpyRecord, CUpti_ActivityMemcpyPtoP3, correlationId);
KERNTIME_STABLE_FIELD(PeerMemcpyRecord, CUpti_ActivityMemcpyPtoP3, graphId);
KERNTIME_STABLE_FIELD(MemsetRecord, CUpti_ActivityMemset3, value);
KERNTIME_STABLE_FIELD(MemsetRecord, CUpti_ActivityMemset3, end);
KERNTIME_STABLE_FIELD(MemsetRecord, CUpti_ActivityMemset3, correlationId);
KERNTIME_STABLE_FIELD(MemsetRecord, CUpti_ActivityMemset3, memoryKind);
KERNTIME_STABLE_FIELD(MemsetRecord, CUpti_ActivityMemset3, graphId);
KERNTIME_STABLE_FIELD(SynchronizationRecord, CUpti_ActivitySynchronization, end);
KERNTIME_STABLE_FIELD(SynchronizationRecord, CUpti_ActivitySynchronization, correlationId);
KERNTIME_STABLE_FIELD(SynchronizationRecord, CUpti_ActivitySynchronization, cudaEventId);
#undef KERNTIME_STABLE_FIELD

// The public enums copy CUPTI's numbering, so converting is a range check and a cast.
static_assert(static_cast<int>(MemcpyKind::peer_to_peer) == CUPTI_ACTIVITY_MEMCPY_KIND_PTOP &&
              static_cast<int>(MemcpyKind::device_to_device) == CUPTI_ACTIVITY_MEMCPY_KIND_DTOD &&
              static_cast<int>(MemcpyKind::host_to_device) == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
static_assert(static_cast<int>(MemoryKind::managed_static) ==
                  CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC &&
              static_cast<int>(MemoryKind::pinned) == CUPTI_ACTIVITY_MEMORY_KIND_PINNED);
static_assert(static_cast<int>(SynchronizationKind::context_synchronize) ==
                  CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE &&
              static_cast<int>(SynchronizationKind::stream_wait_event) ==
                  CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT);

MemcpyKind memcpy_kind(std::uint8_t kind) {
  return kind <= CUPTI_ACTIVITY_MEMCPY_KIND_PTOP ? static_cast<MemcpyKind>(kind)
                                                 : MemcpyKind::unknown;
}

MemoryKind memory_kind(std::uint32_t kind) {
  return kind <= CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC ? static_cast<MemoryKind>(kind)
                                                           : MemoryKind::unknown;
}

// Which side of a copy is on the device, from the copy's direction ('D', 'A' or 'P' = device).
void copy_devices(MemcpyKind kind, std::uint32_t device, trace::RawMemcpy& out) {
  const int on_device = static_cast<int>(device);
  switch (kind) {
    case MemcpyKind::host_to_device:
    case MemcpyKind::host_to_array:
      out.destination_device = on_device;
      break;
    case MemcpyKind::device_to_host:
    case MemcpyKind::array_to_host:
      out.source_device = on_device;
      break;
    case MemcpyKind::device_to_device:
    case MemcpyKind::array_to_array:
    case MemcpyKind::array_to_device:
    case MemcpyKind::device_to_array:
    case MemcpyKind::peer_to_peer:
      out.source_device = on_device;
      out.destination_device = on_device;
      break;
    case MemcpyKind::host_to_host:
    case MemcpyKind::unknown:
      break;
  }
}

void read_kernel(const CUpti_Activity* record, trace::RecordBatch& batch) {
  const KernelView view{record};
  trace::RawKernel& out = batch.kernels.emplace_back();
  out.name = view.mangled_name();
  // In the field order of GpuSpan, then of KernelConfig (records.hpp).
  static_cast<GpuSpan&>(out) =
      GpuSpan{view.device(), view.context(),        view.stream(),   view.start_ns(),
              view.end_ns(), view.correlation_id(), view.graph_id(), view.graph_node_id()};
  static_cast<KernelConfig&>(out) = KernelConfig{
      Dim3{view.grid_x(), view.grid_y(), view.grid_z()},
      Dim3{view.block_x(), view.block_y(), view.block_z()}, view.registers_per_thread(),
      view.static_shared_bytes(), view.dynamic_shared_bytes()};
}

// The fields every copy and memset record version names alike.
template <class Record>
GpuSpan span_of(const Record& r) {
  // In GpuSpan's field order: device, context, stream, start, end, correlation, graph, node.
  return GpuSpan{r.deviceId, r.contextId,     r.streamId, r.start,
                 r.end,      r.correlationId, r.graphId,  r.graphNodeId};
}

template <class Record>
void read_copy(const Record& r, trace::RawMemcpy& out) {
  static_cast<GpuSpan&>(out) = span_of(r);
  out.kind = memcpy_kind(r.copyKind);
  out.source_kind = memory_kind(r.srcKind);
  out.destination_kind = memory_kind(r.dstKind);
  out.bytes = r.bytes;
}

// The kinds Decode::counts only counts; false for the others.
bool counted(const CUpti_Activity* record, trace::RecordBatch& batch) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      ++batch.counted_api_calls;
      return true;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      ++batch.counted_memcpys;
      return true;
    case CUPTI_ACTIVITY_KIND_MEMSET:
      ++batch.counted_memsets;
      return true;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      ++batch.counted_synchronizations;
      return true;
    default:
      return false;
  }
}

void read_record(const CUpti_Activity* record, trace::RecordBatch& batch) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL:
      read_kernel(record, batch);
      break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
      const auto& r = *reinterpret_cast<const CUpti_ActivityAPI*>(record);
      batch.api_calls.push_back(trace::RawApi{
          record->kind == CUPTI_ACTIVITY_KIND_DRIVER ? ApiKind::driver : ApiKind::runtime,
          static_cast<std::uint32_t>(r.cbid), r.start, r.end, r.processId, r.threadId,
          r.correlationId, r.returnValue});
      break;
    }
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
      const auto& r = *reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
      if (r.externalKind == kScopeCorrelationKind) {
        batch.scope_tags.push_back(trace::RawScopeTag{r.correlationId, r.externalId});
      } else {
        ++batch.foreign_tags;
      }
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto& r = *reinterpret_cast<const MemcpyRecord*>(record);
      trace::RawMemcpy& out = batch.memcpys.emplace_back();
      read_copy(r, out);
      copy_devices(out.kind, r.deviceId, out);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
      const auto& r = *reinterpret_cast<const PeerMemcpyRecord*>(record);
      trace::RawMemcpy& out = batch.memcpys.emplace_back();
      read_copy(r, out);
      out.source_device = static_cast<int>(r.srcDeviceId);
      out.destination_device = static_cast<int>(r.dstDeviceId);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto& r = *reinterpret_cast<const MemsetRecord*>(record);
      trace::RawMemset& out = batch.memsets.emplace_back();
      static_cast<GpuSpan&>(out) = span_of(r);
      out.value = r.value;
      out.bytes = r.bytes;
      out.memory_kind = memory_kind(r.memoryKind);
      break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
      const auto& r = *reinterpret_cast<const SynchronizationRecord*>(record);
      const auto type = static_cast<std::uint32_t>(r.type);
      batch.synchronizations.push_back(trace::RawSynchronization{
          type <= CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE
              ? static_cast<SynchronizationKind>(type)
              : SynchronizationKind::unknown,
          r.start, r.end, r.contextId, r.streamId, r.cudaEventId, r.correlationId});
      break;
    }
    default:
      ++batch.unknown_records;
      break;
  }
}

}  // namespace

bool decode_buffer(CuptiApi& api, std::uint8_t* buffer, std::size_t valid_bytes,
                   trace::RecordBatch& batch, Decode decode) {
  const bool counts = decode == Decode::counts;
  if (buffer == nullptr || valid_bytes == 0) return true;
  CUpti_Activity* record = nullptr;
  for (;;) {
    const CUptiResult status = api.next_record(buffer, valid_bytes, &record);
    if (status == CUPTI_ERROR_MAX_LIMIT_REACHED) return true;
    if (status != CUPTI_SUCCESS) {
      ++batch.truncated_buffers;
      return false;
    }
    if (!counts || !counted(record, batch)) read_record(record, batch);
  }
}

}  // namespace kerntime::cupti
