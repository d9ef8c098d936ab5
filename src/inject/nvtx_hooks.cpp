// SPDX-License-Identifier: Apache-2.0
// NVTX's injection interface: the first NVTX call of each module (executable or library) loads
// NVTX_INJECTION64_PATH and calls InitializeInjectionNvtx2, which fills that module's function
// tables. kerntime fills the range calls: ranges become scopes the way ScopedTimer's are.
#include "inject/nvtx_hooks.hpp"

#include <atomic>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <initializer_list>
#include <mutex>
#include <string>
#include <vector>

namespace kerntime::inject {
namespace {

NvtxSink g_sink{};

// Domain and registered-string handles are pointers to text that lives as long as the process:
// NVTX never says when a handle dies, and both are created a few times per program.
struct Domain {
  std::string name;
};
struct RegisteredString {
  std::string text;
};

// `text` in the locale's multibyte encoding, into `out` (whose capacity is kept).
void narrow_into(const wchar_t* text, std::string& out) {
  out.clear();
  if (text == nullptr) return;
  std::mbstate_t state{};
  const wchar_t* source = text;
  const std::size_t length = std::wcsrtombs(nullptr, &source, 0, &state);
  if (length == static_cast<std::size_t>(-1)) {
    out = "(unprintable)";
    return;
  }
  out.resize(length);
  source = text;
  std::wcsrtombs(out.data(), &source, length, &state);
}

std::string narrow(const wchar_t* text) {
  std::string out;
  narrow_into(text, out);
  return out;
}

// A wide name, narrowed into the thread's buffer: a thread that names its ranges in wide
// characters allocates only for a name longer than any before.
const char* narrow_here(const wchar_t* text) {
  thread_local std::string narrowed;
  narrow_into(text, narrowed);
  return narrowed.c_str();
}

// The name of a range as NVTX gives it, without a copy: NVTX's own text, or a registered
// string's. Valid until the thread's next NVTX call.
const char* message_text(const nvtxEventAttributes_t* attributes) {
  if (attributes == nullptr) return "";
  switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
      return attributes->message.ascii != nullptr ? attributes->message.ascii : "";
    case NVTX_MESSAGE_TYPE_UNICODE:
      return narrow_here(attributes->message.unicode);
    case NVTX_MESSAGE_TYPE_REGISTERED:
      if (attributes->message.registered == nullptr) return "";
      return reinterpret_cast<const RegisteredString*>(attributes->message.registered)
          ->text.c_str();
    default:
      return "";
  }
}

const char* domain_name(nvtxDomainHandle_t domain) {
  return domain == nullptr ? "" : reinterpret_cast<const Domain*>(domain)->name.c_str();
}

// One stack per thread for push/pop ranges, shared by every domain: a pop closes the innermost
// range of its own domain.
struct OpenRange {
  nvtxDomainHandle_t domain;
  std::uint64_t id;
  std::uint64_t path;  // the ranges open on the thread, this one innermost
  std::uint64_t start_ns;
  bool tagged;   // pushed as CUPTI's external correlation id
  bool capture;  // opened the capture window
};
thread_local std::vector<OpenRange> open_ranges;
// open_ranges.back().path, kept apart: a plain thread_local is read without its vector's
// initialization check inside every launch.
thread_local std::uint64_t t_open_path = 0;

// KERNTIME_RUN_COST_PHASES (cost_phases.hpp): the hooks do no work of kerntime's while set. A
// push still keeps its place on the stack, so that its pop closes the right range.
std::atomic<bool> g_idle{false};

int push(nvtxDomainHandle_t domain, const char* name) {
  if (g_idle.load(std::memory_order_relaxed)) {
    open_ranges.push_back({domain, 0, t_open_path, 0, false, false});
    return static_cast<int>(open_ranges.size()) - 1;
  }
  const std::uint64_t now = g_sink.now_ns();
  const std::uint64_t id = g_sink.range_id(domain_name(domain), name);
  const bool capture = g_sink.is_capture_range(name);
  if (capture) g_sink.capture(true, now);
  const std::uint64_t parent = open_ranges.empty() ? 0 : open_ranges.back().path;
  const std::uint64_t path = id != 0 ? g_sink.range_path(parent, id) : 0;
  const bool tagged = path != 0 && g_sink.push_tag(path);
  open_ranges.push_back({domain, id, path, now, tagged, capture});
  t_open_path = path;
  return static_cast<int>(open_ranges.size()) - 1;
}

int pop(nvtxDomainHandle_t domain) {
  for (auto it = open_ranges.rbegin(); it != open_ranges.rend(); ++it) {
    if (it->domain != domain) continue;
    const OpenRange range = *it;
    open_ranges.erase(std::next(it).base());
    t_open_path = open_ranges.empty() ? 0 : open_ranges.back().path;
    if (range.id == 0 && !range.tagged && !range.capture)
      return static_cast<int>(open_ranges.size());
    const std::uint64_t now = g_sink.now_ns();
    if (range.tagged) g_sink.pop_tag();
    if (range.id != 0 && range.start_ns != 0 && now != 0)
      g_sink.range(range.id, range.start_ns, now);
    if (range.capture) g_sink.capture(false, now);
    return static_cast<int>(open_ranges.size());
  }
  return -1;  // NVTX's answer for a pop without a push
}

// Start/end ranges may end on another thread, so they cannot tag launches (CUPTI's stacks are
// per thread): they are timed only. Their ids encode nothing; the open ones live here.
std::mutex started_mutex;
struct StartedRange {
  std::uint64_t handle;
  std::uint64_t id;
  std::uint64_t start_ns;
  bool capture;
};
std::vector<StartedRange> started_ranges;
std::uint64_t next_handle = 1;

nvtxRangeId_t start(nvtxDomainHandle_t domain, const char* name) {
  if (g_idle.load(std::memory_order_relaxed)) return 0;
  const std::uint64_t now = g_sink.now_ns();
  const std::uint64_t id = g_sink.range_id(domain_name(domain), name);
  const bool capture = g_sink.is_capture_range(name);
  if (capture) g_sink.capture(true, now);
  std::lock_guard lock{started_mutex};
  started_ranges.push_back({next_handle, id, now, capture});
  return next_handle++;
}

void end(nvtxRangeId_t handle) {
  if (handle == 0) return;  // started while idle
  StartedRange range{};
  {
    std::lock_guard lock{started_mutex};
    auto it = started_ranges.begin();
    while (it != started_ranges.end() && it->handle != handle)
      ++it;
    if (it == started_ranges.end()) return;
    range = *it;
    started_ranges.erase(it);
  }
  const std::uint64_t now = g_sink.now_ns();
  if (range.id != 0 && range.start_ns != 0 && now != 0) g_sink.range(range.id, range.start_ns, now);
  if (range.capture) g_sink.capture(false, now);
}

// The handlers NVTX calls, with NVTX's signatures. The three forms of a call that opens a
// range in the default domain: an ASCII message, a wide one, and event attributes.
template <typename Result, Result (*Open)(nvtxDomainHandle_t, const char*)>
struct DefaultDomain {
  static Result NVTX_API ascii(const char* message) {
    return Open(nullptr, message != nullptr ? message : "");
  }
  static Result NVTX_API wide(const wchar_t* message) {
    return Open(nullptr, narrow_here(message));
  }
  static Result NVTX_API attributes(const nvtxEventAttributes_t* attributes) {
    return Open(nullptr, message_text(attributes));
  }
};
using Push = DefaultDomain<int, &push>;
using Start = DefaultDomain<nvtxRangeId_t, &start>;

int NVTX_API pop_default() {
  return pop(nullptr);
}
void NVTX_API end_default(nvtxRangeId_t id) {
  end(id);
}
int NVTX_API domain_push_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  return push(domain, message_text(attributes));
}
int NVTX_API domain_pop(nvtxDomainHandle_t domain) {
  return pop(domain);
}
nvtxRangeId_t NVTX_API domain_start_ex(nvtxDomainHandle_t domain,
                                       const nvtxEventAttributes_t* attributes) {
  return start(domain, message_text(attributes));
}
void NVTX_API domain_end(nvtxDomainHandle_t, nvtxRangeId_t id) {
  end(id);
}
nvtxDomainHandle_t NVTX_API domain_create_a(const char* name) {
  return reinterpret_cast<nvtxDomainHandle_t>(new Domain{name != nullptr ? name : ""});
}
nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t* name) {
  return reinterpret_cast<nvtxDomainHandle_t>(new Domain{narrow(name)});
}
nvtxStringHandle_t NVTX_API register_string_a(nvtxDomainHandle_t, const char* text) {
  return reinterpret_cast<nvtxStringHandle_t>(new RegisteredString{text != nullptr ? text : ""});
}
nvtxStringHandle_t NVTX_API register_string_w(nvtxDomainHandle_t, const wchar_t* text) {
  return reinterpret_cast<nvtxStringHandle_t>(new RegisteredString{narrow(text)});
}

