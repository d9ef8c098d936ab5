// SPDX-License-Identifier: Apache-2.0
#include "cupti/buffer_callbacks.hpp"

#include <atomic>
#include <cstdlib>
#include <thread>

#include "cupti/activity_session.hpp"

namespace kerntime::cupti {
namespace {

std::atomic<ActivitySession*> active_session{nullptr};
// Callbacks inside a session right now: detaching waits for them (sequentially consistent
// with the pointer, so a callback that saw the session has counted itself first).
std::atomic<int> callbacks_running{0};
constexpr std::size_t kOrphanBufferBytes = std::size_t{64} << 10;

}  // namespace

bool route_buffers_to(ActivitySession* session) noexcept {
  ActivitySession* expected = nullptr;
  return active_session.compare_exchange_strong(expected, session);
}

void stop_routing_buffers(ActivitySession* session) noexcept {
  ActivitySession* expected = session;
  active_session.compare_exchange_strong(expected, nullptr);
  while (callbacks_running.load() != 0)
    std::this_thread::yield();
}

void CUPTIAPI on_buffer_requested(std::uint8_t** buffer, std::size_t* size,
                                  std::size_t* max_records) {
  callbacks_running.fetch_add(1);
  if (ActivitySession* session = active_session.load()) {
    session->buffer_requested(buffer, size, max_records);
  } else {
    *buffer = static_cast<std::uint8_t*>(std::malloc(kOrphanBufferBytes));
    *size = *buffer != nullptr ? kOrphanBufferBytes : 0;
    *max_records = 0;
  }
  callbacks_running.fetch_sub(1);
}

void CUPTIAPI on_buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                                  std::size_t valid_bytes) {
  callbacks_running.fetch_add(1);
  ActivitySession* session = active_session.load();
  if (session == nullptr || !session->buffer_completed(buffer, valid_bytes)) std::free(buffer);
  callbacks_running.fetch_sub(1);
}

}  // namespace kerntime::cupti
