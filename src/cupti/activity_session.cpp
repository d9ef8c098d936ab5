// SPDX-License-Identifier: Apache-2.0
#include "cupti/activity_session.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <pthread.h>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>

#include "cupti/buffer_callbacks.hpp"
#include "cupti/cupti_holder.hpp"
#include "cupti/cupti_versions.hpp"
#include "cupti/other_client.hpp"
#include "cupti/record_decoder.hpp"
#include "io/program_signals_blocked.hpp"

namespace kerntime::cupti {
namespace {

const char* kind_name(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return "kernel";
    case CUPTI_ACTIVITY_KIND_RUNTIME:
      return "runtime API";
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return "driver API";
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
      return "external correlation (scope)";
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return "memcpy";
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return "peer-to-peer memcpy";
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return "memset";
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return "synchronization";
    default:
      return "activity";
  }
}

std::int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

constexpr const char* kFallback = kTracerFallback;

}  // namespace

ActivitySession::ActivitySession(CuptiApi& api, const TracerOptions& options,
                                 Synchronize synchronize)
    : api_(api),
      options_(options),
      synchronize_(std::move(synchronize)),
      pool_(options.buffer_bytes, options.preallocated_buffers, options.max_buffers),
      consequence_(kFallback) {}

ActivitySession::~ActivitySession() {
  stop();
}

