// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "bench/cuda_source.hpp"

namespace kerntime::bench {

/// The engine's diagnostic switches: not options, but probes of its protocol
/// (bench/python/order_probe.py, docs/order-history.md), read from the environment.
///   KERNTIME_ENGINE_PIPELINE=quiet   the next sample is queued, held, before this one is released
///   KERNTIME_CALIBRATION_PIPELINE=overlap   the calibration's samples queued as a measurement's
///   KERNTIME_L2_FLUSH=kernel|constant|after-block|read|memset   how the L2 is flushed
///   KERNTIME_ENGINE_PADDING=off   no empty kernels before a sample's timed work
///   (phase_padding.hpp)
/// A measurement taken under one is not a default measurement, so each switch that is set adds a
/// warning to it, and an unknown value is an error rather than a silent default.
struct EngineDiagnostics {
  bool quiet_host = false;
  CudaSourceSettings::Flush flush = CudaSourceSettings::Flush::memset;
  bool phase_padding = true;
  std::vector<std::string> warnings;  ///< one per switch set to anything but its default
};

/// The switches from their variables' values (nullptr: unset). Throws kerntime::Error naming
/// the variable and the values it takes.
EngineDiagnostics parse_engine_diagnostics(const char* pipeline, const char* flush,
                                           const char* padding = nullptr);

/// parse_engine_diagnostics on KERNTIME_ENGINE_PIPELINE, KERNTIME_L2_FLUSH and
/// KERNTIME_ENGINE_PADDING.
EngineDiagnostics engine_diagnostics_from_environment();

/// The calibration's pipeline: quiet (the default, calibration.cpp says why) unless
/// `pipeline`, KERNTIME_CALIBRATION_PIPELINE's value (nullptr: unset), is "overlap", a
/// diagnostic (bench/scripts/floor_after_tracer.py). Throws kerntime::Error for another value.
bool parse_calibration_quiet_host(const char* pipeline);

/// parse_calibration_quiet_host on KERNTIME_CALIBRATION_PIPELINE.
bool calibration_quiet_host_from_environment();

}  // namespace kerntime::bench
