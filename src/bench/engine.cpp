// SPDX-License-Identifier: Apache-2.0
#include <memory>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/tracer.hpp>

#include "bench/calibration.hpp"
#include "bench/cuda_source.hpp"
#include "bench/device_resources.hpp"
#include "bench/engine_diagnostics.hpp"
#include "bench/fixed_cost.hpp"
#include "bench/fixed_cost_helper.hpp"
#include "bench/sampler.hpp"
#include "bench/validate.hpp"
#include "cuda/cuda_check.hpp"
#include "cupti/cupti_library.hpp"

namespace kerntime {
namespace {

// A value measured with CUPTI in this engine: the device's from now on, and remembered for
// later engines and processes.
void keep_fixed_cost(bench::DeviceResources& resources, double ns, const char* source) {
  resources.fixed_cost = bench::FixedCost{ns, source, {}};
  resources.fixed_cost_settled = true;
  bench::remember_fixed_cost(resources.fixed_cost_key(), ns);
}

// Why CUPTI cannot be borrowed now, or "" when it may be (docs/benchmarks.md).
std::string borrow_refusal(bool allowed) {
  if (!allowed) return "MeasureOptions::borrow_cupti is off (--no-cupti)";
  const std::string other = cupti::other_cupti_user();
  if (!other.empty()) return "CUPTI may be in use by " + other + ", so the engine did not start it";
  return {};
}

// Once per device and engine: a value from earlier, else a calibration with a Tracer of its
// own, started only when nothing else may be using CUPTI and stopped right after, else (CUPTI
// held here by another tool) a calibration in a `kerntime calibrate` process. Where none
// works, the reason stays with the device for the measurements' warnings.
void find_fixed_cost(bench::DeviceResources& resources, bool borrow) {
  if (resources.fixed_cost_settled) return;
  bench::FixedCost known = bench::remembered_fixed_cost(resources.fixed_cost_key());
  if (known.ns) {
    resources.fixed_cost = known;
    resources.fixed_cost_settled = true;
    return;
  }
  std::string refusal = borrow_refusal(borrow);
  if (refusal.empty()) {
    Tracer borrowed;
    if (borrowed.active()) {
      const bench::Calibration c = bench::calibrate(resources, &borrowed);
      if (!resources.floor_ns[1]) resources.floor_ns[1] = c.floor_ns;
      borrowed.stop();
      if (c.fixed_cost_ns) {
        keep_fixed_cost(resources, *c.fixed_cost_ns, kFixedCostFromBorrowedCupti);
        return;
      }
      refusal = borrowed.status() == TracerStatus::starved
                    ? borrowed.unavailable_reason()
                    : "CUPTI recorded too few of the calibration's kernels";
    } else {
      refusal = borrowed.unavailable_reason();
    }
  }
  if (borrow) {
    const bench::HelperResult helped = bench::fixed_cost_from_helper(resources.info().pci_bus_id);
    if (helped.ns) {
      keep_fixed_cost(resources, *helped.ns, kFixedCostFromProcessOfItsOwn);
      return;
    }
    refusal += "; and no calibration process helped: " + helped.problem;
  }
  resources.fixed_cost = bench::FixedCost{std::nullopt, {}, refusal};
  resources.fixed_cost_settled = true;
}

}  // namespace

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
  if (device < 0) cuda::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  int count = 0;
  cuda::check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (device >= count) {
    throw Error("MeasureOptions::device is " + std::to_string(device) + " but only " +
                std::to_string(count) + " CUDA device(s) are visible");
  }
  cuda::DeviceGuard guard{device};
  bench::DeviceResources& resources = impl_->resources(device);

  Tracer* tracer = options.tracer != nullptr && options.tracer->active() ? options.tracer : nullptr;
  // The floor and the fixed cost are measured behind the blocking kernel; without it (or for
  // one sample, under a profiler) nothing is calibrated, subtracted or added back.
  double floor_ns = 0.0;
  bench::FixedCost fixed_cost;
  if (options.blocking_kernel && !options.run_once) {
    // Without a Tracer, before the floor: a borrowed CUPTI must be gone again when the floor
    // is calibrated, as it will be while sampling.
    if (tracer == nullptr && options.mode == MeasureMode::cold) {
      find_fixed_cost(resources, options.borrow_cupti);
    }
    std::optional<double>& floor = resources.floor_ns[tracer != nullptr ? 1 : 0];
    if (!floor) {
      const bench::Calibration c = bench::calibrate(resources, tracer);
      floor = c.floor_ns;
      if (c.fixed_cost_ns) keep_fixed_cost(resources, *c.fixed_cost_ns, kFixedCostFromTracer);
    }
    floor_ns = *floor;
    fixed_cost = resources.fixed_cost;
  }
  // Records from before this measurement would otherwise land in the first round's trace
  // (calibration clears its own).
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
  settings.fixed_cost = fixed_cost;
  settings.setup = &options.setup;
  settings.blocking_kernel = options.blocking_kernel;
  settings.run_once = options.run_once;
  // The diagnostic switches (KERNTIME_ENGINE_PIPELINE, KERNTIME_L2_FLUSH, KERNTIME_ENGINE_PADDING)
  // change the protocol;
  // a measurement under one says so in its warnings.
  const bench::EngineDiagnostics diagnostics = bench::engine_diagnostics_from_environment();
  settings.quiet_host = diagnostics.quiet_host;
  settings.flush = diagnostics.flush;
  settings.phase_padding = diagnostics.phase_padding;
  try {
    bench::CudaSampleSource source{resources, launcher, settings};
    Measurement m =
        bench::run_measurement(source, options, device, peak_bandwidth_gb_per_s(resources.info()));
    m.warnings.insert(m.warnings.end(), diagnostics.warnings.begin(), diagnostics.warnings.end());
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
