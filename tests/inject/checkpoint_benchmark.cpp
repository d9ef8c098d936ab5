// SPDX-License-Identifier: Apache-2.0
// What one checkpoint of `kerntime run` costs once CUPTI has handed over the records (docs/run.md,
// "SIGKILL: the last checkpoint"): the worker thread's time to build the report of a recorder
// that holds NAMES kernel names (summary and counts, no records) and to write it to a file (an
// atomic rename after fsync), and the longest a program thread closing an NVTX range meanwhile
// waits for the recorder. The final report, with the first records listed, is timed for scale.
// Not a test (timings belong to no pass/fail rule); run it on an idle machine, Release build:
//   build/default/tests/inject/kerntime_run_checkpoint_benchmark [names] [launches] [directory]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <kerntime/report_json.hpp>

#include "inject/run_recorder.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t names = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100;
  const std::size_t launches = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1'000'000;
  const std::string directory = argc > 3 ? argv[3] : "/tmp";
  // Names as long as PyTorch's (a few hundred characters), each its own kernel.
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < names; ++i) {
    texts.push_back(
        "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<"
        "at::native::AddFunctor<float>>(at::TensorIteratorBase&, "
        "at::native::AddFunctor<float> const&)::{lambda(int)#" +
        std::to_string(i) + "}>(int, at::native::AddFunctor<float>)");
  }
  kerntime::inject::RunSettings settings;
  settings.output_directory = directory;
  kerntime::inject::RunRecorder recorder(settings);
  std::mt19937_64 random(1);
  std::lognormal_distribution<double> lognormal(std::log(8000.0), 0.7);
  std::uint64_t t = 1'000'000;
  const auto fill = Clock::now();
  for (std::size_t done = 0; done < launches;) {
    kerntime::trace::RecordBatch batch;
    for (std::size_t i = 0; i < 4096 && done < launches; ++i, ++done) {
      kerntime::trace::RawKernel kernel;
      kernel.name = texts[done % names].c_str();
      kernel.start_ns = t;
      kernel.end_ns = t + static_cast<std::uint64_t>(lognormal(random));
      kernel.correlation_id = static_cast<std::uint32_t>(done + 1);
      t = kernel.end_ns + 500;
      batch.kernels.push_back(kernel);
    }
    recorder.append(std::move(batch));
  }
  std::printf("recorded %zu launches over %zu names in %.0f ms\n", launches, names,
              milliseconds_since(fill));
  const std::string path = directory + "/kerntime_checkpoint_benchmark.json";
  // A program thread closing NVTX ranges all along, as a training loop's steps do.
  const std::uint64_t step = recorder.range_id("", "step");
  std::atomic<bool> stop{false};
  std::atomic<double> longest_wait_ms{0.0};
  std::thread ranges{[&] {
    std::uint64_t now = 1'000'000;
    while (!stop.load()) {
      const auto start = Clock::now();
      recorder.add_range(step, now, now + 1000);
      const double waited = milliseconds_since(start);
      if (waited > longest_wait_ms.load()) longest_wait_ms.store(waited);
      now += 2000;
      usleep(100);
    }
  }};
  for (const bool with_records : {false, true}) {
    std::vector<double> build;
    std::vector<double> write;
    longest_wait_ms.store(0.0);
    for (int round = 0; round < 15; ++round) {
      auto start = Clock::now();
      const kerntime::Report report = recorder.report(with_records);
      build.push_back(milliseconds_since(start));
      start = Clock::now();
      kerntime::write_report_file(report, path);
      write.push_back(milliseconds_since(start));
    }
    struct stat info {};
    stat(path.c_str(), &info);
    std::printf(
        "%s: build %.2f ms, write %.2f ms (median of 15), %.1f KiB; an NVTX range closed "
        "meanwhile waited at most %.2f ms\n",
        with_records ? "final report (first records listed)" : "checkpoint", median(build),
        median(write), static_cast<double>(info.st_size) / 1024.0, longest_wait_ms.load());
  }
  stop.store(true);
  ranges.join();
  unlink(path.c_str());
  return 0;
}
