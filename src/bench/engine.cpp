// SPDX-License-Identifier: Apache-2.0
#include <memory>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/tracer.hpp>

#include "bench/calibration.hpp"
#include "bench/cuda_source.hpp"
#include "bench/device_resources.hpp"
#include "bench/sampler.hpp"
#include "bench/validate.hpp"
#include "cuda/cuda_check.hpp"

namespace kerntime {

struct Engine::Impl {
  std::vector<std::unique_ptr<bench::DeviceResources>> devices;  // by device index

  bench::DeviceResources& resources(int device) {
    if (static_cast<std::size_t>(device) >= devices.size()) {
      devices.resize(static_cast<std::size_t>(device) + 1);
    }
    auto& slot = devices[static_cast<std::size_t>(device)];
    if (!slot) slot = std::make_unique<bench::DeviceResources>(device);
    return *slot;
  }
};

Engine::Engine() : impl_(std::make_unique<Impl>()) {}
Engine::~Engine() = default;

Measurement Engine::measure(const Launcher& launcher, const MeasureOptions& options) {
  validate(options);
  if (!launcher) throw Error("Engine::measure needs a launcher; it was given an empty function");
  int device = options.device;
  if (device < 0) detail::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  int count = 0;
  detail::check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (device >= count) {
    throw Error("MeasureOptions::device is " + std::to_string(device) + " but only " +
                std::to_string(count) + " CUDA device(s) are visible");
  }
  detail::DeviceGuard guard{device};
  bench::DeviceResources& resources = impl_->resources(device);

  Tracer* tracer = options.tracer != nullptr && options.tracer->active() ? options.tracer : nullptr;
  // The floor is measured behind the blocking kernel; without it (or for one sample, under a
  // profiler) nothing is calibrated and nothing subtracted.
  double floor_ns = 0.0;
  if (options.blocking_kernel && !options.run_once) {
    std::optional<double>& floor = resources.floor_ns[tracer != nullptr ? 1 : 0];
    if (!floor) floor = bench::calibrate_floor(resources);
    floor_ns = *floor;
  }
  // Calibration's records (or any before this measurement) would otherwise land in the first
  // round's trace.
  if (tracer != nullptr) {
    tracer->flush();
    tracer->clear();
  }

  bench::CudaSourceSettings settings;
  settings.mode = options.mode;
  settings.l2_flush = options.l2_flush;
  settings.blocking_timeout_s = options.blocking_timeout_s;
  settings.batch_size = options.batch_size;
  settings.batch_target_s = options.batch_target_s;
  settings.scope_name = options.name;
  settings.tracer = tracer;
  settings.floor_ns = floor_ns;
  settings.setup = &options.setup;
  settings.blocking_kernel = options.blocking_kernel;
  settings.run_once = options.run_once;
  try {
    bench::CudaSampleSource source{resources, launcher, settings};
    Measurement m =
        bench::run_measurement(source, options, device, peak_bandwidth_gb_per_s(resources.info()));
    // A Tracer that was handed in but records nothing is said, never silently replaced.
    if (options.tracer != nullptr && tracer == nullptr) {
      m.warnings.push_back("the headline is the event time: the Tracer given is not recording (" +
                           options.tracer->unavailable_reason() + ")");
    }
    return m;
  } catch (const Error& e) {
    // A kernel fault surfaces at whichever call comes next; the name says whose work it was.
    throw Error("measuring \"" + options.name + "\" on device " + std::to_string(device) + ": " +
                e.what());
  }
}

Measurement measure(const Launcher& launcher, const MeasureOptions& options) {
  Engine engine;
  return engine.measure(launcher, options);
}

}  // namespace kerntime