std::string ActivitySession::start() {
  std::lock_guard control{control_};
  // CUPTI starts its threads inside the calls below, and the reader starts here: none of them
  // may take a signal the program directs at the process (a program's sigwait() would lose it).
  const io::ProgramSignalsBlocked quiet_threads;
  if (!route_buffers_to(this)) {
    return std::string{"another kerntime::Tracer is active in this process"} + consequence_;
  }
  claimed_ = true;

  std::string holder;
  const CUptiResult subscribed = api_.subscribe(subscriber_name_.c_str(), holder);
  if (subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    release();
    const char* injection = std::getenv("CUDA_INJECTION64_PATH");
    return held_reason(holder, injection != nullptr ? injection : "", consequence_);
  }
  if (subscribed != CUPTI_SUCCESS) {
    release();
    return "CUPTI could not start (" + api_.describe(subscribed) +
           "; often no NVIDIA driver, or a libcupti that does not match it)" + consequence_;
  }
  subscribed_ = true;
  version_ = api_.version();

  // Device buffer settings only reach contexts created after them; failures cost records, not
  // correctness, so they become warnings.
  const std::pair<CUpti_ActivityAttribute, std::size_t> attributes[] = {
      {CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, options_.device_buffer_bytes},
      {CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE, options_.device_buffers_preallocated}};
  for (const auto& [attribute, value] : attributes) {
    if (value == 0) continue;
    if (const CUptiResult r = api_.set_attribute(attribute, value); r != CUPTI_SUCCESS) {
      builder_.add_warning("CUPTI refused a device buffer setting (" + api_.describe(r) + ")");
    }
  }

  // The pool lends zeroed buffers (buffer_pool.hpp). Told so, CUPTI no longer zeroes each new
  // buffer itself (8 MiB inside the CUDA call that needed it, on the program's thread), which
  // every flush that hands back a partly filled buffer made happen again. A CUPTI without the
  // attribute refuses it and zeroes as before: slower, not wrong.
  (void)api_.set_attribute(kZeroedOutActivityBuffer, 1);

  ClockAnchor clock;
  api_.timestamp(clock.cupti_ns);
  clock.steady_ns = steady_now_ns();
  builder_.set_clock(clock);

  if (const CUptiResult r = api_.register_callbacks(&on_buffer_requested, &on_buffer_completed);
      r != CUPTI_SUCCESS) {
    release();
    return "CUPTI refused kerntime's activity buffers (" + api_.describe(r) + ")" + consequence_;
  }

  // CONCURRENT_KERNEL, never KERNEL: KERNEL serializes every kernel in the process.
  std::vector<CUpti_ActivityKind> kinds{CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL};
  if (options_.runtime_api) kinds.push_back(CUPTI_ACTIVITY_KIND_RUNTIME);
  if (options_.driver_api) kinds.push_back(CUPTI_ACTIVITY_KIND_DRIVER);
  if (options_.scopes) kinds.push_back(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
  if (options_.memcpy) {
    kinds.push_back(CUPTI_ACTIVITY_KIND_MEMCPY);
    kinds.push_back(CUPTI_ACTIVITY_KIND_MEMCPY2);
  }
  if (options_.memset) kinds.push_back(CUPTI_ACTIVITY_KIND_MEMSET);
  if (options_.synchronization) kinds.push_back(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  for (const CUpti_ActivityKind kind : kinds) {
    const CUptiResult r = api_.enable(kind);
    if (r == CUPTI_SUCCESS) {
      enabled_.push_back(kind);
    } else if (kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      release();
      return "CUPTI could not enable kernel records (" + api_.describe(r) + ")" + consequence_;
    } else {
      builder_.add_warning(std::string{"CUPTI could not enable "} + kind_name(kind) + " records (" +
                           api_.describe(r) + "); they are missing");
    }
  }

  // Seen once per launch, from inside CUDA itself rather than the program: half of all API
  // records and their cost, for nothing a reader needs.
  if (std::find(enabled_.begin(), enabled_.end(), CUPTI_ACTIVITY_KIND_DRIVER) != enabled_.end()) {
    api_.mute(CUPTI_ACTIVITY_KIND_DRIVER, kDriverKernelGetName);
  }

  // CUPTI hands activity records to one client per process: with another one registered,
  // this session would be active and empty. Counting launches until records arrive shows it.
  watching_launches_ = api_.watch_launches(true) == CUPTI_SUCCESS;
  if (const char* injection = std::getenv("CUDA_INJECTION64_PATH");
      injection != nullptr && other_tool_injected()) {
    builder_.add_warning(std::string{"a CUPTI tool is loaded through CUDA_INJECTION64_PATH ("} +
                         injection +
                         "); CUPTI gives activity records to one client per process, so that "
                         "tool or kerntime receives none");
  }

  running_ = true;
  if (options_.background_reading) {
    try {
      reader_ = std::thread{[this] { read_in_background(); }};
    } catch (const std::system_error& error) {
      builder_.add_warning(std::string{"no background reader thread ("} + error.what() +
                           "): buffers are read at flush() only, so long runs may drop records");
    }
  }
  if (options_.scopes) {
    tagger_ = std::make_unique<ScopeTagger>(api_, scopes_);
    route_scopes_to(tagger_.get());
  }
  return {};
}

std::string ActivitySession::flush() {
  std::lock_guard control{control_};
  return flush_locked();
}

std::string ActivitySession::flush_locked() {
  if (!running_) return {};
  std::string failure = options_.synchronize_on_flush ? synchronize_() : std::string{};
  // A forced flush with work in flight returns that work without timestamps, for good. After a
  // failed synchronization (a kernel fault: nothing will complete any more) it is forced too, so
  // that the kernels the fault stopped come back and can be named.
  api_.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::size_t dropped = 0;
  if (api_.dropped_records(dropped) == CUPTI_SUCCESS && dropped > 0) {
    if (sink_ != nullptr) {
      sink_->dropped(dropped);
    } else {
      std::lock_guard lock{builder_mutex_};
      builder_.add_dropped(dropped);
    }
  }
  do {
    read_ready();
  } while (!pool_.wait_settled());
  // After a fault the missing records are the fault's doing, not another client's.
  if (failure.empty()) check_records_arrive();
  if (!failure.empty()) {
    const trace::ScopeSnapshot scopes = scopes_.snapshot();
    std::lock_guard lock{builder_mutex_};
    const std::string stopped = builder_.in_flight(scopes);
    if (!stopped.empty()) failure += "; in flight when the GPU stopped: " + stopped;
  }
  return failure;
}

void ActivitySession::check_records_arrive() {
  if (!watching_launches_) return;
  if (kernels_received_.load() > 0) {
    api_.watch_launches(false);  // records arrive: launches need not pay for the callback
    watching_launches_ = false;
    return;
  }
  const std::uint64_t launches = api_.launches_seen();
  if (launches == 0) return;
  api_.watch_launches(false);
  watching_launches_ = false;
  std::lock_guard lock{builder_mutex_};
  starved_reason_ = cupti::starved_reason(launches, describe_other_cupti_client(), consequence_);
  builder_.add_warning(starved_reason_);
}

void ActivitySession::stop_watching_launches_if_records_arrive() {
  std::lock_guard control{control_};
  if (!watching_launches_ || kernels_received_.load() == 0) return;
  api_.watch_launches(false);
  watching_launches_ = false;
}

bool ActivitySession::stop_api_records() {
  std::lock_guard control{control_};
  bool stopped = false;
  // External correlation records tag API records only: with those gone the kind writes nothing.
  for (const CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER,
                                        CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION}) {
    const auto on = std::find(enabled_.begin(), enabled_.end(), kind);
    if (on == enabled_.end() || api_.disable(kind) != CUPTI_SUCCESS) continue;
    enabled_.erase(on);
    stopped = stopped || kind != CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
  }
  return stopped;
}

std::string ActivitySession::starved_reason() {
  std::lock_guard lock{builder_mutex_};
  return starved_reason_;
}

std::string ActivitySession::stop() {
  std::lock_guard control{control_};
  if (!running_) return {};
  // No new pushes: CUPTI's external-id stacks go away with the subscription.
  if (tagger_) route_scopes_to(nullptr);
  std::string failure;
  try {
    failure = flush_locked();
  } catch (...) {
    failure = "reading the last activity records failed";
  }
  release();
  return failure;
}

void ActivitySession::release() noexcept {
  if (watching_launches_) api_.watch_launches(false);
  watching_launches_ = false;
  for (auto it = enabled_.rbegin(); it != enabled_.rend(); ++it)
    api_.disable(*it);
  enabled_.clear();
  if (subscribed_) api_.unsubscribe();
  subscribed_ = false;
  running_ = false;
  if (reader_.joinable()) {
    stop_reading_ = true;
    pool_.wake();
    reader_.join();
  }
  try {
    read_ready();
  } catch (...) {
    // Out of memory on the way out: those records are lost, the detach must still finish.
  }
  if (claimed_) {
    stop_routing_buffers(this);
    claimed_ = false;
  }
}

void ActivitySession::buffer_requested(std::uint8_t** buffer, std::size_t* size,
                                       std::size_t* max_records) {
  const bool may_refuse = version_ >= kBufferRejectionMinVersion;
  *buffer = pool_.acquire(!may_refuse);
  *size = *buffer != nullptr ? pool_.buffer_bytes() : 0;
  *max_records = 0;
}

bool ActivitySession::buffer_completed(std::uint8_t* buffer, std::size_t valid_bytes) {
  return pool_.complete(buffer, valid_bytes);
}

void ActivitySession::read_ready(trace::RecordBatch& batch) {
  ReadyBuffer buffer;
  while (pool_.take(buffer)) {
    batch.clear();
    const Decode decode =
        sink_ != nullptr && sink_->counts_only() ? Decode::counts : Decode::everything;
    // No lock held: a CUPTI call.
    decode_buffer(api_, buffer.data, buffer.valid_bytes, batch, decode);
    kernels_received_ += batch.kernels.size();
    if (sink_ != nullptr) {
      sink_->records(std::move(batch));
    } else {
      std::lock_guard lock{builder_mutex_};
      builder_.append(std::move(batch));
    }
    pool_.finish(buffer);
  }
}

void ActivitySession::read_in_background() {
  // Named, so that a profiler, `top -H` or /proc/PID/task tell kerntime's CPU from the program's.
  pthread_setname_np(pthread_self(), "kerntime-read");
  // One batch for every buffer this thread reads: its vectors grow to a buffer's records once.
  trace::RecordBatch batch;
  while (pool_.wait_ready([this] { return stop_reading_.load(); })) {
    while (reading_held_.load(std::memory_order_relaxed) && !stop_reading_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    read_ready(batch);
  }
}

Trace ActivitySession::trace() {
  // API function names come from CUPTI, so they are looked up without the builder lock.
  std::vector<std::pair<ApiKind, std::uint32_t>> unnamed;
  {
    std::lock_guard lock{builder_mutex_};
    unnamed = builder_.unnamed_api_functions();
  }
  std::vector<std::tuple<ApiKind, std::uint32_t, const char*>> names;
  for (const auto& [kind, id] : unnamed) {
    const CUpti_CallbackDomain domain =
        kind == ApiKind::driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API;
    names.emplace_back(kind, id, api_.callback_name(domain, id));
  }
  const trace::ScopeSnapshot scopes = scopes_.snapshot();
  Trace result;
  {
    std::lock_guard lock{builder_mutex_};
    for (const auto& [kind, id, name] : names) {
      if (name != nullptr) builder_.set_api_name(kind, id, name);
    }
    result = builder_.build(scopes);
  }
  if (const std::size_t refused = pool_.refused(); refused > 0) {
    result.warnings.push_back("refused " + std::to_string(refused) + " request" +
                              (refused == 1 ? "" : "s") +
                              " for a record buffer (all TracerOptions::max_buffers full): "
                              "CUPTI dropped records");
  }
  if (tagger_ && tagger_->mismatches() + tagger_->failed_pushes() > 0) {
    result.warnings.push_back(
        "could not tag " + std::to_string(tagger_->mismatches() + tagger_->failed_pushes()) +
        " scope openings in CUPTI, or they closed out of order: some launches in them are "
        "attributed to an enclosing scope or to none");
  }
  return result;
}

void ActivitySession::clear() {
  std::lock_guard control{control_};
  read_ready();
  std::lock_guard lock{builder_mutex_};
  builder_.clear_records();
}

}  // namespace kerntime::cupti
