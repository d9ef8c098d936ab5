// SPDX-License-Identifier: Apache-2.0
#include "bench/cuda_source.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <fmt/core.h>

#include <kerntime/error.hpp>
#include <kerntime/tracer.hpp>

#include "bench/cupti_spans.hpp"
#include "bench/engine_kernels.hpp"
#include "bench/phase_padding.hpp"
#include "cuda/cuda_check.hpp"
#include "events/scope_listener.hpp"

namespace kerntime::bench {
namespace {

using cuda::check_cuda;
using Clock = std::chrono::steady_clock;

// Samples queued at once: the GPU runs one while the host queues the next. Each sample is
// still released only after all of its work is queued, so the cold property holds.
constexpr std::size_t kDepth = 2;
// The blocking kernel spins at least this long, so the clock check always has a window of a
// few microseconds to read the SM clock over, whatever the host's speed.
constexpr std::uint64_t kMinWindowNs = 5'000;
constexpr std::uint64_t kMinClockWindowNs = 4'000;
constexpr std::size_t kHotBatchCap = 64;
constexpr std::size_t kGraphBatchCap = 4096;
constexpr double kMinEstimateNs = 500.0;
constexpr double kPowerReadingInterval_s = 1e-3;

double since_ns(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::nano>(to - from).count();
}

}  // namespace

CudaSampleSource::CudaSampleSource(DeviceResources& resources, const Launcher& launcher,
                                   CudaSourceSettings settings)
    : res_(resources),
      launcher_(launcher),
      settings_(std::move(settings)),
      tracer_(settings_.tracer),
      use_blocking_(settings_.blocking_kernel),
      blocking_(settings_.blocking_kernel),
      flush_(settings_.mode == MeasureMode::cold && settings_.l2_flush &&
             resources.flush_bytes() > 0),
      timeout_ns_(static_cast<std::uint64_t>(settings_.blocking_timeout_s * 1e9)) {
  if (flush_) res_.flush_buffer();
  if (use_blocking_) res_.load_engine_kernels();
}

CudaSampleSource::~CudaSampleSource() {
  drain();
  if (graph_ != nullptr) cudaGraphExecDestroy(graph_);
}

void CudaSampleSource::drain() noexcept {
  res_.release_issued();
  cudaStreamSynchronize(res_.stream());
  (void)cudaGetLastError();
}

double CudaSampleSource::now_s() const {
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

void CudaSampleSource::pause(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

std::vector<std::string> CudaSampleSource::take_warnings() {
  std::vector<std::string> out;
  out.swap(warnings_);
  return out;
}

double CudaSampleSource::call_setup() {
  if (settings_.setup == nullptr || !*settings_.setup) return 0.0;
  const Clock::time_point begin = Clock::now();
  try {
    (*settings_.setup)(res_.stream());
  } catch (...) {
    drain();
    throw;
  }
  return since_ns(begin, Clock::now());
}

void CudaSampleSource::call_payload() {
  if (graph_ != nullptr) {
    cuda::check_cuda(cudaGraphLaunch(graph_, res_.stream()), "cudaGraphLaunch (benchmark batch)");
    return;
  }
  for (std::size_t i = 0; i < batch_; ++i)
    launcher_(res_.stream());
}

void CudaSampleSource::flush_l2(std::uint64_t seq) {
  using Flush = CudaSourceSettings::Flush;
  const std::uint8_t value = settings_.flush == Flush::constant
                                 ? std::uint8_t{0x5a}
                                 : static_cast<std::uint8_t>(seq & 0xff);
  if (settings_.flush == Flush::kernel) {
    cuda::check_cuda(
        launch_flush_kernel(res_.flush_buffer(), res_.flush_bytes(), value, res_.stream()),
        "launching the L2 flush kernel");
  } else if (settings_.flush == Flush::read) {
    cuda::check_cuda(
        launch_flush_read_kernel(res_.flush_buffer(), res_.flush_bytes(), res_.stream()),
        "launching the L2 flush kernel (loads)");
  } else {
    cuda::check_cuda(cudaMemsetAsync(res_.flush_buffer(), value, res_.flush_bytes(), res_.stream()),
                     "cudaMemsetAsync (L2 flush)");
  }
}

void CudaSampleSource::pad(std::uint64_t seq) {
  for (unsigned i = padding_launches(seq); i > 0; --i) {
    cuda::check_cuda(launch_floor_kernel(res_.stream()), "launching the floor kernel (padding)");
  }
}

CudaSampleSource::Pending CudaSampleSource::enqueue(bool release) {
  const Clock::time_point begin = Clock::now();
  const cudaStream_t stream = res_.stream();
  Pending p;
  p.seq = res_.next_seq();
  // Before the flush (so the timed call still finds a cold L2) and before the blocking kernel
  // (so nothing holds the stream while it runs): outside the timed window in every mode.
  const double setup_ns = call_setup();
  const bool flush_after_block = settings_.flush == CudaSourceSettings::Flush::after_block;
  if (flush_ && !flush_after_block) flush_l2(p.seq);
  if (use_blocking_) {
    // Without the blocking kernel (after a timeout) the sample is released before it is
    // queued; the kernel still runs, as the start of the clock window.
    if (!blocking_) res_.release(p.seq);
    cuda::check_cuda(launch_blocking_kernel(res_.mapped_control(), res_.starts(), p.seq,
                                            kMinWindowNs, timeout_ns_, stream),
                     "launching the blocking kernel");
  }
  if (flush_ && flush_after_block) flush_l2(p.seq);
  if (use_blocking_ && settings_.phase_padding) pad(p.seq);
  cuda::check_cuda(cudaEventRecord(res_.start_event(p.seq), stream),
                   "cudaEventRecord (sample start)");
  events::ScopeListener* listener = tracer_ != nullptr ? events::scope_listener() : nullptr;
  if (listener != nullptr) {
    p.scope = events::next_scope_id();
    listener->scope_begin(p.scope, settings_.scope_name);
  }
  const Clock::time_point call = Clock::now();
  try {
    call_payload();
  } catch (...) {
    if (listener != nullptr) listener->scope_end(p.scope);
    drain();
    throw;
  }
  const Clock::time_point called = Clock::now();
  if (listener != nullptr) listener->scope_end(p.scope);
  cuda::check_cuda(cudaEventRecord(res_.stop_event(p.seq), stream),
                   "cudaEventRecord (sample stop)");
  if (use_blocking_) {
    cuda::check_cuda(launch_clock_check(res_.mapped_control(), res_.starts(), p.seq,
                                        res_.clock_blocks(), stream),
                     "launching the clock check kernel");
  }
  cuda::check_cuda(cudaEventRecord(res_.done_event(p.seq), stream),
                   "cudaEventRecord (sample done)");
  if (use_blocking_ && release) res_.release(p.seq);
  p.host_ns = since_ns(begin, Clock::now()) - since_ns(call, called) - setup_ns;
  return p;
}

RawSample CudaSampleSource::complete(const Pending& p) {
  // The done event follows the clock check, so the slot's report is complete once it fired.
  cuda::check_cuda(cudaEventSynchronize(res_.done_event(p.seq)), "cudaEventSynchronize (sample)");
  const Clock::time_point begin = Clock::now();
  float ms = 0.0f;
  cuda::check_cuda(cudaEventElapsedTime(&ms, res_.start_event(p.seq), res_.stop_event(p.seq)),
                   "cudaEventElapsedTime (sample)");
  const SlotReport report = res_.report(p.seq);
  RawSample s;
  s.event_ns = static_cast<double>(ms) * 1e6 / static_cast<double>(batch_);
  s.valid = report.timed_out_seq != p.seq;
  if (report.clock_seq == p.seq && report.ns >= kMinClockWindowNs) {
    s.sm_clock_mhz = static_cast<double>(report.cycles) / static_cast<double>(report.ns) * 1e3;
  }
  // NVML's state changes over milliseconds (its power draw is an average), while samples of a
  // short kernel complete every few microseconds: one reading a millisecond serves them all,
  // so the queries (some microseconds each) stay a small share of the host's work.
  if (res_.power().available()) {
    const double now = now_s();
    if (power_read_s_ < 0.0 || now - power_read_s_ >= kPowerReadingInterval_s) {
      power_ = res_.power().read();
      power_read_s_ = now;
    }
    if (power_) {
      s.clock_event_reasons = power_->clock_event_reasons;
      s.power_w = power_->power_w;
    }
  }
  if (!s.valid && blocking_) {
    blocking_ = false;
    warnings_.push_back(fmt::format(
        "the blocking kernel gave up after {:g} s holding the stream: the launcher probably "
        "waits for the GPU (cudaDeviceSynchronize, cudaStreamSynchronize, a blocking cudaMemcpy "
        "or cudaFree) or queued more launches than the stream holds; the sample is invalid and "
        "the rest run without the blocking kernel, so their event times include launch gaps. "
        "Make the launcher only enqueue work on the stream it is given",
        settings_.blocking_timeout_s));
  }
  s.host_overhead_ns = p.host_ns + since_ns(begin, Clock::now());
  return s;
}

std::vector<RawSample> CudaSampleSource::take_samples(std::size_t count, bool attach) {
  std::vector<RawSample> out(count);
  std::vector<std::uint64_t>& scopes = last_scopes_;
  scopes.assign(count, 0);
  Pending pending[kDepth];
  std::size_t issued = 0;
  const bool quiet = settings_.quiet_host && use_blocking_;
  try {
    for (std::size_t done = 0; done < count; ++done) {
      while (issued < count && issued - done < kDepth) {
        pending[issued % kDepth] = enqueue(!quiet);
        scopes[issued] = pending[issued % kDepth].scope;
        ++issued;
      }
      // Quiet: the next sample is queued and held, so while this one runs the host writes
      // nothing to the GPU's queue; it only waits.
      if (quiet) res_.release(pending[done % kDepth].seq);
      out[done] = complete(pending[done % kDepth]);
    }
  } catch (...) {
    drain();
    throw;
  }
  if (tracer_ != nullptr && attach) attach_cupti(out, scopes);
  return out;
}

std::vector<RawSample> CudaSampleSource::take(std::size_t count) {
  return take_samples(count, true);
}

void CudaSampleSource::attach_cupti(std::vector<RawSample>& samples,
                                    const std::vector<std::uint64_t>& scopes) {
  tracer_->flush();
  const Trace trace = tracer_->trace();
  tracer_->clear();
  if (trace.dropped_records > 0) {
    warnings_.push_back(
        fmt::format("CUPTI dropped {} records for lack of buffer space; samples "
                    "without a record are left out",
                    trace.dropped_records));
  }
  const std::vector<std::optional<ScopeTime>> times = scope_times(trace, scopes);
  std::size_t missing = 0;
  const auto per_call = [&](double ns) { return ns / static_cast<double>(batch_); };
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (times[i]) {
      samples[i].cupti_ns = per_call(times[i]->span_ns);
      samples[i].cupti_sum_ns = per_call(times[i]->sum_ns);
      samples[i].cupti_activities = per_call(static_cast<double>(times[i]->activities));
    } else if (samples[i].valid) {
      ++missing;
    }
  }
  missing_cupti_ += missing;
  if (missing > 0) {
    warnings_.push_back(fmt::format("{} of {} samples got no CUPTI record and are left out",
                                    missing, samples.size()));
  }
}

void CudaSampleSource::choose_batch() {
  if (settings_.mode == MeasureMode::cold || settings_.run_once) return;
  if (settings_.batch_size > 0) {
    batch_ = settings_.batch_size;
    return;
  }
  // A few single-call samples behind the blocking kernel estimate one call's GPU time.
  const std::vector<RawSample> probe = take_samples(3, false);
  double estimate = 0.0;
  for (const RawSample& s : probe) {
    if (!s.valid) continue;
    const double t = s.event_ns - settings_.floor_ns;
    estimate = estimate == 0.0 ? t : std::min(estimate, t);
  }
  estimate = std::max(estimate, kMinEstimateNs);
  const std::size_t cap = settings_.mode == MeasureMode::hot ? kHotBatchCap : kGraphBatchCap;
  const double wanted = std::ceil(settings_.batch_target_s * 1e9 / estimate);
  batch_ = static_cast<std::size_t>(std::clamp(wanted, 1.0, static_cast<double>(cap)));
}

void CudaSampleSource::capture_graph() {
  const cudaStream_t stream = res_.stream();
  cuda::check_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal),
                   "cudaStreamBeginCapture (graph mode)");
  cudaGraph_t graph = nullptr;
  try {
    for (std::size_t i = 0; i < batch_; ++i)
      launcher_(stream);
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);
    if (graph != nullptr) cudaGraphDestroy(graph);
    (void)cudaGetLastError();
    throw;
  }
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  cuda::check_cuda(
      ended, "cudaStreamEndCapture (graph mode)",
      "The launcher could not be captured into a CUDA graph: in graph mode it must only "
      "enqueue work on the stream it is given (no synchronization, allocation or host "
      "copies). Measure it in cold or hot mode instead.");
  const cudaError_t made = cudaGraphInstantiate(&graph_, graph, 0);
  cudaGraphDestroy(graph);
  cuda::check_cuda(made, "cudaGraphInstantiate (graph mode)");
  cuda::check_cuda(cudaGraphUpload(graph_, stream), "cudaGraphUpload (graph mode)");
}

