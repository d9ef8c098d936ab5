// SPDX-License-Identifier: Apache-2.0
#include "bench/engine_diagnostics.hpp"

#include <cstdlib>

#include <kerntime/error.hpp>

namespace kerntime::bench {

namespace {

std::string said(const char* variable, const std::string& value, const char* what) {
  return std::string{"diagnostic "} + variable + "=" + value + " is set: " + what +
         "; this is not a default measurement (unset the variable to measure as usual)";
}

// Whether `value` of pipeline variable `variable` asks for a quiet host; unset or empty: the
// default, `quiet_by_default`.
bool quiet_pipeline(const char* variable, const char* value, bool quiet_by_default) {
  if (value == nullptr || *value == '\0') return quiet_by_default;
  const std::string text{value};
  if (text != "quiet" && text != "overlap") {
    throw Error(std::string{variable} + "=" + text +
                " is not a value it takes: quiet or overlap (" +
                (quiet_by_default ? "quiet" : "overlap") +
                " is the default); unset it to measure as usual");
  }
  return text == "quiet";
}

}  // namespace

EngineDiagnostics parse_engine_diagnostics(const char* pipeline, const char* flush,
                                           const char* padding) {
  using Flush = CudaSourceSettings::Flush;
  EngineDiagnostics out;
  out.quiet_host = quiet_pipeline("KERNTIME_ENGINE_PIPELINE", pipeline, false);
  if (out.quiet_host) {
    out.warnings.push_back(said("KERNTIME_ENGINE_PIPELINE", pipeline,
                                "each sample is queued, held, before the one before it is "
                                "released, so that the host writes nothing while a sample runs"));
  }
  if (flush != nullptr && *flush != '\0') {
    const std::string value{flush};
    if (value == "kernel") {
      out.flush = Flush::kernel;
      out.warnings.push_back(
          said("KERNTIME_L2_FLUSH", value, "the L2 is flushed by a store kernel of the engine's"));
    } else if (value == "constant") {
      out.flush = Flush::constant;
      out.warnings.push_back(
          said("KERNTIME_L2_FLUSH", value, "the L2 flush writes one byte value every sample"));
    } else if (value == "after-block") {
      out.flush = Flush::after_block;
      out.warnings.push_back(said("KERNTIME_L2_FLUSH", value,
                                  "the L2 is flushed after the blocking kernel, right before the "
                                  "timed work"));
    } else if (value == "read") {
      out.flush = Flush::read;
      out.warnings.push_back(said("KERNTIME_L2_FLUSH", value,
                                  "the L2 is flushed by a kernel's loads, leaving clean lines"));
    } else if (value != "memset") {
      throw Error("KERNTIME_L2_FLUSH=" + value +
                  " is not a value it takes: memset (the default), or the diagnostics kernel, "
                  "constant, after-block and read; unset it to measure as usual");
    }
  }
  if (padding != nullptr && *padding != '\0') {
    const std::string value{padding};
    if (value == "off") {
      out.phase_padding = false;
      out.warnings.push_back(said("KERNTIME_ENGINE_PADDING", value,
                                  "no empty kernels precede a sample's timed work, so where its "
                                  "launches fall on the stream follows what ran before"));
    } else if (value != "on") {
      throw Error("KERNTIME_ENGINE_PADDING=" + value +
                  " is not a value it takes: on (the default) or the diagnostic off; unset it "
                  "to measure as usual");
    }
  }
  return out;
}

bool parse_calibration_quiet_host(const char* pipeline) {
  return quiet_pipeline("KERNTIME_CALIBRATION_PIPELINE", pipeline, true);
}

bool calibration_quiet_host_from_environment() {
  return parse_calibration_quiet_host(std::getenv("KERNTIME_CALIBRATION_PIPELINE"));
}

EngineDiagnostics engine_diagnostics_from_environment() {
  return parse_engine_diagnostics(std::getenv("KERNTIME_ENGINE_PIPELINE"),
                                  std::getenv("KERNTIME_L2_FLUSH"),
                                  std::getenv("KERNTIME_ENGINE_PADDING"));
}

}  // namespace kerntime::bench
