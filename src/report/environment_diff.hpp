// SPDX-License-Identifier: Apache-2.0
// The part of compare_environments() that makes reports impossible to merge, not only worth a
// warning: one baseline cannot hold the timings of two GPU models.
#pragma once

#include <string>
#include <vector>

#include <kerntime/environment.hpp>

namespace kerntime::report {

/// The GPU model and compute capability differences of compare_environments(), same sentences
/// and same pairing of devices; unknown fields are not compared.
std::vector<std::string> gpu_model_differences(const Environment& baseline,
                                               const Environment& candidate);

}  // namespace kerntime::report
