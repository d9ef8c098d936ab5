// SPDX-License-Identifier: Apache-2.0
#include "accuracy_speed.hpp"

#include <chrono>
#include <cstdint>

#include <kerntime/measure.hpp>

#include "device_buffer.hpp"
#include "kernels/samples.hpp"

namespace kerntime::examples {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

SpeedRun run_speed_suite(Tracer& tracer) {
  const Clock::time_point suite = Clock::now();
  SpeedRun run;
  Engine engine;
  constexpr std::size_t kLargest = std::size_t{1} << 30;
  const DeviceBuffer src{kLargest};
  const DeviceBuffer dst{kLargest};

  struct Config {
    std::string name;
    Launcher launcher;
    double bytes;
  };
  std::vector<Config> configs;
  for (std::uint64_t ns : {2'000u, 10'000u, 100'000u, 1'000'000u}) {
    configs.push_back({"spin/ns=" + std::to_string(ns) + "/cold",
                       [ns](cudaStream_t s) { samples::launch_spin(ns, s); }, 0.0});
  }
  configs.push_back({"empty/cold", [](cudaStream_t s) { samples::launch_empty(s); }, 0.0});
  for (std::size_t bytes : {std::size_t{1} << 20, std::size_t{1} << 26, kLargest}) {
    configs.push_back({"device_copy/bytes=" + std::to_string(bytes) + "/cold",
                       [&src, &dst, bytes](cudaStream_t s) {
                         samples::launch_device_copy(dst.as<void>(), src.as<void>(), bytes, s);
                       },
                       2.0 * static_cast<double>(bytes)});
  }
  for (const Config& c : configs) {
    MeasureOptions options;  // the defaults: what a user gets
    options.name = c.name;
    options.tracer = &tracer;
    options.work = {c.bytes, 0.0};
    const Clock::time_point start = Clock::now();
    run.results.push_back(engine.measure(c.launcher, options));
    run.wall_s.push_back(seconds_since(start));
  }
  run.total_s = seconds_since(suite);
  return run;
}

}  // namespace kerntime::examples
