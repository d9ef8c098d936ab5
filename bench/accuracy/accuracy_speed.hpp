// SPDX-License-Identifier: Apache-2.0
// bench_accuracy's speed section: the eight configurations NVBench needed 35 s for (four spin
// lengths, the empty kernel, three copy sizes), measured with default settings, twice.
#pragma once

#include <string>
#include <vector>

#include <kerntime/measurement.hpp>
#include <kerntime/tracer.hpp>

namespace kerntime::examples {

struct SpeedRun {
  std::vector<Measurement> results;
  std::vector<double> wall_s;  ///< per configuration: its measure() call
  double total_s = 0.0;        ///< the whole suite: engine start, calibration, allocation
};

/// Runs the suite once with a fresh Engine (so calibration counts), CUPTI through `tracer`.
SpeedRun run_speed_suite(Tracer& tracer);

}  // namespace kerntime::examples
