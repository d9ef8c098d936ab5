// SPDX-License-Identifier: Apache-2.0
// Part (b) of trace_bench: back-to-back launches from several host threads, each in its own
// scope on its own stream, traced; no record may be lost and every kernel must land in the
// scope of the thread that launched it.
#pragma once

#include <kerntime/tracer.hpp>

#include "checks.hpp"

namespace trace_examples {

struct BurstSettings {
  int threads = 4;
  long long launches = 1'000'000;  ///< in all, split evenly over the threads
};

void run_burst(kerntime::Tracer& tracer, const BurstSettings& settings, Checks& checks);

}  // namespace trace_examples
