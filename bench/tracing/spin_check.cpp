// SPDX-License-Identifier: Apache-2.0
#include "spin_check.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include <kerntime/kerntime.hpp>

#include "cuda_resources.hpp"
#include "kernels/spin.hpp"

namespace trace_examples {
namespace {

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  return kerntime::compute_statistics(values).median;
}

std::string scope_name(std::uint64_t ns) {
  return ns == 0 ? "empty" : "spin " + std::to_string(ns) + " ns";
}

// One launch at a time on an idle GPU, a cudaEvent pair around it: what a user gets who times
// a single launch with events. Each length runs in one kerntime scope, so CUPTI's records of
// these kernels can be told apart without relying on their order.
std::vector<double> timed_launches(std::uint64_t ns, int repetitions, cudaStream_t stream,
                                   kerntime::Session& session) {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> event_ns;
  {
    kerntime::ScopedTimer scope{session, scope_name(ns), stream};
    for (int i = 0; i < repetitions; ++i) {
      check(cudaEventRecord(start, stream), "cudaEventRecord");
      if (ns == 0) {
        kerntime::samples::launch_empty(stream);
      } else {
        kerntime::samples::launch_spin(ns, stream);
      }
      check(cudaEventRecord(stop, stream), "cudaEventRecord");
      check(cudaEventSynchronize(stop), "cudaEventSynchronize");
      float ms = 0.0f;
      check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      event_ns.push_back(static_cast<double>(ms) * 1e6);
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return event_ns;
}

}  // namespace

std::vector<SpinLength> default_spin_lengths() {
  return {{2'000, 200}, {10'000, 200}, {100'000, 100}, {1'000'000, 20}};
}

void run_spin_check(kerntime::Tracer& tracer, const std::vector<SpinLength>& lengths,
                    int empty_repetitions, Checks& checks) {
  const Stream stream;
  kerntime::Session session;
  // Warm-up: loads both kernels, then forgets their records.
  kerntime::samples::launch_empty(stream.get());
  kerntime::samples::launch_spin(1'000, stream.get());
  tracer.flush();
  tracer.clear();

  std::map<std::uint64_t, std::vector<double>> event_ns;
  event_ns[0] = timed_launches(0, empty_repetitions, stream.get(), session);
  for (const SpinLength& length : lengths)
    event_ns[length.ns] = timed_launches(length.ns, length.repetitions, stream.get(), session);
  tracer.flush();
  const kerntime::Trace trace = tracer.trace();
  std::map<std::string, std::vector<double>> cupti_ns;
  for (const kerntime::KernelActivity& k : trace.kernels)
    cupti_ns[std::string{k.scope_name}].push_back(static_cast<double>(k.duration_ns()));

  const std::vector<double>& empty = cupti_ns[scope_name(0)];
  const double empty_median = median(empty);
  std::printf(
      "(c) Kernels of known length: CUPTI duration vs one cudaEvent pair around the "
      "same launch (medians; one launch at a time on an idle GPU)\n\n");
  std::printf("  %-9s %5s %12s %12s %12s %15s %12s %9s %13s\n", "Requested", "Runs", "CUPTI med",
              "CUPTI min", "CUPTI max", "bound", "Event pair", "in bound", "Event - CUPTI");
  std::printf("  %-9s %5zu %12s %12s %12s %15s %12s %9s %13s\n", "empty", empty.size(),
              us(empty_median).c_str(),
              us(empty.empty() ? 0 : *std::min_element(empty.begin(), empty.end())).c_str(),
              us(empty.empty() ? 0 : *std::max_element(empty.begin(), empty.end())).c_str(), "",
              us(median(event_ns[0])).c_str(), "",
              signed_us(median(event_ns[0]) - empty_median).c_str());
  struct Row {
    SpinLength length;
    double med;
    double high;
  };
  std::vector<Row> rows;
  for (const SpinLength& length : lengths) {
    const std::vector<double>& d = cupti_ns[scope_name(length.ns)];
    const double requested = static_cast<double>(length.ns);
    const double high = requested + empty_median + kSpinSlackNs;
    const auto inside =
        std::count_if(d.begin(), d.end(), [&](double v) { return v >= requested && v <= high; });
    const double med = median(d);
    const double events = median(event_ns[length.ns]);
    char bound[64];
    std::snprintf(bound, sizeof(bound), "<= %.3f us", high / 1e3);
    char share[32];
    std::snprintf(share, sizeof(share), "%td/%zu", inside, d.size());
    std::printf("  %-9s %5zu %12s %12s %12s %15s %12s %9s %13s\n",
                kerntime::format_duration(requested).c_str(), d.size(), us(med).c_str(),
                us(d.empty() ? 0 : *std::min_element(d.begin(), d.end())).c_str(),
                us(d.empty() ? 0 : *std::max_element(d.begin(), d.end())).c_str(), bound,
                us(events).c_str(), share, signed_us(events - med).c_str());
    rows.push_back({length, med, high});
  }
  std::printf("\n");
  checks.check(static_cast<int>(empty.size()) == empty_repetitions && empty_median > 0,
               "empty kernel measured",
               std::to_string(empty.size()) + " records, median " + us(empty_median));
  for (const Row& row : rows) {
    const double requested = static_cast<double>(row.length.ns);
    checks.check(
        static_cast<int>(cupti_ns[scope_name(row.length.ns)].size()) == row.length.repetitions &&
            row.med >= requested && row.med <= row.high,
        "spin " + kerntime::format_duration(requested),
        "median " + us(row.med) + " in [" + us(requested) + ", " + us(row.high) +
            "] (requested + empty " + us(empty_median) + " + " + us(kSpinSlackNs, 1) + ")");
  }
  checks.check(trace.dropped_records == 0 && trace.zero_timestamp_records == 0,
               "spin run lost nothing",
               std::to_string(trace.dropped_records) + " dropped, " +
                   std::to_string(trace.zero_timestamp_records) + " without timestamps");
  std::printf("\n");
}

}  // namespace trace_examples
