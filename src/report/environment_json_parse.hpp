// SPDX-License-Identifier: Apache-2.0
// A kerntime-report/1 file's "environment" object (docs/report-format.md), read apart from the
// entries: the host, the CUDA versions in both their forms, and the devices.
#pragma once

#include <kerntime/environment.hpp>

#include "report/json_reader.hpp"

namespace kerntime::report {

/// Fills `out` from the object `env` (path "environment"): every field optional, the type of
/// each present one checked through `reader`, which names the source; "driver_version" and
/// "driver_version_raw" (and the runtime's pair) must agree when both are given.
void read_environment(const JsonReader& reader, const Json& env, Environment& out);

}  // namespace kerntime::report
