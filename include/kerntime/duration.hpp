// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include <kerntime/export.hpp>

namespace kerntime {

/// Formats a duration given in nanoseconds with a unit chosen by magnitude, 4 significant
/// digits: 812 ns, 2.593 us, 1.006 ms, 12.35 s. Negative durations keep their sign. Below 0.001
/// ns and from 10^12 s up, an exponent keeps the 4 digits (4.941e-324 ns, 1.000e+291 s); NaN and
/// infinity, which only an overflow gives, are "overflow". Never throws.
KERNTIME_API std::string format_duration(double nanoseconds);

}  // namespace kerntime
