// SPDX-License-Identifier: Apache-2.0
// `kerntime calibrate`: measures a GPU's launch floor and kernel fixed cost with CUPTI and
// remembers the fixed cost in the cache, so that events-only measurements later (CUPTI held
// by another tool, or absent) read right. The engine runs it itself, as a process of its own,
// when a tool holds CUPTI in the measuring process (docs/benchmarks.md).
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <fmt/core.h>

#include <kerntime/error.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/tracer.hpp>

#include "cli/commands.hpp"
#include "io/diagnostic.hpp"
#include "io/file_writer.hpp"

namespace kerntime::cli {
namespace {

struct CalibrateOptions {
  std::optional<int> device;
  std::string pci_bus_id;
  bool value_only = false;
};

// The devices to calibrate: the one chosen, else every visible one.
std::vector<int> chosen_devices(const CalibrateOptions& o) {
  if (!o.pci_bus_id.empty()) {
    int device = -1;
    if (cudaDeviceGetByPCIBusId(&device, o.pci_bus_id.c_str()) != cudaSuccess) {
      (void)cudaGetLastError();
      throw Error("no visible CUDA device has PCI bus id " + o.pci_bus_id +
                  "; kerntime info lists the devices");
    }
    return {device};
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  if (o.device) {
    if (*o.device >= count) {
      throw Error("--device " + std::to_string(*o.device) + " is not a visible CUDA device (" +
                  std::to_string(count) + " visible)");
    }
    return {*o.device};
  }
  std::vector<int> all;
  for (int d = 0; d < count; ++d)
    all.push_back(d);
  return all;
}

// A Measurement of a 256-byte memset whose calibration, with the Tracer, is the point.
Measurement calibrate(int device, Tracer& tracer) {
  if (cudaSetDevice(device) != cudaSuccess)
    throw Error("cannot use CUDA device " + std::to_string(device));
  void* buffer = nullptr;
  if (cudaMalloc(&buffer, 256) != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error("cudaMalloc of 256 bytes failed on device " + std::to_string(device));
  }
  MeasureOptions options;
  options.name = "calibrate";
  options.device = device;
  options.tracer = &tracer;
  options.warmup_samples = 0;
  options.stopping.fixed_samples = 5;
  Engine engine;
  Measurement m;
  try {
    m = engine.measure([buffer](cudaStream_t s) { cudaMemsetAsync(buffer, 0, 256, s); }, options);
  } catch (...) {
    cudaFree(buffer);
    throw;
  }
  cudaFree(buffer);
  return m;
}

int run_calibrate(const CalibrateOptions& o) {
  const GpuStatus status = query_gpu_status();
  if (!status.usable()) {
    io::write_error_line("kerntime calibrate: ", status.message);
    return kNoGpuExitStatus;
  }
  Tracer tracer;
  if (!tracer.active()) {
    io::write_error_line("kerntime calibrate: ", "needs CUPTI, which is not available here: " +
                                                     tracer.unavailable_reason());
    return 2;
  }
  std::string out;
  for (const int device : chosen_devices(o)) {
    const Measurement m = calibrate(device, tracer);
    if (!m.info.kernel_fixed_cost_ns) {
      io::write_error_line("kerntime calibrate: ",
                           "CUPTI recorded too few of the calibration's kernels on device " +
                               std::to_string(device) + "; run it again on an idle GPU");
      return 2;
    }
    if (o.value_only) {
      fmt::format_to(std::back_inserter(out), "{:.1f}\n", *m.info.kernel_fixed_cost_ns);
    } else {
      fmt::format_to(std::back_inserter(out),
                     "device {}: launch floor {:.3f} us, kernel fixed cost {:.3f} us (CUPTI); "
                     "remembered for events-only measurements\n",
                     device, m.info.event_floor_ns / 1e3, *m.info.kernel_fixed_cost_ns / 1e3);
    }
  }
  io::write_standard_output(out);
  return 0;
}

}  // namespace

void add_calibrate_command(CLI::App& app, int& exit_status) {
  auto options = std::make_shared<CalibrateOptions>();
  CLI::App* command = app.add_subcommand(
      "calibrate",
      "Measure each GPU's launch floor and kernel fixed cost with CUPTI and cache the fixed "
      "cost for events-only measurements");
  command->add_option("--device", options->device, "Only this CUDA device")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--pci-bus-id", options->pci_bus_id, "Only the device at this PCI bus id")
      ->excludes("--device");
  command->add_flag("--value-only", options->value_only,
                    "Print only each fixed cost in ns, one per line");
  command->callback([options, &exit_status] {
    try {
      exit_status = run_calibrate(*options);
    } catch (const Error& e) {
      io::write_error_line("kerntime calibrate: ", e.what());
      exit_status = 2;
    }
  });
}

}  // namespace kerntime::cli
