// SPDX-License-Identifier: Apache-2.0
// CUPTI's buffer callbacks are plain functions without user data, so they reach the active
// session through one process-wide pointer; this file owns that pointer.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cupti.h>

namespace kerntime::cupti {

class ActivitySession;

/// Makes `session` the one the callbacks reach; false when another session holds them.
bool route_buffers_to(ActivitySession* session) noexcept;
/// Stops routing to `session` and returns once no callback is still inside it.
void stop_routing_buffers(ActivitySession* session) noexcept;

/// What to register with cuptiActivityRegisterCallbacks. Without a session (CUPTI handing back
/// a buffer after its session ended), a request still gets a small buffer, because refusing
/// one crashes older CUPTI, and a completed buffer is freed.
void CUPTIAPI on_buffer_requested(std::uint8_t** buffer, std::size_t* size,
                                  std::size_t* max_records);
void CUPTIAPI on_buffer_completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer,
                                  std::size_t size, std::size_t valid_bytes);

}  // namespace kerntime::cupti
