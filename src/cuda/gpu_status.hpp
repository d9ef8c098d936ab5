// SPDX-License-Identifier: Apache-2.0
// The pure half of query_gpu_status(); private to the library (tests include it to drive it with
// what a machine without a driver reports).
#pragma once

#include <string>

#include <kerntime/gpu_status.hpp>

namespace kerntime {

/// Turns raw probe results into a GpuStatus with a plain-words message. `init_error_name` and
/// `init_error_text` describe the error CUDA reported while counting devices ("" if none).
/// Pure function: the tests drive it with the values a machine without a driver would report.
GpuStatus diagnose_gpu_status(int driver_version, int runtime_version, int device_count,
                              const std::string& init_error_name,
                              const std::string& init_error_text);

}  // namespace kerntime
