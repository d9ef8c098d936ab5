// SPDX-License-Identifier: Apache-2.0
#include <atomic>
#include <mutex>

#include <kerntime/error.hpp>
#include <kerntime/session.hpp>

#include "cuda/cuda_check.hpp"
#include "events/scope_listener.hpp"
#include "events/session_impl.hpp"

namespace kerntime {

namespace events {
namespace {
std::atomic<ScopeListener*> active_listener{nullptr};
std::atomic<std::uint64_t> last_scope_id{0};
}  // namespace

ScopeListener* set_scope_listener(ScopeListener* listener) noexcept {
  return active_listener.exchange(listener, std::memory_order_acq_rel);
}

ScopeListener* scope_listener() noexcept {
  return active_listener.load(std::memory_order_acquire);
}

std::uint64_t next_scope_id() noexcept {
  return last_scope_id.fetch_add(1, std::memory_order_relaxed) + 1;
}
}  // namespace events

ScopedTimer::ScopedTimer(Session& session, std::string_view name, cudaStream_t stream)
    : session_(session.impl_.get()) {
  open(stream, &name);
}

ScopedTimer::ScopedTimer(Session& session, Region region, cudaStream_t stream)
    : session_(session.impl_.get()), region_(region.id()) {
  // Before any CUDA call: a Region of another Session would otherwise time into this
  // Session's region of the same id, under the wrong name.
  if (region.session_ != session_->serial) {
    throw Error(
        "ScopedTimer was given a Region that another Session returned; a Region works "
        "only with its own Session: call region(name) on the Session you time into");
  }
  open(stream, nullptr);
}

void ScopedTimer::open(cudaStream_t stream, const std::string_view* name) {
  stream_ = stream;
  device_ = events::device_of(stream);
  events::EventPool* pool = nullptr;
  const events::RegionData* region = nullptr;
  {
    std::lock_guard lock{session_->mutex};
    if (name != nullptr) region_ = session_->region_id(*name);
    pool = &session_->pool(device_);
    slot_ = session_->acquire(*pool);
    region = &session_->regions[region_];
    pool->completion().arm(slot_);
  }
  const cudaError_t status = cudaEventRecord(pool->start(slot_), stream);
  if (status != cudaSuccess) {
    {
      std::lock_guard lock{session_->mutex};
      pool->release(slot_);
    }
    (void)cudaGetLastError();
    std::string message;
    {
      std::lock_guard lock{session_->mutex};
      message =
          session_->describe_error(status, "cudaEventRecord (start of \"" + region->name + "\")");
    }
    if (cuda::is_sticky_kernel_fault(status)) throw Error(message);
    cuda::throw_cuda_error(status, "cudaEventRecord (start of \"" + region->name + "\")", {});
  }
  if (session_->nvtx_domain != nullptr) {
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    attributes.message.registered = region->nvtx_name;
    nvtxDomainRangePushEx(session_->nvtx_domain, &attributes);
  }
  if (events::ScopeListener* listener = events::scope_listener()) {
    scope_id_ = events::next_scope_id();
    listener->scope_begin(scope_id_, region->name);
  }
}

ScopedTimer::~ScopedTimer() {
  if (scope_id_ != 0) {
    if (events::ScopeListener* listener = events::scope_listener()) listener->scope_end(scope_id_);
  }
  if (session_->nvtx_domain != nullptr) nvtxDomainRangePop(session_->nvtx_domain);
  events::EventPool* pool = session_->pools[static_cast<std::size_t>(device_)].get();
  const cudaError_t status = cudaEventRecord(pool->stop(slot_), stream_);
  if (status == cudaSuccess) pool->completion().mark(slot_, stream_);
  std::lock_guard lock{session_->mutex};
  if (status == cudaSuccess) {
    pool->close(slot_, region_);
    return;
  }
  // A destructor cannot throw: the Session keeps the error for its next resolve().
  (void)cudaGetLastError();
  pool->release(slot_);
  session_->defer_error(session_->describe_error(
      status, "cudaEventRecord (end of \"" + session_->regions[region_].name + "\")"));
}

}  // namespace kerntime