std::size_t CudaSampleSource::warm_up(std::size_t samples, double min_seconds) {
  // The first call runs with nothing held: lazy module loading, JIT or a first-use allocation
  // inside it would deadlock behind the blocking kernel. Without the blocking kernel, one
  // sample is the launcher's only call.
  if (!(settings_.run_once && !use_blocking_)) {
    call_setup();
    try {
      launcher_(res_.stream());
    } catch (...) {
      drain();
      throw;
    }
    cuda::check_cuda(cudaStreamSynchronize(res_.stream()),
                     "cudaStreamSynchronize (after the launcher's first call)",
                     "The launcher's first call failed on the GPU; run it alone to see why.");
  }
  choose_batch();
  if (settings_.mode == MeasureMode::graph) {
    capture_graph();
    if (!settings_.run_once) {
      call_setup();
      cuda::check_cuda(cudaGraphLaunch(graph_, res_.stream()), "cudaGraphLaunch (warm-up)");
      cuda::check_cuda(cudaStreamSynchronize(res_.stream()),
                       "cudaStreamSynchronize (graph warm-up)");
    }
  }
  // With CUPTI, at least one warm-up sample shows whether the launcher's work gets records
  // (not when measuring once: then the one sample is all there is).
  const std::size_t count =
      settings_.run_once ? 0 : std::max<std::size_t>(samples, tracer_ != nullptr ? 1 : 0);
  if (count == 0) return 0;
  const double begin = now_s();
  take_samples(count, false);
  std::size_t taken = count;
  // Up to the minimum time, in rounds that double, so that a long kernel takes few and a
  // short one does not pay a host round trip per sample.
  for (std::size_t round = 1; samples > 0 && now_s() - begin < min_seconds; round *= 2) {
    take_samples(round, false);
    taken += round;
  }
  if (tracer_ == nullptr) return taken;
  tracer_->flush();
  const Trace trace = tracer_->trace();
  tracer_->clear();
  const std::vector<std::optional<ScopeTime>> spans = scope_times(trace, last_scopes_);
  if (tracer_->status() == TracerStatus::starved) {
    warnings_.push_back("the headline is the event time: " + tracer_->unavailable_reason());
    tracer_ = nullptr;
  } else if (std::none_of(spans.begin(), spans.end(),
                          [](const auto& s) { return s.has_value(); })) {
    tracer_ = nullptr;
    warnings_.push_back(
        "CUPTI recorded no kernel, copy or memset of the launcher in the warm-up (is its work "
        "launched from another thread?), so the headline is the event time");
  }
  return taken;
}

}  // namespace kerntime::bench
