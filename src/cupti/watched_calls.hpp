// SPDX-License-Identifier: Apache-2.0
// The CUDA calls kerntime's CUPTI callback watches, by callback id: which ones launch kernels or
// graphs, bracket a stream capture, synchronize, or are where a GPU fault surfaces, and the stream
// each one names in its parameters. The callback ids to enable are listed here too, so that the
// watch (launch_watch.hpp) and what it enables cannot disagree.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cupti.h>

namespace kerntime::cupti {

/// The last six are where a GPU fault surfaces (besides launches): a synchronization of the
/// device or of one stream (a successful one says what had finished), an event's record and its
/// synchronization or query (a successful one says the event's stream had finished what came
/// before the record) and its destruction (its record goes), a copy or memset (whose records find
/// their NVTX ranges by the call's correlation id, as a launch's kernels do), and others that only
/// fail.
enum class Call : std::uint8_t {
  other,
  kernel_launch,
  graph_launch,
  capture_begin,
  capture_end,
  device_sync,
  stream_sync,
  event_record,
  event_sync,
  event_destroy,
  copy,
  may_fault
};

struct Classified {
  Call call = Call::other;
  bool per_thread = false;  // a _ptsz entry point: a null stream is the per-thread default one
};

/// What a runtime or a driver call is to the watch; Call::other for every call it ignores.
Classified classify_runtime(CUpti_CallbackId id);
Classified classify_driver(CUpti_CallbackId id);

/// The stream a kernel or graph launch names, read from the call's parameters (valid while the
/// call runs); nullptr for the legacy default stream and for calls that are not launches.
const void* runtime_stream(CUpti_CallbackId id, const void* params);
const void* driver_stream(CUpti_CallbackId id, const void* params);

/// The stream a stream synchronization or query names (its parameters are the stream alone).
const void* synchronized_stream(const void* params);

/// The event an event record, synchronization, query or destruction names (its first
/// parameter, in both APIs); nullptr without parameters.
const void* named_event(const void* params);
/// The stream an event record names (its second parameter, in both APIs).
const void* recording_stream(const void* params);

/// One callback the watch needs enabled.
struct WatchedCallback {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId id;
};

/// Kernel and graph launches of both APIs, and the stream-capture calls that bracket launches
/// which run nothing.
const WatchedCallback* launch_callbacks(std::size_t& count);

/// The calls a GPU fault surfaces in, besides launches: device, stream and event
/// synchronizations and queries, event records, copies and memsets of both APIs
/// (CuptiApi::watch_api_results).
const WatchedCallback* result_callbacks(std::size_t& count);

}  // namespace kerntime::cupti
