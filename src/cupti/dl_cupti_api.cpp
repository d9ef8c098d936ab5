// SPDX-License-Identifier: Apache-2.0
// The real CuptiApi: every function comes from dlsym on the library probe_cupti() loaded, so
// kerntime starts (and times with cudaEvents) where libcupti is missing. The CUPTI headers
// supply only types and constants; decltype of a declaration does not link against it.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <dlfcn.h>
#include <mutex>

#include "cupti/cupti_api.hpp"
#include "cupti/cupti_library.hpp"
#include "cupti/cupti_versions.hpp"
#include "cupti/launch_watch.hpp"

namespace kerntime::cupti {
namespace {

// cuptiSubscribe_v2's parameters (CUDA 13.0). Mirrored so that kerntime built with older headers
// still names the holder when the loaded CUPTI is new enough to have the function.
struct SubscriberParams {
  std::size_t struct_size;
  const char* subscriber_name;
  char* old_subscriber_name;
  std::size_t old_subscriber_size;
};
#if KERNTIME_CUPTI_HAS_SUBSCRIBE_V2
static_assert(sizeof(SubscriberParams) == sizeof(CUpti_SubscriberParams) &&
              offsetof(SubscriberParams, old_subscriber_size) ==
                  offsetof(CUpti_SubscriberParams, oldSubscriberSize));
#endif
using SubscribeV2 = CUptiResult (*)(CUpti_SubscriberHandle*, CUpti_CallbackFunc, void*,
                                    SubscriberParams*);
constexpr std::size_t kHolderNameBytes = 256;  // CUPTI asks for at least 64

class DlCuptiApi final : public CuptiApi {
 public:
  bool load(void* handle, std::string& missing) {
    bool ok = true;
    auto need = [&](auto& function, const char* name) {
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(handle, name));
      if (function == nullptr) {
        missing += missing.empty() ? name : std::string{", "} + name;
        ok = false;
      }
    };
    need(get_version_, "cuptiGetVersion");
    need(subscribe_, "cuptiSubscribe");
    need(unsubscribe_, "cuptiUnsubscribe");
    need(set_attribute_, "cuptiActivitySetAttribute");
    need(register_callbacks_, "cuptiActivityRegisterCallbacks");
    need(enable_, "cuptiActivityEnable");
    need(disable_, "cuptiActivityDisable");
    need(flush_all_, "cuptiActivityFlushAll");
    need(dropped_, "cuptiActivityGetNumDroppedRecords");
    need(next_record_, "cuptiActivityGetNextRecord");
    need(push_, "cuptiActivityPushExternalCorrelationId");
    need(pop_, "cuptiActivityPopExternalCorrelationId");
    need(timestamp_, "cuptiGetTimestamp");
    need(callback_name_, "cuptiGetCallbackName");
    need(result_string_, "cuptiGetResultString");
    subscribe_v2_ = reinterpret_cast<SubscribeV2>(dlsym(handle, "cuptiSubscribe_v2"));
    mute_runtime_ =
        reinterpret_cast<decltype(mute_runtime_)>(dlsym(handle, "cuptiActivityEnableRuntimeApi"));
    mute_driver_ =
        reinterpret_cast<decltype(mute_driver_)>(dlsym(handle, "cuptiActivityEnableDriverApi"));
    enable_callback_ =
        reinterpret_cast<decltype(enable_callback_)>(dlsym(handle, "cuptiEnableCallback"));
    watch_.device_of_context =
        reinterpret_cast<decltype(watch_.device_of_context)>(dlsym(handle, "cuptiGetDeviceId"));
    return ok;
  }

  std::uint32_t version() override {
    std::uint32_t v = 0;
    return get_version_(&v) == CUPTI_SUCCESS ? v : 0;
  }

  CUptiResult subscribe(const char* name, std::string& holder) override {
    if (subscribe_v2_ == nullptr) return subscribe_(&subscriber_, &on_cupti_callback, &watch_);
    char old_name[kHolderNameBytes] = {};
    SubscriberParams params{sizeof(SubscriberParams), name, old_name, sizeof(old_name)};
    const CUptiResult status = subscribe_v2_(&subscriber_, &on_cupti_callback, &watch_, &params);
    old_name[sizeof(old_name) - 1] = '\0';
    holder = old_name;
    return status;
  }

  CUptiResult unsubscribe() override {
    std::lock_guard lock{callbacks_mutex_};
    const CUptiResult status = unsubscribe_(subscriber_);
    subscriber_ = nullptr;
    launch_callbacks_on_ = false;
    counting_ = false;
    watch_.site_handler.store(nullptr);
    watch_.result_handler.store(nullptr);
    return status;
  }

