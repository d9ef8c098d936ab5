// SPDX-License-Identifier: Apache-2.0
// The real CuptiApi: every function comes from dlsym on the library probe_cupti() loaded, so
// kerntime starts (and times with cudaEvents) where libcupti is missing. The CUPTI headers
// supply only types and constants; decltype of a declaration does not link against it.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <dlfcn.h>

#include "cupti/cupti_api.hpp"
#include "cupti/cupti_library.hpp"
#include "cupti/cupti_versions.hpp"

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

// The launches that make kernels, in both APIs: a launch through the runtime may reach the
// driver's entry point too, so the two domains are counted apart and the larger count is taken.
constexpr CUpti_CallbackId kRuntimeLaunches[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
};
constexpr CUpti_CallbackId kDriverLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

struct LaunchCounts {
  std::atomic<std::uint64_t> runtime{0};
  std::atomic<std::uint64_t> driver{0};
  std::atomic<CuptiApi::ProfilerApiHandler> profiler_handler{nullptr};
  std::atomic<void*> profiler_context{nullptr};
};

// Activity needs a subscriber; its callback only counts launches while the session watches
// (ActivitySession: until the first kernel record arrives), and is off otherwise.
void CUPTIAPI count_launch(void* userdata, CUpti_CallbackDomain domain,
                           CUpti_CallbackId callback_id, const void* data) {
  if (userdata == nullptr || data == nullptr) return;
  auto& counts = *static_cast<LaunchCounts*>(userdata);
  const CUpti_ApiCallbackSite site = static_cast<const CUpti_CallbackData*>(data)->callbackSite;
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API &&
      (callback_id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart ||
       callback_id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop)) {
    // Work launched after the start call returns is inside; work launched before the stop
    // call is entered, too.
    const bool start = callback_id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart;
    if (site != (start ? CUPTI_API_EXIT : CUPTI_API_ENTER)) return;
    if (const CuptiApi::ProfilerApiHandler handler = counts.profiler_handler.load()) {
      handler(start, counts.profiler_context.load());
    }
    return;
  }
  if (site != CUPTI_API_ENTER) return;
  (domain == CUPTI_CB_DOMAIN_DRIVER_API ? counts.driver : counts.runtime)
      .fetch_add(1, std::memory_order_relaxed);
}

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
    return ok;
  }

  std::uint32_t version() override {
    std::uint32_t v = 0;
    return get_version_(&v) == CUPTI_SUCCESS ? v : 0;
  }

  CUptiResult subscribe(const char* name, std::string& holder) override {
    if (subscribe_v2_ == nullptr) return subscribe_(&subscriber_, &count_launch, &launches_);
    char old_name[kHolderNameBytes] = {};
    SubscriberParams params{sizeof(SubscriberParams), name, old_name, sizeof(old_name)};
    const CUptiResult status = subscribe_v2_(&subscriber_, &count_launch, &launches_, &params);
    old_name[sizeof(old_name) - 1] = '\0';
    holder = old_name;
    return status;
  }

  CUptiResult unsubscribe() override {
    const CUptiResult status = unsubscribe_(subscriber_);
    subscriber_ = nullptr;
    return status;
  }

  CUptiResult set_attribute(CUpti_ActivityAttribute attribute, std::size_t value) override {
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
    if (enable_callback_ == nullptr || subscriber_ == nullptr) return CUPTI_ERROR_NOT_SUPPORTED;
    CUptiResult result = CUPTI_SUCCESS;
    const auto set = [&](CUpti_CallbackDomain domain, CUpti_CallbackId id) {
      const CUptiResult r = enable_callback_(on ? 1 : 0, subscriber_, domain, id);
      if (r != CUPTI_SUCCESS && result == CUPTI_SUCCESS) result = r;
    };
    for (const CUpti_CallbackId id : kRuntimeLaunches)
      set(CUPTI_CB_DOMAIN_RUNTIME_API, id);
    for (const CUpti_CallbackId id : kDriverLaunches)
      set(CUPTI_CB_DOMAIN_DRIVER_API, id);
    return result;
  }
  CUptiResult watch_profiler_api(ProfilerApiHandler handler, void* context) override {
    if (enable_callback_ == nullptr || subscriber_ == nullptr) return CUPTI_ERROR_NOT_SUPPORTED;
    launches_.profiler_context.store(context);
    launches_.profiler_handler.store(handler);
    const std::uint32_t on = handler != nullptr ? 1 : 0;
    CUptiResult result = enable_callback_(on, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API,
                                          CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    const CUptiResult stop = enable_callback_(on, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API,
                                              CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    return result != CUPTI_SUCCESS ? result : stop;
  }
  std::uint64_t launches_seen() override {
    return std::max(launches_.runtime.load(std::memory_order_relaxed),
                    launches_.driver.load(std::memory_order_relaxed));
  }
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
  CUpti_SubscriberHandle subscriber_ = nullptr;
  LaunchCounts launches_;
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
