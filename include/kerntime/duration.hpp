// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include <kerntime/export.hpp>

namespace kerntime {

/// Formats a duration given in nanoseconds with a unit chosen by magnitude, 4 significant
/// digits: 812 ns, 2.593 us, 1.006 ms, 12.35 s. Negative durations keep their sign.
KERNTIME_API std::string format_duration(double nanoseconds);

}  // namespace kerntime
