// SPDX-License-Identifier: Apache-2.0
// trace_bench: what tracing with kerntime::Tracer costs and how exact it is, on this GPU.
//
//   trace_bench [--rounds N] [--batches N] [--launches N] [--burst N] [--threads N] [--only abc]
//
// (a) host time per launch of an empty kernel untraced, under a bare CUPTI baseline and under a
//     kerntime::Tracer (each in its own processes), and the cost of enabling;
// (b) a burst of back-to-back launches from several host threads, traced: nothing dropped,
//     every kernel attributed to its thread's scope;
// (c) spin kernels of 2 us, 10 us, 100 us and 1 ms: CUPTI's duration within
//     [requested, requested + empty kernel + 0.2 us], beside a single cudaEvent pair.
// Each check prints PASS or FAIL; the exit status is 1 when any failed (or no GPU), 2 for bad
// usage. Results and the command are recorded in docs/tracing.md.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <unistd.h>

#include <kerntime/kerntime.hpp>

#include "burst.hpp"
#include "checks.hpp"
#include "overhead.hpp"
#include "spin_check.hpp"

namespace {

using trace_examples::Checks;

struct Settings {
  trace_examples::OverheadSettings overhead;
  trace_examples::BurstSettings burst;
  std::string only = "abc";
};

bool positive(const char* text, long long& out) {
  char* end = nullptr;
  out = std::strtoll(text, &end, 10);
  return end != text && *end == '\0' && out > 0;
}

bool parse(int argc, char** argv, Settings& s) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) return false;
    const char* value = argv[++i];
    long long n = 0;
    if (flag == "--only") {
      s.only = value;
    } else if (!positive(value, n)) {
      return false;
    } else if (flag == "--rounds") {
      s.overhead.rounds = static_cast<int>(n);
    } else if (flag == "--batches") {
      s.overhead.batches = static_cast<int>(n);
    } else if (flag == "--launches") {
      s.overhead.launches = static_cast<int>(n);
    } else if (flag == "--burst") {
      s.burst.launches = n;
    } else if (flag == "--threads") {
      s.burst.threads = static_cast<int>(n);
    } else {
      return false;
    }
  }
  return true;
}

std::string self_path() {
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length <= 0) throw kerntime::Error("cannot find this program's path in /proc/self/exe");
  path[length] = '\0';
  return path;
}

int run(const Settings& s) {
  kerntime::require_gpu();  // counts devices; creates no context, so the Tracer is still early
  Checks checks;
  const auto has = [&](char part) { return s.only.find(part) != std::string::npos; };
  if (has('a')) trace_examples::run_overhead(self_path(), s.overhead, checks);
  if (has('b') || has('c')) {
    const auto start = std::chrono::steady_clock::now();
    kerntime::Tracer tracer;
    const double enable_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!checks.check(tracer.active(), "tracer active", tracer.unavailable_reason())) return 1;
    const kerntime::Environment env = kerntime::current_environment({0});
    std::printf(
        "kerntime::Tracer started before any CUDA context in %.3f ms; CUPTI API %d; %s, "
        "driver %s, runtime %s\n\n",
        enable_ms, tracer.cupti_version(), env.devices.empty() ? "?" : env.devices[0].name.c_str(),
        kerntime::cuda_version_string(env.driver_version).c_str(),
        kerntime::cuda_version_string(env.runtime_version).c_str());
    if (has('c')) {
      trace_examples::run_spin_check(tracer, trace_examples::default_spin_lengths(), 200, checks);
    }
    if (has('b')) trace_examples::run_burst(tracer, s.burst, checks);
  }
  std::printf("%d checks passed, %d failed\n", checks.passed(), checks.failed());
  return checks.failed() == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const bool child = argc == 5 && std::string{argv[1]} == "--overhead-child";
  try {
    if (child) {
      trace_examples::OverheadSettings settings;
      settings.batches = std::atoi(argv[3]);
      settings.launches = std::atoi(argv[4]);
      return trace_examples::run_overhead_child(argv[2], settings);
    }
    Settings settings;
    if (!parse(argc, argv, settings)) {
      std::fprintf(stderr,
                   "trace_bench: usage: trace_bench [--rounds N] [--batches N] [--launches N] "
                   "[--burst N] [--threads N] [--only abc]\n");
      return 2;
    }
    return run(settings);
  } catch (const kerntime::Error& error) {
    std::fprintf(stderr, "trace_bench: %s\n", error.what());
    if (child) std::printf("error %s\n", error.what());  // the parent reads only stdout
    return kerntime::query_gpu_status().usable() ? 1 : kerntime::kNoGpuExitStatus;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "trace_bench: unexpected failure: %s\n", error.what());
  }
  return 1;
}
