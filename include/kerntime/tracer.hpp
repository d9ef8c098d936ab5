// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <kerntime/export.hpp>
#include <kerntime/trace.hpp>

namespace kerntime {

namespace detail {
struct TracerAccess;
}

/// What a Tracer records, and the buffers it records into.
struct TracerOptions {
  /// Runtime API calls (cudaLaunchKernel, cudaMemcpyAsync, ...): the launch records that tie
  /// kernels to host threads and to scopes.
  bool runtime_api = true;
  /// Driver API calls: launches through cuLaunchKernel (NVRTC, Triton, JIT) only have these.
  bool driver_api = true;
  bool memcpy = true;
  bool memset = true;
  bool synchronization = true;
  /// Tag every launch inside a kerntime::ScopedTimer with the scope (needs an API kind on).
  bool scopes = true;

  /// Host buffers CUPTI writes records into. A kernel record is about 220 bytes, so 8 MiB
  /// holds about 38,000 kernels. Buffers are recycled as soon as they are read.
  std::size_t buffer_bytes = std::size_t{8} << 20;
  /// Allocated and mapped into memory when the Tracer starts (32 MiB by default), so that
  /// CUPTI's writes into them take no page fault on the launching threads.
  std::size_t preallocated_buffers = 4;
  /// At most this many buffers exist; when all are full and unread, CUPTI drops records
  /// (counted in Trace::dropped_records).
  std::size_t max_buffers = 64;
  /// Read full buffers on a background thread while the program runs, so long runs need no
  /// more than a few buffers. Off: buffers are read by flush() only.
  bool background_reading = true;

  /// CUPTI's device-side buffer per context (0: CUPTI's default, 3.2 MB); takes effect only
  /// for contexts created after the Tracer starts.
  std::size_t device_buffer_bytes = 0;
  /// Device buffers CUPTI allocates up front per context (0: CUPTI's default). Raise it for
  /// long bursts: allocating more later stalls the launching thread.
  std::size_t device_buffers_preallocated = 0;

  /// flush() synchronizes every device with an active context before it forces CUPTI to
  /// hand over its records. Turn off only if you synchronize yourself.
  bool synchronize_on_flush = true;
};

/// Whether CUPTI, which a Tracer needs, loads in this process, and which library it is.
struct CuptiAvailability {
  bool loads = false;
  std::string path;     ///< the library file that was loaded
  int api_version = 0;  ///< the loaded library's CUPTI API version (e.g. 130001)
  std::string problem;  ///< why it does not load, in plain words; empty when it loads
};

/// Loads libcupti once per process, with the search a Tracer uses (KERNTIME_CUPTI_LIBRARY, the
/// CUPTI next to the loaded libcudart, then the loader's path), and says how that went. Starts
/// no tracing and never throws; `kerntime info` prints it.
KERNTIME_API CuptiAvailability cupti_availability();

/// The state of a Tracer.
enum class TracerStatus {
  active,       ///< recording
  unavailable,  ///< never started; unavailable_reason() says why
  stopped,      ///< stop() ran; records are kept
  /// Started, but a flush found launches and no kernel record: another CUPTI client in the
  /// process (a tool loaded through CUDA_INJECTION64_PATH, or a profiler such as torch.profiler)
  /// receives CUPTI's records. unavailable_reason() says so; time with cudaEvents instead.
  starved,
};

/// A CUPTI tracing session: records every kernel, copy, memset and launch call in the process
/// (including those of libraries such as cuBLAS), with GPU start and end times, and attributes
/// them to the kerntime scopes (ScopedTimer) open on the launching thread.
///
///     kerntime::Tracer tracer;            // early: before warmup, ideally before CUDA starts
///     ... run and time the work ...
///     tracer.flush();                     // synchronize, then collect every record
///     kerntime::Trace trace = tracer.trace();
///
/// CUPTI is optional: when it cannot be loaded, or another tool (Nsight Systems, Nsight
/// Compute, compute-sanitizer, another profiler) holds it, the Tracer is `unavailable`, says
/// why, and everything else in kerntime keeps working with cudaEvent timing. One Tracer can be
/// active per process at a time; it detaches on stop() or destruction, so another Tracer or
/// tool can attach later. Do not keep a Tracer in a static variable: it must stop before CUDA
/// shuts down.
///
/// Thread-safe: any thread may call any member; launches and scopes may come from any number
/// of threads, streams and devices.
class Tracer {
 public:
  /// Starts tracing. Never throws for CUPTI conditions (see status()); throws kerntime::Error
  /// for invalid options.
  KERNTIME_API explicit Tracer(TracerOptions options = {});
  /// Stops (see stop()); never throws.
  KERNTIME_API ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  KERNTIME_API TracerStatus status() const;
  bool active() const { return status() == TracerStatus::active; }
  /// Why the Tracer is unavailable or starved, in plain words; empty otherwise.
  KERNTIME_API std::string unavailable_reason() const;
  /// CUPTI's API version of the loaded library (e.g. 130001); 0 when none was loaded.
  KERNTIME_API int cupti_version() const;

  /// Synchronizes every device with an active context, then forces CUPTI to deliver all
  /// records, and reads them. Call it when no other thread is launching work: a forced flush
  /// with work in flight loses that work's timestamps. Throws kerntime::Error when the device
  /// synchronization fails (the records collected so far are kept). No-op unless active.
  KERNTIME_API void flush();

  /// Everything read so far, correlated and attributed. Call flush() first to include the
  /// latest work.
  KERNTIME_API Trace trace() const;

  /// Forgets the records read so far (for example those of a warmup); scopes stay known.
  KERNTIME_API void clear();

  /// flush(), then stops recording and releases CUPTI. Idempotent; records are kept.
  KERNTIME_API void stop();

 private:
  friend struct detail::TracerAccess;
  struct Impl;
  explicit Tracer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kerntime