  CUptiResult set_attribute(CUpti_ActivityAttribute attribute, std::size_t value) override {
    // The flags are one byte (cupti_activity.h); sizes and counts a size_t.
    if (attribute == kZeroedOutActivityBuffer) {
      std::uint8_t flag = value != 0 ? 1 : 0;
      std::size_t size = sizeof(flag);
      return set_attribute_(attribute, &size, &flag);
    }
    std::size_t size = sizeof(value);
    return set_attribute_(attribute, &size, &value);
  }

  CUptiResult register_callbacks(CUpti_BuffersCallbackRequestFunc requested,
                                 CUpti_BuffersCallbackCompleteFunc completed) override {
    return register_callbacks_(requested, completed);
  }
  CUptiResult enable(CUpti_ActivityKind kind) override { return enable_(kind); }
  CUptiResult disable(CUpti_ActivityKind kind) override { return disable_(kind); }
  CUptiResult mute(CUpti_ActivityKind api, CUpti_CallbackId callback_id) override {
    auto* function = api == CUPTI_ACTIVITY_KIND_DRIVER ? mute_driver_ : mute_runtime_;
    return function != nullptr ? function(callback_id, 0) : CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult flush_all(std::uint32_t flags) override { return flush_all_(flags); }
  CUptiResult watch_launches(bool on) override {
    std::lock_guard lock{callbacks_mutex_};
    counting_ = on;
    return update_launch_callbacks();
  }
  CUptiResult watch_launch_sites(LaunchSiteHandler handler, void* context) override {
    std::lock_guard lock{callbacks_mutex_};
    if (!can_watch()) return CUPTI_ERROR_NOT_SUPPORTED;
    watch_.site_context.store(context);
    watch_.site_handler.store(handler);
    // Each context's device, learnt as it is made, so a site names its device without a CUPTI
    // call inside the launch.
    if (handler != nullptr && watch_.device_of_context != nullptr) {
      enable_callback_(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE,
                       CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    }
    return update_launch_callbacks();
  }
  CUptiResult watch_api_results(ApiResultHandler handler, void* context) override {
    std::lock_guard lock{callbacks_mutex_};
    if (!can_watch()) return CUPTI_ERROR_NOT_SUPPORTED;
    watch_.result_context.store(context);
    watch_.result_handler.store(handler);
    // A call entered before the callbacks were on would leave its thread's call depth behind.
    if (handler != nullptr) watch_.epoch.fetch_add(1);
    std::size_t count = 0;
    const WatchedCallback* callbacks = result_callbacks(count);
    bool any = false;
    for (std::size_t i = 0; i < count; ++i) {
      // An id the loaded CUPTI does not know is refused alone; the others still report.
      const CUptiResult r = enable_callback_(handler != nullptr ? 1 : 0, subscriber_,
                                             callbacks[i].domain, callbacks[i].id);
      any = any || r == CUPTI_SUCCESS;
    }
    return any || handler == nullptr ? CUPTI_SUCCESS : CUPTI_ERROR_NOT_SUPPORTED;
  }
  const std::atomic<std::uint64_t>* watch_unloads(UnloadHandler handler, void* context) override {
    std::lock_guard lock{callbacks_mutex_};
    if (!can_watch()) return nullptr;
    watch_.unload_context.store(context);
    watch_.unload_handler.store(handler);
    const CUptiResult module = enable_callback_(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE,
                                                CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING);
    const CUptiResult contexts = enable_callback_(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE,
                                                  CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    return module == CUPTI_SUCCESS && contexts == CUPTI_SUCCESS ? &watch_.unloads : nullptr;
  }
  CUptiResult watch_profiler_api(ProfilerApiHandler handler, void* context) override {
    if (!can_watch()) return CUPTI_ERROR_NOT_SUPPORTED;
    watch_.profiler_context.store(context);
    watch_.profiler_handler.store(handler);
    const std::uint32_t on = handler != nullptr ? 1 : 0;
    CUptiResult result = enable_callback_(on, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API,
                                          CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    const CUptiResult stop = enable_callback_(on, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API,
                                              CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    return result != CUPTI_SUCCESS ? result : stop;
  }
  std::uint64_t launches_seen() override { return watch_.launches(); }
  CUptiResult dropped_records(std::size_t& dropped) override {
    return dropped_(nullptr, 0, &dropped);
  }
  CUptiResult next_record(std::uint8_t* buffer, std::size_t valid_bytes,
                          CUpti_Activity** record) override {
    return next_record_(buffer, valid_bytes, record);
  }
  CUptiResult push_external_id(std::uint64_t id) override {
    return push_(kScopeCorrelationKind, id);
  }
  CUptiResult pop_external_id(std::uint64_t& last) override {
    return pop_(kScopeCorrelationKind, &last);
  }
  CUptiResult timestamp(std::uint64_t& nanoseconds) override { return timestamp_(&nanoseconds); }
  const char* callback_name(CUpti_CallbackDomain domain, std::uint32_t callback_id) override {
    const char* name = nullptr;
    return callback_name_(domain, callback_id, &name) == CUPTI_SUCCESS ? name : nullptr;
  }
  std::string describe(CUptiResult result) override {
    const char* text = nullptr;
    if (result_string_(result, &text) == CUPTI_SUCCESS && text != nullptr) return text;
    return "CUPTI error " + std::to_string(static_cast<int>(result));
  }

 private:
  // The launch callbacks serve two watchers, the count (ActivitySession, until records arrive)
  // and the launch-site handler (kerntime run, all along): on while either wants them. An id the
  // loaded CUPTI does not know is refused alone; the others still count.
  CUptiResult update_launch_callbacks() {
    if (!can_watch()) return CUPTI_ERROR_NOT_SUPPORTED;
    const bool want = counting_ || watch_.site_handler.load() != nullptr;
    if (want == launch_callbacks_on_) return CUPTI_SUCCESS;
    if (want) watch_.epoch.fetch_add(1);
    std::size_t count = 0;
    const WatchedCallback* callbacks = launch_callbacks(count);
    CUptiResult refused = CUPTI_SUCCESS;
    bool any = false;
    for (std::size_t i = 0; i < count; ++i) {
      const CUptiResult r =
          enable_callback_(want ? 1 : 0, subscriber_, callbacks[i].domain, callbacks[i].id);
      any = any || r == CUPTI_SUCCESS;
      if (r != CUPTI_SUCCESS && refused == CUPTI_SUCCESS) refused = r;
    }
    launch_callbacks_on_ = want;
    return !want || any ? CUPTI_SUCCESS : refused;
  }

  CUpti_SubscriberHandle subscriber_ = nullptr;
  LaunchWatch watch_;
  std::mutex callbacks_mutex_;
  bool counting_ = false;
  bool launch_callbacks_on_ = false;
  // Callbacks need cuptiEnableCallback (optional in old CUPTIs) and a subscriber.
  bool can_watch() const { return enable_callback_ != nullptr && subscriber_ != nullptr; }
  decltype(&cuptiEnableCallback) enable_callback_ = nullptr;  // optional: no watch without it
  decltype(&cuptiGetVersion) get_version_ = nullptr;
  decltype(&cuptiSubscribe) subscribe_ = nullptr;
  SubscribeV2 subscribe_v2_ = nullptr;
  decltype(&cuptiUnsubscribe) unsubscribe_ = nullptr;
  decltype(&cuptiActivitySetAttribute) set_attribute_ = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks_ = nullptr;
  decltype(&cuptiActivityEnable) enable_ = nullptr;
  decltype(&cuptiActivityDisable) disable_ = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all_ = nullptr;
  // Optional: CUPTI before 12.x has no per-function switches.
  CUptiResult (*mute_runtime_)(CUpti_CallbackId, std::uint8_t) = nullptr;
  CUptiResult (*mute_driver_)(CUpti_CallbackId, std::uint8_t) = nullptr;
  decltype(&cuptiActivityGetNumDroppedRecords) dropped_ = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record_ = nullptr;
  decltype(&cuptiActivityPushExternalCorrelationId) push_ = nullptr;
  decltype(&cuptiActivityPopExternalCorrelationId) pop_ = nullptr;
  decltype(&cuptiGetTimestamp) timestamp_ = nullptr;
  decltype(&cuptiGetCallbackName) callback_name_ = nullptr;
  decltype(&cuptiGetResultString) result_string_ = nullptr;
};

}  // namespace

std::unique_ptr<CuptiApi> load_cupti_api(std::string& problem) {
  const CuptiProbe probe = probe_cupti();
  if (!probe.loaded) {
    problem = probe.problem;
    return nullptr;
  }
  auto api = std::make_unique<DlCuptiApi>();
  std::string missing;
  if (!api->load(cupti_handle(), missing)) {
    problem = probe.path + " lacks " + missing +
              "; kernel tracing is off and GPU times come from cudaEvents. Use the CUPTI of "
              "the CUDA Toolkit kerntime was built with";
    return nullptr;
  }
  return api;
}

}  // namespace kerntime::cupti
