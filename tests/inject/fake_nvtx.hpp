// SPDX-License-Identifier: Apache-2.0
// NVTX's injection interface without NVTX: an export table whose module function tables are
// plain arrays, so that kerntime's NVTX handlers can be installed into them and called as a
// program's NVTX calls would call them, with a sink that feeds a RunRecorder.
#pragma once

#include <atomic>
#include <cstdint>

#include <nvtx3/nvToolsExt.h>

#include "inject/nvtx_hooks.hpp"
#include "inject/run_recorder.hpp"

namespace kerntime::testing {

class FakeNvtx {
 public:
  /// Installs the handlers, feeding `recorder` (one FakeNvtx at a time: NVTX calls C functions).
  explicit FakeNvtx(inject::RunRecorder& recorder) {
    recorder_ = &recorder;
    for (unsigned i = 0; i < NVTX_CBID_CORE_SIZE; ++i) {
      core_[i] = &unset;
      core_table_[i] = &core_[i];
    }
    for (unsigned i = 0; i < NVTX_CBID_CORE2_SIZE; ++i) {
      core2_[i] = &unset;
      core2_table_[i] = &core2_[i];
    }
    inject::NvtxSink sink{};
    sink.range_id = [](const char* domain, const char* name) {
      return recorder_->range_id(domain, name);
    };
    sink.range_path = [](std::uint64_t parent, std::uint64_t range) {
      return recorder_->range_path(parent, range);
    };
    sink.now_ns = [] { return clock_.fetch_add(100) + 100; };
    sink.push_tag = [](std::uint64_t) { return true; };
    sink.pop_tag = [] {};
    sink.range = [](std::uint64_t id, std::uint64_t start, std::uint64_t end) {
      recorder_->add_range(id, start, end);
    };
    sink.is_capture_range = [](const char*) { return false; };
    sink.capture = [](bool, std::uint64_t) {};
    inject::install_nvtx_handlers(&export_table, sink);
  }

  /// The installed handler of `id` (an NVTX_CBID_CORE_ or, with `core2`, NVTX_CBID_CORE2_ id).
  template <class Function>
  static Function handler(unsigned id, bool core2 = false) {
    return reinterpret_cast<Function>(core2 ? core2_[id] : core_[id]);
  }

  int push(const char* name) const {
    return handler<int(NVTX_API*)(const char*)>(NVTX_CBID_CORE_RangePushA)(name);
  }
  int pop() const { return handler<int(NVTX_API*)()>(NVTX_CBID_CORE_RangePop)(); }
  /// The clock the hooks read: 100 ns further at each reading.
  static std::uint64_t now() { return clock_.load(); }

 private:
  static void unset() {}
  static int NVTX_API module_table(NvtxCallbackModule module, NvtxFunctionTable* out,
                                   unsigned int* size) {
    if (module == NVTX_CB_MODULE_CORE) {
      *out = core_table_;
      *size = NVTX_CBID_CORE_SIZE;
      return 1;
    }
    if (module == NVTX_CB_MODULE_CORE2) {
      *out = core2_table_;
      *size = NVTX_CBID_CORE2_SIZE;
      return 1;
    }
    return 0;
  }
  static const void* NVTX_API export_table(std::uint32_t id) {
    static const NvtxExportTableCallbacks callbacks{sizeof(NvtxExportTableCallbacks),
                                                    &module_table};
    return id == NVTX_ETID_CALLBACKS ? &callbacks : nullptr;
  }

  static inline inject::RunRecorder* recorder_ = nullptr;
  static inline std::atomic<std::uint64_t> clock_{1};
  static inline NvtxFunctionPointer core_[NVTX_CBID_CORE_SIZE] = {};
  static inline NvtxFunctionPointer* core_table_[NVTX_CBID_CORE_SIZE] = {};
  static inline NvtxFunctionPointer core2_[NVTX_CBID_CORE2_SIZE] = {};
  static inline NvtxFunctionPointer* core2_table_[NVTX_CBID_CORE2_SIZE] = {};
};

}  // namespace kerntime::testing
