// SPDX-License-Identifier: Apache-2.0
#include <atomic>
#include <utility>

#include <kerntime/error.hpp>
#include <kerntime/tracer.hpp>

#include "cuda/device_sync.hpp"
#include "cupti/activity_session.hpp"
#include "cupti/cupti_api.hpp"
#include "cupti/cupti_library.hpp"
#include "cupti/tracer_access.hpp"

namespace kerntime {
namespace {

constexpr std::size_t kMinBufferBytes = std::size_t{64} << 10;

void validate(const TracerOptions& options) {
  if (options.buffer_bytes < kMinBufferBytes || options.buffer_bytes % 8 != 0) {
    throw Error("TracerOptions::buffer_bytes must be a multiple of 8 and at least 64 KiB (got " +
                std::to_string(options.buffer_bytes) + "); 8 MiB is a good size");
  }
  if (options.max_buffers == 0 || options.preallocated_buffers > options.max_buffers) {
    throw Error(
        "TracerOptions::max_buffers must be at least 1 and at least preallocated_buffers (got " +
        std::to_string(options.max_buffers) + " and " +
        std::to_string(options.preallocated_buffers) + ")");
  }
  if (options.scopes && !options.runtime_api && !options.driver_api) {
    throw Error(
        "TracerOptions::scopes needs runtime_api or driver_api: CUPTI tags API records "
        "with scopes, so without them no kernel can be attributed to a scope");
  }
}

}  // namespace

struct Tracer::Impl {
  std::unique_ptr<cupti::CuptiApi> api;
  std::unique_ptr<cupti::ActivitySession> session;
  std::string reason;
  std::atomic<TracerStatus> status{TracerStatus::unavailable};
};

std::unique_ptr<Tracer::Impl> detail::TracerAccess::start(
    const TracerOptions& options, std::unique_ptr<cupti::CuptiApi> api,
    std::function<std::string()> synchronize) {
  validate(options);
  auto impl = std::make_unique<Tracer::Impl>();
  if (api == nullptr) api = cupti::load_cupti_api(impl->reason);
  if (api == nullptr) return impl;
  impl->api = std::move(api);
  impl->session =
      std::make_unique<cupti::ActivitySession>(*impl->api, options, std::move(synchronize));
  impl->reason = impl->session->start();
  if (impl->reason.empty()) {
    impl->status = TracerStatus::active;
  } else {
    impl->session.reset();
  }
  return impl;
}

Tracer detail::TracerAccess::make(const TracerOptions& options,
                                  std::unique_ptr<cupti::CuptiApi> api,
                                  std::function<std::string()> synchronize) {
  return Tracer{start(options, std::move(api), std::move(synchronize))};
}

Tracer::Tracer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Tracer::Tracer(TracerOptions options)
    : impl_(detail::TracerAccess::start(options, nullptr, &cuda::synchronize_active_devices)) {}

Tracer::~Tracer() {
  try {
    stop();
  } catch (...) {
    // A destructor reports nothing; stop() released CUPTI before it threw.
  }
}

TracerStatus Tracer::status() const {
  return impl_->status.load();
}

std::string Tracer::unavailable_reason() const {
  const TracerStatus now = status();
  if (now == TracerStatus::starved) return impl_->session->starved_reason();
  return now == TracerStatus::unavailable ? impl_->reason : std::string{};
}

int Tracer::cupti_version() const {
  return impl_->api != nullptr ? static_cast<int>(impl_->api->version()) : 0;
}

void Tracer::flush() {
  if (status() != TracerStatus::active) return;
  const std::string failure = impl_->session->flush();
  if (!impl_->session->starved_reason().empty()) {
    TracerStatus expected = TracerStatus::active;
    impl_->status.compare_exchange_strong(expected, TracerStatus::starved);
  }
  if (!failure.empty()) {
    throw Error("Tracer::flush could not wait for the GPU (" + failure +
                "); the trace holds the records completed before the failure");
  }
}

Trace Tracer::trace() const {
  if (impl_->session != nullptr) return impl_->session->trace();
  Trace empty;
  empty.warnings.push_back("kernel tracing is unavailable: " + impl_->reason);
  return empty;
}

void Tracer::clear() {
  if (impl_->session != nullptr) impl_->session->clear();
}

void Tracer::stop() {
  if (impl_->session == nullptr) return;
  const std::string failure = impl_->session->stop();
  for (TracerStatus running : {TracerStatus::active, TracerStatus::starved}) {
    if (impl_->status.compare_exchange_strong(running, TracerStatus::stopped)) break;
  }
  if (!failure.empty()) {
    throw Error("Tracer::stop could not wait for the GPU (" + failure +
                "); CUPTI was released and the trace holds the records completed before");
  }
}

CuptiAvailability cupti_availability() {
  const cupti::CuptiProbe probe = cupti::probe_cupti();
  return CuptiAvailability{probe.loaded, probe.path, probe.api_version, probe.problem};
}

}  // namespace kerntime
