// SPDX-License-Identifier: Apache-2.0
#include "burst.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <kerntime/kerntime.hpp>

#include "cuda_resources.hpp"
#include "kernels/spin.hpp"

namespace trace_examples {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string thread_scope(int thread) {
  return "burst thread " + std::to_string(thread);
}

// Peak resident memory of this process (VmHWM), in MiB; 0 when unknown.
double peak_rss_mib() {
  std::ifstream status{"/proc/self/status"};
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0.0;
}

struct ScopeCount {
  long long kernels = 0;
  std::set<std::uint32_t> streams;
};

}  // namespace

void run_burst(kerntime::Tracer& tracer, const BurstSettings& s, Checks& checks) {
  const long long per_thread = s.launches / s.threads;
  const long long launches = per_thread * s.threads;
  kerntime::Session session;
  std::vector<std::unique_ptr<Stream>> streams;
  for (int t = 0; t < s.threads; ++t)
    streams.push_back(std::make_unique<Stream>());
  for (const auto& stream : streams)
    kerntime::samples::launch_empty(stream->get());  // warm-up, dropped by clear() below
  tracer.flush();
  tracer.clear();

  std::vector<std::string> errors(s.threads);
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < s.threads; ++t) {
    threads.emplace_back([&, t] {
      try {
        kerntime::ScopedTimer scope{session, thread_scope(t), streams[t]->get()};
        for (long long i = 0; i < per_thread; ++i)
          kerntime::samples::launch_empty(streams[t]->get());
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  const double enqueue_s = seconds_since(start);
  const auto flush_start = Clock::now();
  tracer.flush();
  const double flush_s = seconds_since(flush_start);
  const auto build_start = Clock::now();
  const kerntime::Trace trace = tracer.trace();
  const double build_s = seconds_since(build_start);

  std::map<std::string, ScopeCount> by_scope;
  long long unscoped = 0;
  for (const kerntime::KernelActivity& k : trace.kernels) {
    if (k.scope_name.empty()) {
      ++unscoped;
      continue;
    }
    ScopeCount& count = by_scope[std::string{k.scope_name}];
    ++count.kernels;
    count.streams.insert(k.stream);
  }

  std::printf(
      "(b) %lld back-to-back empty-kernel launches from %d host threads (%lld each, one "
      "stream and one scope per thread), traced\n\n",
      launches, s.threads, per_thread);
  std::printf("  enqueue %.2f s (%.2f us per launch per thread), flush %.2f s, trace() %.2f s\n",
              enqueue_s, enqueue_s * 1e6 / static_cast<double>(per_thread), flush_s, build_s);
  std::printf(
      "  kernel records %zu, API records %zu, dropped %llu, without timestamps %llu, "
      "inverted %llu, unattributed %llu, outside any scope %lld\n",
      trace.kernels.size(), trace.api_calls.size(),
      static_cast<unsigned long long>(trace.dropped_records),
      static_cast<unsigned long long>(trace.zero_timestamp_records),
      static_cast<unsigned long long>(trace.inverted_timestamp_records),
      static_cast<unsigned long long>(trace.unattributed_kernels), unscoped);
  std::printf("  peak resident memory of this process after trace(): %.0f MiB\n\n", peak_rss_mib());
  for (const std::string& warning : trace.warnings)
    std::printf("  warning: %s\n", warning.c_str());

  std::string thread_errors;
  for (const std::string& e : errors)
    thread_errors += e;
  checks.check(thread_errors.empty(), "every launch succeeded",
               thread_errors.empty() ? std::to_string(launches) + " launches" : thread_errors);
  checks.check(trace.dropped_records == 0, "dropped records",
               std::to_string(trace.dropped_records) + " (must be 0)");
  checks.check(trace.zero_timestamp_records + trace.inverted_timestamp_records == 0,
               "records without valid timestamps",
               std::to_string(trace.zero_timestamp_records + trace.inverted_timestamp_records) +
                   " (must be 0)");
  checks.check(static_cast<long long>(trace.kernels.size()) == launches, "kernel records",
               std::to_string(trace.kernels.size()) + " of " + std::to_string(launches));
  checks.check(trace.unattributed_kernels == 0 && unscoped == 0, "every kernel attributed",
               std::to_string(trace.unattributed_kernels) + " without a launch record, " +
                   std::to_string(unscoped) + " outside a scope");
  std::set<std::uint32_t> all_streams;
  for (int t = 0; t < s.threads; ++t) {
    const ScopeCount& count = by_scope[thread_scope(t)];
    const bool one_stream = count.streams.size() == 1;
    if (one_stream) all_streams.insert(*count.streams.begin());
    checks.check(count.kernels == per_thread && one_stream, "scope \"" + thread_scope(t) + "\"",
                 std::to_string(count.kernels) + " of " + std::to_string(per_thread) +
                     " kernels, on " + std::to_string(count.streams.size()) + " stream(s)");
  }
  checks.check(static_cast<int>(all_streams.size()) == s.threads,
               "each thread's kernels on that thread's own stream",
               std::to_string(all_streams.size()) + " distinct streams");
  std::printf("\n");
}

}  // namespace trace_examples
