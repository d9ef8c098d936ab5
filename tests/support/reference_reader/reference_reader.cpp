// SPDX-License-Identifier: Apache-2.0
// An independent, minimal CUPTI kernel reader: the check that `kerntime run`'s counts and times
// are right, and the floor its cost is measured against. It shares no code with kerntime (not
// its cupti/, trace/ or inject/ layers), enables only CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, and
// writes every kernel record as one TSV line:
//
//   CUDA_INJECTION64_PATH=libkerntime_reference_reader.so KERNTIME_REFERENCE_OUT=PREFIX PROGRAM
//
// appends `start_ns end_ns device_id stream_id correlation_id graph_id demangled_name` lines
// (tab-separated) to PREFIX.PID.tsv, one file per process that starts CUDA, created at cuInit.
//
// A process that ends by _exit or os._exit right after a synchronize loses nothing: completed
// buffers are flushed at the exit of every synchronizing API call
// (KERNTIME_REFERENCE_FLUSH_AT_SYNC=0 turns that off: then only CUPTI's own thread writes, when a
// buffer fills, and the exit handler; for measuring what CUPTI's kernel tracing costs a program
// that synchronizes every step, without the reader's own writing on its thread). Not counted:
// kernels still running when a process ends without synchronizing, and kernels that completed after
// the last synchronize of a process killed by a signal. A child made by fork() alone (not exec)
// writes nothing: it holds copies of its parent's buffers, and CUDA cannot be used in it.
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

#include <cupti.h>

#include "reference_line.hpp"

namespace {

// CUPTI fills the newest layout of its headers; the fields read here have kept their offsets
// since CUpti_ActivityKernel5 (graphId came with it).
#if CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
#else
using KernelRecord = CUpti_ActivityKernel5;
#endif

constexpr std::size_t kBufferBytes = std::size_t{8} << 20;

std::mutex buffers_mutex;
std::vector<std::uint8_t*> free_buffers;

// Guards the name cache, the line buffer and the file: CUPTI delivers buffers from its own
// thread and, at a flush, from the flushing thread.
std::mutex output_mutex;
// CUPTI shares one name string among all records of a kernel: keyed by its address, checked
// against a copy in case a module's strings were freed and the address reused.
struct CachedName {
  std::string mangled;
  std::string demangled;
};
std::unordered_map<const char*, CachedName> names;
std::string lines;
int out_fd = -1;
std::uint64_t dropped_total = 0;

// Set in a child made by fork(): its buffers are copies of the parent's.
volatile bool inert = false;

void report(const char* what, CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "reference reader: %s: %s\n", what, text != nullptr ? text : "?");
}

const std::string& demangled(const char* name) {
  static const std::string unnamed = reference_reader::demangle(nullptr);
  if (name == nullptr) return unnamed;
  auto found = names.find(name);
  if (found == names.end() || found->second.mangled != name) {
    found = names.insert_or_assign(name, CachedName{name, reference_reader::demangle(name)}).first;
  }
  return found->second.demangled;
}

void write_all(const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(out_fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::fprintf(stderr, "reference reader: writing its records failed: %s\n",
                   std::strerror(errno));
      return;
    }
    done += static_cast<std::size_t>(n);
  }
}

void CUPTIAPI requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  {
    std::lock_guard lock{buffers_mutex};
    if (!free_buffers.empty()) {
      *buffer = free_buffers.back();
      free_buffers.pop_back();
    } else {
      *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    }
  }
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer, std::size_t,
                        std::size_t valid) {
  if (!inert && out_fd >= 0) {
    std::lock_guard lock{output_mutex};
    lines.clear();
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
      if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
          record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
        continue;
      const auto* kernel = reinterpret_cast<const KernelRecord*>(record);
      reference_reader::append_line(lines,
                                    {kernel->start, kernel->end, kernel->deviceId, kernel->streamId,
                                     kernel->correlationId, kernel->graphId},
                                    demangled(kernel->name));
    }
    write_all(lines);
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS &&
        dropped > 0) {
      dropped_total += dropped;
      std::fprintf(stderr, "reference reader: CUPTI dropped %zu records (%llu in all)\n", dropped,
                   static_cast<unsigned long long>(dropped_total));
    }
  }
  std::lock_guard lock{buffers_mutex};
  free_buffers.push_back(buffer);
}

// Flushing is allowed from API callbacks (not from buffer callbacks): at the exit of a
// synchronize, every buffer whose records are complete goes out, so a process that then ends
// by _exit has written them.
void CUPTIAPI on_api(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void* data) {
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  if (!inert && info->callbackSite == CUPTI_API_EXIT) cuptiActivityFlushAll(0);
}

void at_exit() {
  if (!inert) cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

void in_fork_child() {
  inert = true;
}

constexpr CUpti_CallbackId kRuntimeSyncs[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020,
};
constexpr CUpti_CallbackId kDriverSyncs[] = {
    CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
#if CUPTI_API_VERSION >= 130000
    CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2,
#endif
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize,
};

CUpti_SubscriberHandle subscriber = nullptr;

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  const char* prefix = std::getenv("KERNTIME_REFERENCE_OUT");
  if (prefix == nullptr || *prefix == '\0') {
    std::fprintf(stderr,
                 "reference reader: set KERNTIME_REFERENCE_OUT to the output prefix; "
                 "recording nothing\n");
    return 1;
  }
  // Opened first, so that no record can come before the file; removed if CUPTI refuses. The
  // file exists from cuInit on, so an empty file means "ran, recorded no kernel".
  const std::string path = std::string{prefix} + "." + std::to_string(getpid()) + ".tsv";
  out_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (out_fd < 0) {
    std::fprintf(stderr, "reference reader: cannot open %s (recording nothing): %s\n", path.c_str(),
                 std::strerror(errno));
    return 1;
  }
  const auto give_up = [&](const char* what, CUptiResult result) {
    report(what, result);
    ::close(out_fd);
    out_fd = -1;
    ::unlink(path.c_str());
    return 1;
  };
  CUptiResult result = cuptiSubscribe(&subscriber, &on_api, nullptr);
  if (result != CUPTI_SUCCESS) return give_up("cuptiSubscribe (recording nothing)", result);
  const char* at_sync = std::getenv("KERNTIME_REFERENCE_FLUSH_AT_SYNC");
  if (at_sync == nullptr || std::strcmp(at_sync, "0") != 0) {
    for (const CUpti_CallbackId id : kRuntimeSyncs)
      cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
    for (const CUpti_CallbackId id : kDriverSyncs)
      cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  }
  result = cuptiActivityRegisterCallbacks(&requested, &completed);
  if (result == CUPTI_SUCCESS) result = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (result != CUPTI_SUCCESS)
    return give_up("enabling kernel records (recording nothing)", result);
  pthread_atfork(nullptr, nullptr, &in_fork_child);
  std::atexit(&at_exit);
  return 1;
}
