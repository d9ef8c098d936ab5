// SPDX-License-Identifier: Apache-2.0
// Host overhead of a timed scope: how much longer the host takes to enqueue an empty kernel
// inside a kerntime::ScopedTimer than without one. Variants run interleaved, batch by batch, so
// clock and load drift hit all of them alike; each sample is one batch's mean per launch.
//
//   scope_overhead [launches_per_batch=200] [batches=200]
//
// Results and the command are recorded in docs/overhead.md.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <kerntime/kerntime.hpp>

#include "kernels/spin.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Variant {
  std::string name;
  std::function<void()> launch;  // one launch, timed or not
  std::vector<double> per_launch_ns;
};

}  // namespace

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 200;
  const int batches = argc > 2 ? std::atoi(argv[2]) : 200;
  if (launches <= 0 || batches <= 0) {
    std::fprintf(stderr, "scope_overhead: usage: scope_overhead [launches>0] [batches>0]\n");
    return 2;
  }
  try {
    kerntime::require_gpu();
    cudaStream_t stream = nullptr;
    if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
      std::fprintf(stderr, "scope_overhead: cudaStreamCreate failed\n");
      return 1;
    }
    kerntime::Session session;
    kerntime::SessionOptions no_nvtx_options;
    no_nvtx_options.nvtx_ranges = false;
    kerntime::Session session_no_nvtx{no_nvtx_options};
    kerntime::SessionOptions no_flags_options;
    no_flags_options.name_faulting_scopes = false;
    kerntime::Session session_no_flags{no_flags_options};
    const kerntime::Region region = session.region("empty/region");

    std::vector<Variant> variants;
    variants.push_back({"untimed launch", [&] { kerntime::samples::launch_empty(stream); }, {}});
    variants.push_back({"ScopedTimer(name)",
                        [&] {
                          kerntime::ScopedTimer t{session, "empty/name", stream};
                          kerntime::samples::launch_empty(stream);
                        },
                        {}});
    variants.push_back({"ScopedTimer(Region)",
                        [&] {
                          kerntime::ScopedTimer t{session, region, stream};
                          kerntime::samples::launch_empty(stream);
                        },
                        {}});
    variants.push_back({"ScopedTimer, no NVTX",
                        [&] {
                          kerntime::ScopedTimer t{session_no_nvtx, "empty/no-nvtx", stream};
                          kerntime::samples::launch_empty(stream);
                        },
                        {}});
    variants.push_back({"ScopedTimer, no fault naming",
                        [&] {
                          kerntime::ScopedTimer t{session_no_flags, "empty/no-flags", stream};
                          kerntime::samples::launch_empty(stream);
                        },
                        {}});
    // The floor any event timer pays: two raw records around the launch.
    cudaEvent_t raw_start = nullptr;
    cudaEvent_t raw_stop = nullptr;
    cudaEventCreate(&raw_start);
    cudaEventCreate(&raw_stop);
    variants.push_back({"two cudaEventRecord (reference)",
                        [&] {
                          cudaEventRecord(raw_start, stream);
                          kerntime::samples::launch_empty(stream);
                          cudaEventRecord(raw_stop, stream);
                        },
                        {}});

    // Warm-up: module load, event pools, NVTX initialization.
    for (auto& v : variants) {
      for (int i = 0; i < 100; ++i)
        v.launch();
    }
    cudaStreamSynchronize(stream);
    session.resolve();
    session_no_nvtx.resolve();
    session_no_flags.resolve();

    for (int batch = 0; batch < batches; ++batch) {
      for (auto& v : variants) {
        const auto begin = Clock::now();
        for (int i = 0; i < launches; ++i)
          v.launch();
        const auto end = Clock::now();
        v.per_launch_ns.push_back(std::chrono::duration<double, std::nano>(end - begin).count() /
                                  launches);
        // Outside the measured window: drain the GPU and read the events, so every batch
        // starts from an idle stream and a full event pool.
        cudaStreamSynchronize(stream);
        session.resolve();
        session_no_nvtx.resolve();
        session_no_flags.resolve();
      }
    }

    kerntime::Report report;
    report.environment = kerntime::current_environment({0});
    for (auto& v : variants) {
      kerntime::Entry entry;
      entry.name = v.name;
      entry.timer = "host";
      entry.samples = v.per_launch_ns;
      entry.statistics = kerntime::compute_statistics(entry.samples);
      report.entries.push_back(std::move(entry));
    }
    std::printf(
        "Host time per launch of an empty kernel (%d launches x %d batches; each sample is "
        "one batch's mean)\n",
        launches, batches);
    std::fputs(kerntime::render(report, kerntime::Format::table).c_str(), stdout);
    const double base = report.entries[0].statistics.median;
    std::printf("\nOverhead over an untimed launch (median):\n");
    for (std::size_t i = 1; i < report.entries.size(); ++i) {
      std::printf("  %-34s %+8.3f us\n", report.entries[i].name.c_str(),
                  (report.entries[i].statistics.median - base) / 1e3);
    }
    cudaEventDestroy(raw_start);
    cudaEventDestroy(raw_stop);
    cudaStreamDestroy(stream);
    return 0;
  } catch (const kerntime::Error& e) {
    std::fprintf(stderr, "scope_overhead: %s\n", e.what());
    // Without a GPU the status every kerntime program gives (docs/ci.md); else a failure.
    return kerntime::query_gpu_status().usable() ? 1 : kerntime::kNoGpuExitStatus;
  }
}
