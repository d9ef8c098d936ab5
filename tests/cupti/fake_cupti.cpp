// SPDX-License-Identifier: Apache-2.0
#include "fake_cupti.hpp"

#include <algorithm>

namespace kerntime::testing {
namespace {

std::size_t record_size(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return sizeof(cupti::KernelRecord);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
      return sizeof(CUpti_ActivityExternalCorrelation);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return sizeof(cupti::MemcpyRecord);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return sizeof(cupti::PeerMemcpyRecord);
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return sizeof(cupti::MemsetRecord);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return sizeof(cupti::SynchronizationRecord);
    case CUPTI_ACTIVITY_KIND_NAME:
      return sizeof(CUpti_ActivityName);
    default:
      return 0;
  }
}

}  // namespace

CUptiResult FakeCupti::subscribe(const char*, std::string& held_by) {
  calls.push_back("subscribe");
  if (subscribe_result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) held_by = holder;
  if (subscribe_result == CUPTI_SUCCESS) subscribed = true;
  return subscribe_result;
}

CUptiResult FakeCupti::unsubscribe() {
  calls.push_back("unsubscribe");
  subscribed = false;
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::set_attribute(CUpti_ActivityAttribute attribute, std::size_t value) {
  calls.push_back("attribute " + std::to_string(static_cast<int>(attribute)) + "=" +
                  std::to_string(value));
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::register_callbacks(CUpti_BuffersCallbackRequestFunc requested,
                                          CUpti_BuffersCallbackCompleteFunc completed) {
  calls.push_back("register");
  requested_ = requested;
  completed_ = completed;
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::enable(CUpti_ActivityKind kind) {
  calls.push_back("enable " + std::to_string(static_cast<int>(kind)));
  if (std::find(failing_kinds.begin(), failing_kinds.end(), kind) != failing_kinds.end()) {
    return CUPTI_ERROR_NOT_COMPATIBLE;
  }
  enabled.push_back(kind);
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::disable(CUpti_ActivityKind kind) {
  calls.push_back("disable " + std::to_string(static_cast<int>(kind)));
  enabled.erase(std::remove(enabled.begin(), enabled.end(), kind), enabled.end());
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::mute(CUpti_ActivityKind api, CUpti_CallbackId callback_id) {
  calls.push_back("mute " + std::to_string(static_cast<int>(api)) + ":" +
                  std::to_string(callback_id));
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::flush_all(std::uint32_t flags) {
  calls.push_back("flush " + std::to_string(flags));
  // Only a forced flush hands back partly filled buffers; later lanes first, to show that
  // delivery order carries no meaning.
  if ((flags & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) == 0) return CUPTI_SUCCESS;
  std::lock_guard lock{mutex_};
  for (auto it = lanes_.rbegin(); it != lanes_.rend(); ++it)
    hand_back(it->second);
  lanes_.clear();
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::dropped_records(std::size_t& dropped) {
  dropped = pending_dropped;
  pending_dropped = 0;
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::next_record(std::uint8_t* buffer, std::size_t valid_bytes,
                                   CUpti_Activity** record) {
  std::size_t offset = 0;
  if (*record != nullptr) {
    offset = static_cast<std::size_t>(reinterpret_cast<std::uint8_t*>(*record) - buffer) +
             record_size((*record)->kind);
  }
  if (offset >= valid_bytes) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  auto* next = reinterpret_cast<CUpti_Activity*>(buffer + offset);
  const std::size_t size = record_size(next->kind);
  if (size == 0 || offset + size > valid_bytes) return CUPTI_ERROR_INVALID_KIND;
  *record = next;
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::push_external_id(std::uint64_t id) {
  std::lock_guard lock{mutex_};
  stacks_[std::this_thread::get_id()].push_back(id);
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::pop_external_id(std::uint64_t& last) {
  std::lock_guard lock{mutex_};
  auto& stack = stacks_[std::this_thread::get_id()];
  if (stack.empty()) return CUPTI_ERROR_QUEUE_EMPTY;
  last = stack.back();
  stack.pop_back();
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::timestamp(std::uint64_t& nanoseconds) {
  nanoseconds = clock_ns;
  return CUPTI_SUCCESS;
}

CUptiResult FakeCupti::watch_launches(bool on) {
  std::lock_guard lock{mutex_};
  calls.push_back(on ? "watch on" : "watch off");
  if (watch_result == CUPTI_SUCCESS) watching = on;
  return watch_result;
}

std::uint64_t FakeCupti::launches_seen() {
  std::lock_guard lock{mutex_};
  return launches;
}

const char* FakeCupti::callback_name(CUpti_CallbackDomain domain, std::uint32_t callback_id) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API) return nullptr;
  auto it = runtime_names.find(callback_id);
  return it == runtime_names.end() ? nullptr : it->second.c_str();
}

std::string FakeCupti::describe(CUptiResult result) {
  return "fake CUPTI error " + std::to_string(static_cast<int>(result));
}

bool FakeCupti::emit_bytes(const void* record, std::size_t size, int lane_id) {
  std::lock_guard lock{mutex_};
  Lane& lane = lanes_[lane_id];
  if (lane.data != nullptr && lane.used + size > lane.size) hand_back(lane);
  if (lane.data == nullptr && !request(lane)) return false;
  std::memcpy(lane.data + lane.used, record, size);
  lane.used += size;
  return true;
}

bool FakeCupti::request(Lane& lane) {
  std::uint8_t* data = nullptr;
  std::size_t size = 0;
  std::size_t max_records = 0;
  requested_(&data, &size, &max_records);
  if (data == nullptr) {
    ++refused_buffers;
    return false;
  }
  // CUPTI is told that the buffers it is lent are zero (kZeroedOutActivityBuffer): check it.
  ++lent_buffers;
  if (!seen_buffers_.insert(data).second) ++reused_buffers;
  if (std::any_of(data, data + size, [](std::uint8_t byte) { return byte != 0; })) {
    ++dirty_buffers;
  }
  lane = Lane{data, size, 0};
  return true;
}

void FakeCupti::hand_back(Lane& lane) {
  if (lane.data == nullptr) return;
  completed_(nullptr, 0, lane.data, lane.size, lane.used);
  lane = Lane{};
}

void FakeCupti::complete(int lane) {
  std::lock_guard lock{mutex_};
  auto it = lanes_.find(lane);
  if (it == lanes_.end()) return;
  hand_back(it->second);
  lanes_.erase(it);
}

std::size_t FakeCupti::open_lanes() const {
  std::lock_guard lock{mutex_};
  return static_cast<std::size_t>(
      std::count_if(lanes_.begin(), lanes_.end(),
                    [](const auto& entry) { return entry.second.data != nullptr; }));
}

std::vector<std::uint64_t> FakeCupti::pushed_on_this_thread() const {
  std::lock_guard lock{mutex_};
  auto it = stacks_.find(std::this_thread::get_id());
  return it == stacks_.end() ? std::vector<std::uint64_t>{} : it->second;
}

void FakeCupti::launch(const char* name, std::uint32_t correlation_id, std::uint64_t api_start,
                       std::uint64_t kernel_start, std::uint64_t kernel_duration,
                       std::uint32_t stream, int api_lane, int kernel_lane) {
  const std::vector<std::uint64_t> pushed = pushed_on_this_thread();
  if (!pushed.empty()) emit(scope_record(correlation_id, pushed.back()), api_lane);
  emit(api_record(correlation_id, api_start, api_start + 3000), api_lane);
  emit(kernel_record(name, correlation_id, kernel_start, kernel_start + kernel_duration, 0, stream),
       kernel_lane);
}

cupti::KernelRecord kernel_record(const char* name, std::uint32_t correlation_id,
                                  std::uint64_t start, std::uint64_t end, std::uint32_t device,
                                  std::uint32_t stream) {
  cupti::KernelRecord r{};
  r.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  r.name = name;
  r.correlationId = correlation_id;
  r.start = start;
  r.end = end;
  r.deviceId = device;
  r.contextId = 1;
  r.streamId = stream;
  r.gridX = 128;
  r.gridY = 1;
  r.gridZ = 1;
  r.blockX = 256;
  r.blockY = 1;
  r.blockZ = 1;
  r.registersPerThread = 32;
  r.staticSharedMemory = 1024;
  r.dynamicSharedMemory = 2048;
  return r;
}

CUpti_ActivityAPI api_record(std::uint32_t correlation_id, std::uint64_t start, std::uint64_t end,
                             std::uint32_t callback_id, std::uint32_t thread) {
  CUpti_ActivityAPI r{};
  r.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  r.cbid = callback_id;
  r.start = start;
  r.end = end;
  r.processId = 1000;
  r.threadId = thread;
  r.correlationId = correlation_id;
  return r;
}

CUpti_ActivityExternalCorrelation scope_record(std::uint32_t correlation_id,
                                               std::uint64_t scope_id) {
  CUpti_ActivityExternalCorrelation r{};
  r.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
  r.externalKind = cupti::kScopeCorrelationKind;
  r.externalId = scope_id;
  r.correlationId = correlation_id;
  return r;
}

}  // namespace kerntime::testing
