// SPDX-License-Identifier: Apache-2.0
// Which hardware channel ran each memset and kernel (docs/order-history.md): a CUPTI
// injection library, apart from kerntime, that records memsets and kernels with their stream,
// channel and times, and writes one line per record to KERNTIME_CHANNEL_READER_OUT:
//
//   kind start_ns end_ns stream_id channel_id channel_type bytes name
//
// kind is "memset" or "kernel" (bytes 0). bench/python/order_probe.py --channels runs a
// measurement sequence under it with kerntime's engine on events only, so CUPTI is this reader's.
//
//   CUDA_INJECTION64_PATH=build/gpu/bench/run/libkerntime_channel_reader_injection.so PROGRAM
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include <cupti.h>

#include "../cupti_buffer_free_list.hpp"
#include "../cupti_result.hpp"

namespace {

kerntime_bench::CuptiBufferFreeList buffers;
std::mutex out_mutex;
std::FILE* out = nullptr;

void CUPTIAPI requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  buffers.take(buffer, size, max_records);
}

void write(const CUpti_Activity* record) {
  if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
    std::fprintf(out, "memset %llu %llu %u %u %d %llu -\n",
                 static_cast<unsigned long long>(m->start), static_cast<unsigned long long>(m->end),
                 m->streamId, m->channelID, static_cast<int>(m->channelType),
                 static_cast<unsigned long long>(m->bytes));
  } else if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    std::fprintf(out, "kernel %llu %llu %u %u %d 0 %s\n", static_cast<unsigned long long>(k->start),
                 static_cast<unsigned long long>(k->end), k->streamId, k->channelID,
                 static_cast<int>(k->channelType), k->name != nullptr ? k->name : "?");
  }
}

void CUPTIAPI completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                        std::size_t valid) {
  {
    std::lock_guard lock{out_mutex};
    CUpti_Activity* record = nullptr;
    while (out != nullptr && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
      write(record);
  }
  buffers.give_back(buffer);
}

void at_exit() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard lock{out_mutex};
  if (out != nullptr) std::fclose(out);
  out = nullptr;
}

bool ok(CUptiResult result, const char* what) {
  return kerntime_bench::cupti_ok(result, "channel reader", what);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  const char* path = std::getenv("KERNTIME_CHANNEL_READER_OUT");
  out = std::fopen(path != nullptr ? path : "channels.txt", "w");
  if (out == nullptr) {
    std::fprintf(stderr, "channel reader: cannot write %s\n",
                 path != nullptr ? path : "channels.txt");
    return 1;
  }
  if (!ok(cuptiActivityRegisterCallbacks(&requested, &completed), "register callbacks")) return 1;
  ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "enable kernels");
  ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET), "enable memsets");
  std::atexit(&at_exit);
  return 1;
}
