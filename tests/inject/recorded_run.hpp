// SPDX-License-Identifier: Apache-2.0
// A synthetic process for the recorder, rich enough that its report shows every part: kernels
// past their sample limit and within it, long names, a record without timestamps, graph
// kernels, nested NVTX ranges in two domains and an unnamed one, tags arriving with their
// kernels, copies, memsets, API calls past the timeline's room, dropped records, a warning.
// Deterministic: its report is a golden file (the recorder's speed-ups must not change it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inject/run_recorder.hpp"

namespace kerntime::testing {

inline inject::RunSettings recorded_run_settings() {
  inject::RunSettings s;
  s.output_directory = "/tmp";
  s.samples_per_kernel = 10;
  s.timeline_records = 40;
  return s;
}

inline void record_a_run(inject::RunRecorder& recorder) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (int i = 0; i < 6; ++i) {
      std::string name = "_ZN2at6native" + std::to_string(i) + "kernelIfEEvv";
      if (i % 3 == 0) name += std::string(100 + i * 10, 'x');
      n.push_back(name);
    }
    return n;
  }();
  const std::uint64_t step = recorder.range_id("", "step");
  const std::uint64_t forward = recorder.range_id("", "forward");
  const std::uint64_t load = recorder.range_id("io", "load");
  recorder.range_id("", "");
  const std::uint64_t in_step = recorder.range_path(0, step);
  const std::uint64_t forward_in_step = recorder.range_path(in_step, forward);
  const std::uint64_t alone = recorder.range_path(0, load);
  std::uint64_t state = 12345;
  const auto random = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  for (int i = 0; i < 25; ++i)
    recorder.add_range(step, 1'000 + i, 1'000 + i + random() % 5'000);
  for (int i = 0; i < 6; ++i)
    recorder.add_range(forward, 2'000 + i, 2'000 + i + random() % 700);
  recorder.add_range(load, 10, 20);
  std::uint32_t correlation = 0;
  std::uint64_t now = 100;
  for (int b = 0; b < 4; ++b) {
    trace::RecordBatch batch;
    for (int k = 0; k < 30; ++k) {
      trace::RawKernel kernel;
      kernel.name = names[random() % names.size()].c_str();
      kernel.start_ns = b == 1 && k == 5 ? 0 : (now += 100 + random() % 50);
      kernel.end_ns = kernel.start_ns + 50 + random() % 400;
      kernel.correlation_id = ++correlation;
      kernel.context = 1;
      kernel.stream = 7;
      kernel.grid = {static_cast<std::uint32_t>(1 + random() % 2), 1, 1};
      kernel.block = {128, 1, 1};
      if (k % 13 == 0) kernel.graph_id = 5;
      batch.kernels.push_back(kernel);
      if (k % 3 == 0) batch.scope_tags.push_back({correlation, k % 2 ? forward_in_step : in_step});
      if (k % 7 == 0) batch.scope_tags.push_back({correlation, alone});
      batch.api_calls.push_back(trace::RawApi{ApiKind::runtime, 211, kernel.start_ns - 50,
                                              kernel.start_ns - 40, 1, 42, correlation, 0});
    }
    trace::RawMemcpy copy;
    copy.start_ns = now;
    copy.end_ns = now + 10;
    copy.bytes = 4096;
    copy.correlation_id = ++correlation;
    batch.memcpys.push_back(copy);
    trace::RawMemset set;
    set.start_ns = now;
    set.end_ns = now + 5;
    set.bytes = 64;
    set.correlation_id = ++correlation;
    batch.memsets.push_back(set);
    batch.unknown_records = b % 2;
    recorder.append(std::move(batch));
    if (b == 2) {
      recorder.add_dropped(3);
      recorder.add_warning("a warning");
    }
  }
}

}  // namespace kerntime::testing
