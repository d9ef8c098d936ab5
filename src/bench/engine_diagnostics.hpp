// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "bench/cuda_source.hpp"

namespace kerntime::bench {

/// The engine's diagnostic switches: not options, but probes of its protocol
/// (bench/python/order_probe.py, docs/order-history.md), read from the environment.
///   KERNTIME_ENGINE_PIPELINE=quiet   the next sample is queued, held, before this one is released
///   KERNTIME_L2_FLUSH=kernel|constant|after-block|read|memset   how the L2 is flushed
/// A measurement taken under one is not a default measurement, so each switch that is set adds a
/// warning to it, and an unknown value is an error rather than a silent default.
struct EngineDiagnostics {
  bool quiet_host = false;
  CudaSourceSettings::Flush flush = CudaSourceSettings::Flush::memset;
  std::vector<std::string> warnings;  ///< one per switch set to anything but its default
};

/// The switches from their variables' values (nullptr: unset). Throws kerntime::Error naming
/// the variable and the values it takes.
EngineDiagnostics parse_engine_diagnostics(const char* pipeline, const char* flush);

/// parse_engine_diagnostics on KERNTIME_ENGINE_PIPELINE and KERNTIME_L2_FLUSH.
EngineDiagnostics engine_diagnostics_from_environment();

}  // namespace kerntime::bench
