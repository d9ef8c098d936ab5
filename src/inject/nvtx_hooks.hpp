// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include <nvtx3/nvToolsExt.h>

namespace kerntime::inject {

/// What the NVTX handlers report to: the running process's recorder and CUPTI, reached through
/// plain function pointers because NVTX calls C functions without user data.
struct NvtxSink {
  /// The id an NVTX range name is recorded under (RunRecorder::range_id).
  std::uint64_t (*range_id)(const char* domain, const char* name);
  /// The id a push/pop range is tagged with: range `range` opened inside the range path
  /// `parent` (0: none open on the thread) (RunRecorder::range_path).
  std::uint64_t (*range_path)(std::uint64_t parent, std::uint64_t range);
  /// Now, in CUPTI's clock; 0 when it cannot be read yet.
  std::uint64_t (*now_ns)();
  /// Tags the calling thread's launches with `id` until pop_tag (CUPTI external correlation).
  bool (*push_tag)(std::uint64_t id);
  void (*pop_tag)();
  void (*range)(std::uint64_t id, std::uint64_t start_ns, std::uint64_t end_ns);
  /// A range that opens or closes the capture window (--capture-range=nvtx:NAME).
  bool (*is_capture_range)(const char* name);
  void (*capture)(bool open, std::uint64_t now_ns);
};

/// The push/pop ranges open on the calling thread, as the path id its launches are tagged with
/// (RunRecorder::range_path); 0: none. Cheap enough for every launch.
std::uint64_t open_range_path() noexcept;

/// While idle, the handlers do no work of kerntime's (KERNTIME_RUN_COST_PHASES, cost_phases.hpp):
/// the ranges opened then are not recorded.
void set_nvtx_hooks_idle(bool idle) noexcept;

/// Installs kerntime's handlers for the NVTX range calls (push/pop and start/end, in the default
/// domain and in named domains, ASCII, wide and registered strings) into the calling module's
/// NVTX tables. Returns 0 when NVTX's export table is missing (NVTX then stays a no-op).
int install_nvtx_handlers(NvtxGetExportTableFunc_t get_export_table, const NvtxSink& sink);

}  // namespace kerntime::inject
