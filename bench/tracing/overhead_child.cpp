// SPDX-License-Identifier: Apache-2.0
// One configuration of the overhead measurement, in a process of its own. Output, one line each:
//   sample <phase> <variant> <ns per launch>   phase "before" (nothing enabled yet) or "enabled"
//   enable_ns <ns>                             constructing the Tracer / enabling bare CUPTI
//   first_launch_ns <ns>                       the first launch + sync after enabling
//   records <kernels> <dropped>                what the tracer kept (kerntime only)
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include <cuda_runtime_api.h>

#include <kerntime/kerntime.hpp>

#include "bare_cupti.hpp"
#include "cuda_resources.hpp"
#include "kernels/spin.hpp"
#include "overhead.hpp"

namespace trace_examples {
namespace {

using Clock = std::chrono::steady_clock;

double ns_since(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// The three ways a launch is made. `open`/`close` wrap every scope: no-ops except in the bare
// baseline, where they do by hand what a Tracer does when a ScopedTimer opens and closes.
struct Launcher {
  kerntime::Session& session;
  kerntime::Region region;
  cudaStream_t stream;
  std::function<void()> open;
  std::function<void()> close;

  void plain(int launches) const {
    for (int i = 0; i < launches; ++i)
      kerntime::samples::launch_empty(stream);
  }
  void in_open_scope(int launches) const {
    open();
    {
      kerntime::ScopedTimer scope{session, region, stream};
      plain(launches);
    }
    close();
  }
  void scope_per_launch(int launches) const {
    for (int i = 0; i < launches; ++i) {
      open();
      {
        kerntime::ScopedTimer scope{session, region, stream};
        kerntime::samples::launch_empty(stream);
      }
      close();
    }
  }
};

const char* const kVariants[] = {"launch", "launch-in-open-scope", "scoped-timer-per-launch"};

// Variants interleaved batch by batch; the GPU is drained and the events read between batches,
// outside the timed window, so every batch starts from an idle stream and a full event pool.
void measure(const char* phase, const Launcher& launcher, const OverheadSettings& s) {
  for (int batch = 0; batch < s.batches; ++batch) {
    for (int variant = 0; variant < 3; ++variant) {
      const auto start = Clock::now();
      if (variant == 0) launcher.plain(s.launches);
      if (variant == 1) launcher.in_open_scope(s.launches);
      if (variant == 2) launcher.scope_per_launch(s.launches);
      const double per_launch = ns_since(start) / s.launches;
      check(cudaStreamSynchronize(launcher.stream), "cudaStreamSynchronize");
      launcher.session.resolve();
      std::printf("sample %s %s %.3f\n", phase, kVariants[variant], per_launch);
    }
  }
}

void warm_up(const Launcher& launcher) {
  launcher.plain(2000);
  launcher.in_open_scope(200);
  launcher.scope_per_launch(200);
  check(cudaStreamSynchronize(launcher.stream), "cudaStreamSynchronize");
  launcher.session.resolve();
}

// The first launch after enabling pays for CUPTI instrumenting code that is already loaded.
void first_launch(cudaStream_t stream) {
  const auto start = Clock::now();
  kerntime::samples::launch_empty(stream);
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::printf("first_launch_ns %.0f\n", ns_since(start));
}

}  // namespace

int run_overhead_child(const std::string& config, const OverheadSettings& settings) {
  kerntime::require_gpu();
  const Stream stream;
  kerntime::Session session;
  Launcher launcher{session, session.region("overhead"), stream.get(), [] {}, [] {}};
  warm_up(launcher);
  measure("before", launcher, settings);

  if (config == "untraced") {
    // The same work again at the same point of the process's life as the others' "enabled".
    warm_up(launcher);
    measure("enabled", launcher, settings);
    return 0;
  }
  if (config == "bare-cupti") {
    const auto start = Clock::now();
    BareCupti bare;
    std::printf("enable_ns %.0f\n", ns_since(start));
    first_launch(stream.get());
    std::uint64_t next_id = 1;
    launcher.open = [&] { bare.push(next_id++); };
    launcher.close = [&] { bare.pop(); };
    warm_up(launcher);
    measure("enabled", launcher, settings);
    bare.stop();
    std::printf("records 0 %llu\n", static_cast<unsigned long long>(bare.dropped_records()));
    return 0;
  }
  if (config == "kerntime") {
    const auto start = Clock::now();
    kerntime::Tracer tracer;
    std::printf("enable_ns %.0f\n", ns_since(start));
    if (!tracer.active()) {
      std::printf("error %s\n", tracer.unavailable_reason().c_str());
      return 3;
    }
    first_launch(stream.get());
    warm_up(launcher);
    measure("enabled", launcher, settings);
    tracer.flush();
    const kerntime::Trace trace = tracer.trace();
    std::printf("records %zu %llu\n", trace.kernels.size(),
                static_cast<unsigned long long>(trace.dropped_records));
    return 0;
  }
  std::printf("error unknown configuration %s\n", config.c_str());
  return 2;
}

}  // namespace trace_examples
