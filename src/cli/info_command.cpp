// SPDX-License-Identifier: Apache-2.0
// `kerntime info`: what a user checks first when timings look wrong or nothing runs.
#include <iterator>
#include <string>

#include <cuda_runtime_api.h>
#include <fmt/core.h>

#include <kerntime/error.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/tracer.hpp>
#include <kerntime/version.hpp>

#include "cli/commands.hpp"
#include "io/diagnostic.hpp"
#include "io/file_writer.hpp"

namespace kerntime::cli {
namespace {

std::string bytes_text(std::size_t bytes) {
  const double b = static_cast<double>(bytes);
  if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.1f} GiB", b / (1024.0 * 1024 * 1024));
  if (b >= 1024.0 * 1024) return fmt::format("{:.1f} MiB", b / (1024.0 * 1024));
  return fmt::format("{:.0f} KiB", b / 1024.0);
}

void print_device(std::string& out, const DeviceInfo& d) {
  // DDR memory: two transfers per clock; kHz * bits -> bytes/s.
  const double peak_bandwidth = 2.0 * d.memory_clock_khz * 1e3 * d.memory_bus_width_bits / 8.0;
  fmt::format_to(std::back_inserter(out), "  [{}] {}\n", d.index, d.name);
  fmt::format_to(std::back_inserter(out), "      compute capability   {}.{}\n",
                 d.compute_capability_major, d.compute_capability_minor);
  fmt::format_to(std::back_inserter(out), "      multiprocessors      {}\n",
                 d.multiprocessor_count);
  fmt::format_to(std::back_inserter(out), "      memory               {}\n",
                 bytes_text(d.total_memory_bytes));
  fmt::format_to(std::back_inserter(out), "      L2 cache             {}\n",
                 bytes_text(d.l2_cache_bytes));
  fmt::format_to(std::back_inserter(out), "      SM clock (peak)      {} MHz\n",
                 d.sm_clock_khz / 1000);
  fmt::format_to(std::back_inserter(out),
                 "      memory clock (peak)  {} MHz, {}-bit bus, {:.0f} GB/s peak\n",
                 d.memory_clock_khz / 1000, d.memory_bus_width_bits, peak_bandwidth / 1e9);
  fmt::format_to(std::back_inserter(out), "      ECC                  {}\n",
                 d.ecc_enabled ? "on" : "off");
  if (!d.pci_bus_id.empty())
    fmt::format_to(std::back_inserter(out), "      PCI bus              {}\n", d.pci_bus_id);
}

int run_info() {
  std::string out;
  fmt::format_to(std::back_inserter(out), "kerntime {}\n", kVersion);
  const GpuStatus status = query_gpu_status();
  const std::string& release = status.driver_release;
  if (status.driver_version == 0) {
    fmt::format_to(std::back_inserter(out), "driver       none found\n");
  } else {
    fmt::format_to(std::back_inserter(out), "driver       {}supports CUDA up to {}\n",
                   release.empty() ? "" : release + ", ",
                   cuda_version_string(status.driver_version));
  }
  fmt::format_to(std::back_inserter(out), "runtime      CUDA {} (kerntime built with {})\n",
                 cuda_version_string(status.runtime_version), cuda_version_string(CUDART_VERSION));
  const CuptiAvailability cupti = cupti_availability();
  if (cupti.loads) {
    fmt::format_to(std::back_inserter(out), "CUPTI        loads: {} (API version {})\n", cupti.path,
                   cupti.api_version);
  } else {
    fmt::format_to(std::back_inserter(out), "CUPTI        does not load: {}\n", cupti.problem);
  }
  if (!status.usable()) {
    fmt::format_to(std::back_inserter(out), "devices      none usable\n");
    io::write_standard_output(out);
    io::write_error_line("kerntime: ", status.message);
    return kNoGpuExitStatus;
  }
  fmt::format_to(std::back_inserter(out), "devices      {}\n", status.device_count);
  if (cupti.loads) {
    // Whether a Tracer can record here, or who holds CUPTI and what to do: starting one is
    // the only way to know (one subscriber per process), and it stops again at once.
    Tracer probe;
    fmt::format_to(std::back_inserter(out), "tracing      {}\n",
                   probe.active() ? "free: a kerntime::Tracer records kernels here"
                                  : "off: " + probe.unavailable_reason());
  }
  // What is known so far is shown even when describing a device fails.
  io::write_standard_output(out);
  out.clear();
  for (const DeviceInfo& device : query_devices())
    print_device(out, device);
  io::write_standard_output(out);
  return 0;
}

}  // namespace

std::string version_text() {
  const CuptiAvailability cupti = cupti_availability();
  return fmt::format("kerntime {}\nCUDA runtime {} (built with {})\nCUPTI {}", kVersion,
                     cuda_version_string(query_gpu_status().runtime_version),
                     cuda_version_string(CUDART_VERSION),
                     cupti.loads ? fmt::format("API version {} ({})", cupti.api_version, cupti.path)
                                 : "does not load: " + cupti.problem);
}

void add_info_command(CLI::App& app, int& exit_status) {
  CLI::App* info = app.add_subcommand(
      "info",
      "Show the driver, runtime, CUPTI and every GPU; explain what stops CUDA from running");
  info->callback([&exit_status] { exit_status = run_info(); });
}

}  // namespace kerntime::cli