// One handler in a module's function table.
struct Hook {
  unsigned int id;
  NvtxFunctionPointer function;
};

template <typename Function>
Hook hook(unsigned int id, Function function) {
  return {id, reinterpret_cast<NvtxFunctionPointer>(function)};
}

// Installs `hooks` in `module`'s table, each only where NVTX has a slot for it.
void install(const NvtxExportTableCallbacks& callbacks, NvtxCallbackModule module,
             std::initializer_list<Hook> hooks) {
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (callbacks.GetModuleFunctionTable(module, &table, &size) == 0 || table == nullptr) return;
  for (const Hook& h : hooks) {
    if (h.id < size && table[h.id] != nullptr) *table[h.id] = h.function;
  }
}

}  // namespace

void set_nvtx_hooks_idle(bool idle) noexcept {
  g_idle.store(idle, std::memory_order_relaxed);
}

std::uint64_t open_range_path() noexcept {
  return t_open_path;
}

int install_nvtx_handlers(NvtxGetExportTableFunc_t get_export_table, const NvtxSink& sink) {
  if (get_export_table == nullptr) return 0;
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->GetModuleFunctionTable == nullptr) return 0;
  g_sink = sink;

  install(
      *callbacks, NVTX_CB_MODULE_CORE,
      {hook(NVTX_CBID_CORE_RangePushA, &Push::ascii), hook(NVTX_CBID_CORE_RangePushW, &Push::wide),
       hook(NVTX_CBID_CORE_RangePushEx, &Push::attributes),
       hook(NVTX_CBID_CORE_RangePop, &pop_default), hook(NVTX_CBID_CORE_RangeStartA, &Start::ascii),
       hook(NVTX_CBID_CORE_RangeStartW, &Start::wide),
       hook(NVTX_CBID_CORE_RangeStartEx, &Start::attributes),
       hook(NVTX_CBID_CORE_RangeEnd, &end_default)});
  install(*callbacks, NVTX_CB_MODULE_CORE2,
          {hook(NVTX_CBID_CORE2_DomainRangePushEx, &domain_push_ex),
           hook(NVTX_CBID_CORE2_DomainRangePop, &domain_pop),
           hook(NVTX_CBID_CORE2_DomainRangeStartEx, &domain_start_ex),
           hook(NVTX_CBID_CORE2_DomainRangeEnd, &domain_end),
           hook(NVTX_CBID_CORE2_DomainCreateA, &domain_create_a),
           hook(NVTX_CBID_CORE2_DomainCreateW, &domain_create_w),
           hook(NVTX_CBID_CORE2_DomainRegisterStringA, &register_string_a),
           hook(NVTX_CBID_CORE2_DomainRegisterStringW, &register_string_w)});
  return 1;
}

}  // namespace kerntime::inject
