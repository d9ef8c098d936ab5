// SPDX-License-Identifier: Apache-2.0
// A stand-in for libcupti's subscriber slot, for the preload's test: the first cuptiSubscribe
// of the process gets the slot, every later one is refused as CUPTI refuses a second subscriber
// (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, 39).
#include <atomic>

extern "C" __attribute__((visibility("default"))) int cuptiSubscribe(void** subscriber, void*,
                                                                     void*) {
  static std::atomic<int> calls{0};
  if (calls.fetch_add(1) != 0) return 39;
  *subscriber = reinterpret_cast<void*>(0x1);
  return 0;
}
