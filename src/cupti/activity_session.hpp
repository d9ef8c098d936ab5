// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <kerntime/trace.hpp>
#include <kerntime/tracer.hpp>

#include "cupti/buffer_pool.hpp"
#include "cupti/cupti_api.hpp"
#include "cupti/scope_tagger.hpp"
#include "trace/scope_table.hpp"
#include "trace/trace_builder.hpp"

namespace kerntime::cupti {

/// One CUPTI activity session, in the order CUPTI requires: subscribe, device buffer
/// attributes, buffer callbacks, enable; then flush (synchronize first, then force) and
/// read; finally disable and unsubscribe, so that another tool can attach later.
///
/// Locks: the buffer pool's lock is the only one CUPTI's callbacks take, and it is never held
/// across a CUPTI call. `control_` serializes start/flush/stop and may be held across CUPTI
/// calls because no callback ever takes it. `builder_mutex_` guards the record store and is
/// never held across a CUPTI call.
class ActivitySession {
 public:
  /// Waits for all work in flight; returns what failed, or an empty string.
  using Synchronize = std::function<std::string()>;

  ActivitySession(CuptiApi& api, const TracerOptions& options, Synchronize synchronize);
  /// stop(); never throws.
  ~ActivitySession();
  ActivitySession(const ActivitySession&) = delete;
  ActivitySession& operator=(const ActivitySession&) = delete;

  /// Where decoded records go instead of the session's own store (which trace() reads): a
  /// consumer that aggregates as they arrive, `kerntime run`'s recorder. Called on the reader
  /// thread or the flushing one, never with a CUPTI call in progress.
  class RecordSink {
   public:
    virtual ~RecordSink() = default;
    /// Takes one buffer's records; what it leaves in `batch` is cleared and its memory reused.
    virtual void records(trace::RecordBatch&& batch) = 0;
    virtual void dropped(std::uint64_t records) = 0;
    /// True once the sink keeps no more API, copy, memset or synchronization records (it
    /// counts them): they are then counted, not decoded.
    virtual bool counts_only() const { return false; }
  };
  /// Before start(); the sink must outlive the session.
  void send_records_to(RecordSink* sink) { sink_ = sink; }

  /// Before start(): the name CUPTI gives another tool that finds the subscriber slot taken.
  void set_subscriber_name(std::string name) { subscriber_name_ = std::move(name); }
  /// Before start(): what an unavailable or starved session means, ending each reason (a
  /// Tracer's: kernel tracing is off and times come from cudaEvents).
  void set_unavailable_consequence(std::string text) { consequence_ = std::move(text); }

  /// Starts recording. Returns an empty string, or why tracing is unavailable (in which case
  /// everything taken has been released again).
  std::string start();
  bool running() const { return running_.load(); }
  std::uint32_t cupti_version() const { return version_; }

  /// Synchronizes, forces CUPTI to deliver every record, reads them. Returns the
  /// synchronization failure (then only completed buffers were collected), or "".
  std::string flush();
  /// flush(), then disables every kind, unsubscribes and stops reading. Idempotent.
  std::string stop();

  Trace trace();
  void clear();

  /// The most host buffers of options.buffer_bytes that existed at once.
  std::size_t host_buffers_peak() const { return pool_.peak_allocated(); }

  /// Stops counting launches once kernel records have arrived (the watch has its answer), so
  /// launches no longer pay for the callback: for a session that flushes only at its end.
  void stop_watching_launches_if_records_arrive();

  /// Switches runtime and driver API records off for the rest of the session, and the external
  /// correlation records that can only tag them; true when API records were on. Every such record
  /// costs the launching thread host time, and a reader that only counts them past a point need not
  /// pay for them.
  bool stop_api_records();

  /// While held, the reader thread leaves completed buffers waiting, to read them all once
  /// released (KERNTIME_RUN_COST_PHASES: kerntime's threads idle for a phase). A flush or the
  /// session's end still reads them.
  void hold_reading(bool held) { reading_held_.store(held, std::memory_order_relaxed); }

  /// Why CUPTI delivers no records to this session although launches happen (another CUPTI
  /// client in the process receives them), once a flush has shown it; empty otherwise.
  std::string starved_reason();

  // CUPTI's buffer callbacks, reached through the process-wide trampolines.
  void buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records);
  bool buffer_completed(std::uint8_t* buffer, std::size_t valid_bytes);

 private:
  std::string flush_locked();
  void release() noexcept;
  /// Reads the completed buffers, decoding each into `batch` (its memory reused).
  void read_ready(trace::RecordBatch& batch);
  void read_ready() {
    trace::RecordBatch batch;
    read_ready(batch);
  }
  void read_in_background();
  void check_records_arrive();

  CuptiApi& api_;
  const TracerOptions options_;
  const Synchronize synchronize_;
  BufferPool pool_;
  trace::ScopeTable scopes_;
  std::unique_ptr<ScopeTagger> tagger_;

  std::string subscriber_name_ = "kerntime";
  std::string consequence_;

  std::mutex control_;
  std::atomic<bool> running_{false};
  bool claimed_ = false;  ///< this session is the one CUPTI's callbacks reach
  bool subscribed_ = false;
  std::vector<CUpti_ActivityKind> enabled_;
  std::uint32_t version_ = 0;

  std::mutex builder_mutex_;
  trace::TraceBuilder builder_;
  RecordSink* sink_ = nullptr;

  // The watch for another CUPTI client (check_records_arrive): launches are counted through
  // the callback API until the first kernel record arrives.
  bool watching_launches_ = false;
  std::atomic<std::uint64_t> kernels_received_{0};
  std::string starved_reason_;  // guarded by builder_mutex_

  std::atomic<bool> stop_reading_{false};
  std::atomic<bool> reading_held_{false};
  std::thread reader_;
};

}  // namespace kerntime::cupti
