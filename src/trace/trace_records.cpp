// SPDX-License-Identifier: Apache-2.0
#include <algorithm>

#include <kerntime/trace.hpp>

namespace kerntime {
namespace {

double bytes_per_ns(std::uint64_t bytes, std::uint64_t duration_ns) {
  return duration_ns == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(duration_ns);
}

}  // namespace

std::optional<std::uint64_t> KernelActivity::enqueue_ns() const {
  if (!launch) return std::nullopt;
  return launch->enqueue_ns();
}

std::optional<std::uint64_t> KernelActivity::queue_delay_ns() const {
  if (!launch || start_ns < launch->start_ns) return std::nullopt;
  return start_ns - launch->start_ns;
}

double MemcpyActivity::bandwidth_gb_per_s() const {
  return bytes_per_ns(bytes, duration_ns());
}

double MemsetActivity::bandwidth_gb_per_s() const {
  return bytes_per_ns(bytes, duration_ns());
}

const TraceScope* Trace::find_scope(std::uint64_t id) const {
  auto it =
      std::lower_bound(scopes.begin(), scopes.end(), id,
                       [](const TraceScope& scope, std::uint64_t key) { return scope.id < key; });
  return it != scopes.end() && it->id == id ? &*it : nullptr;
}

std::string_view to_string(MemcpyKind kind) {
  switch (kind) {
    case MemcpyKind::host_to_device:
      return "HtoD";
    case MemcpyKind::device_to_host:
      return "DtoH";
    case MemcpyKind::host_to_array:
      return "HtoA";
    case MemcpyKind::array_to_host:
      return "AtoH";
    case MemcpyKind::array_to_array:
      return "AtoA";
    case MemcpyKind::array_to_device:
      return "AtoD";
    case MemcpyKind::device_to_array:
      return "DtoA";
    case MemcpyKind::device_to_device:
      return "DtoD";
    case MemcpyKind::host_to_host:
      return "HtoH";
    case MemcpyKind::peer_to_peer:
      return "PtoP";
    case MemcpyKind::unknown:
      break;
  }
  return "unknown";
}

std::string_view to_string(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::pageable:
      return "pageable";
    case MemoryKind::pinned:
      return "pinned";
    case MemoryKind::device:
      return "device";
    case MemoryKind::array:
      return "array";
    case MemoryKind::managed:
      return "managed";
    case MemoryKind::device_static:
      return "device static";
    case MemoryKind::managed_static:
      return "managed static";
    case MemoryKind::unknown:
      break;
  }
  return "unknown";
}

std::string_view to_string(SynchronizationKind kind) {
  switch (kind) {
    case SynchronizationKind::event_synchronize:
      return "event synchronize";
    case SynchronizationKind::stream_wait_event:
      return "stream wait event";
    case SynchronizationKind::stream_synchronize:
      return "stream synchronize";
    case SynchronizationKind::context_synchronize:
      return "context synchronize";
    case SynchronizationKind::unknown:
      break;
  }
  return "unknown";
}

}  // namespace kerntime
