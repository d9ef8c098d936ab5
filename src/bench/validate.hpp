// SPDX-License-Identifier: Apache-2.0
// The check measure() runs on its options before anything touches the GPU; private (tests
// include it): users learn of an invalid field from measure()'s kerntime::Error.
#pragma once

#include <kerntime/measure.hpp>

namespace kerntime {

/// Throws kerntime::Error naming the first invalid field of `options`.
void validate(const MeasureOptions& options);

}  // namespace kerntime
