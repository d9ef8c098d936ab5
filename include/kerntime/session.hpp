// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include <kerntime/export.hpp>
#include <kerntime/report.hpp>

namespace kerntime {

class ScopedTimer;

/// A region name registered with a Session. Timing through a Region skips the name lookup.
/// A Region belongs to the Session whose region() returned it: a ScopedTimer given the Region
/// of another Session throws kerntime::Error (ids alone would collide: every Session counts
/// its regions from 0).
class Region {
 public:
  std::uint32_t id() const { return id_; }

 private:
  friend class Session;
  friend class ScopedTimer;
  Region(std::uint32_t id, std::uint64_t session) : id_(id), session_(session) {}
  std::uint32_t id_;
  std::uint64_t session_;  // Session::Impl::serial of the owner, unique for the process
};

struct SessionOptions {
  /// Event pairs created for each device the session times on. When every pair is in flight,
  /// finished pairs are recycled (their results are read then); if none has finished, the next
  /// timer waits for the oldest one. Raise it if timers block where you expect none to.
  std::size_t event_pairs_per_device = 1024;
  /// Devices whose event pools are created in the constructor, so that the first timer on them
  /// creates nothing. Empty: the device current on the constructing thread. Other devices get
  /// their pool on first use.
  std::vector<int> devices;
  /// Open an NVTX range in the "kerntime" domain for each timed scope, so Nsight Systems shows
  /// the same names.
  bool nvtx_ranges = true;
  /// Have the GPU mark each scope's end in pinned host memory (a stream memory operation; about
  /// 2 us of host time per scope on an H200, docs/overhead.md), so that when a kernel faults the
  /// error names the scope it happened in. Off: a scope costs its two event records only, and a
  /// fault is reported without the scope's name.
  bool name_faulting_scopes = true;
};

/// Collects GPU-time samples per named region.
///
/// A Session owns pools of CUDA events, created up front and reused. Timers record events on
/// the user's stream and return at once; a sample is read only when results are asked for, or
/// when a pool must recycle an event pair. Timing never synchronizes the device on its own.
///
/// Thread-safe: any number of threads may time regions of one Session, on any streams and
/// devices. Samples of one region name aggregate across calls, streams and threads.
///
/// The times are GPU times between two events on one stream: everything enqueued on that stream
/// between them, plus the gap while a launch travels to the GPU (a few microseconds, which
/// matters for kernels under about 100 us; see docs/timing.md).
class Session {
 public:
  KERNTIME_API explicit Session(SessionOptions options = {});
  KERNTIME_API ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  /// Registers `name` (once) and returns its handle.
  KERNTIME_API Region region(std::string_view name);

  /// Times everything `callable` enqueues on `stream` under `name`; returns what it returns.
  template <class Callable>
  decltype(auto) time(std::string_view name, cudaStream_t stream, Callable&& callable);

  /// Waits for every timer in flight and turns it into a sample. Rethrows, as kerntime::Error,
  /// the first error that a timer's destructor could not throw; samples already read are kept.
  KERNTIME_API void resolve();

  /// Number of timers whose events have not been read yet.
  KERNTIME_API std::size_t in_flight() const;

  /// All samples of `name` in nanoseconds, resolving first; empty if the name is unknown.
  KERNTIME_API std::vector<double> samples(std::string_view name);

  /// A report of every region (in order of registration), resolving first.
  KERNTIME_API Report report();

  struct Impl;

 private:
  friend class ScopedTimer;
  std::unique_ptr<Impl> impl_;
};

/// Times, as GPU time on `stream`, everything enqueued between its construction and destruction:
///
///     { kerntime::ScopedTimer t{session, "saxpy", stream}; saxpy<<<g, b, 0, stream>>>(...); }
///
/// Neither constructor nor destructor synchronizes. The constructor throws kerntime::Error if the
/// start event cannot be recorded; errors in the destructor are kept by the Session and thrown by
/// its next resolve() or report().
class KERNTIME_API ScopedTimer {
 public:
  ScopedTimer(Session& session, std::string_view name, cudaStream_t stream = nullptr);
  ScopedTimer(Session& session, Region region, cudaStream_t stream = nullptr);
  ~ScopedTimer();
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  void open(cudaStream_t stream, const std::string_view* name);

  Session::Impl* session_;
  cudaStream_t stream_ = nullptr;
  std::uint64_t scope_id_ = 0;  // non-zero while a tracer observes this scope
  std::uint32_t region_ = 0;
  std::uint32_t slot_ = 0;
  int device_ = 0;
};

template <class Callable>
decltype(auto) Session::time(std::string_view name, cudaStream_t stream, Callable&& callable) {
  ScopedTimer timer{*this, name, stream};
  return std::forward<Callable>(callable)();
}

}  // namespace kerntime
