// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bench/device_resources.hpp"

namespace kerntime::bench {

/// The device's launch floor: the median event time of an empty kernel queued behind the
/// blocking kernel (no flush), over 101 samples after 5 warm-up samples. Subtracting it from a
/// cold event time removes what the event pair and the launch add around any kernel (about
/// 2.3 us on an H200); what stays is the kernel's time beyond an empty kernel's.
/// Throws kerntime::Error when no sample is valid.
double calibrate_floor(DeviceResources& resources);

}  // namespace kerntime::bench
