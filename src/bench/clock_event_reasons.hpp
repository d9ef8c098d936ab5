// SPDX-License-Identifier: Apache-2.0
// Why the GPU's clock is below its peak, as NVML says it (nvmlDeviceGetCurrentClocksEventReasons,
// the "throttle reasons" of older drivers). The bits are NVML's; kerntime keeps the raw mask per
// sample and names the ones that slow a kernel down, so that a measurement taken while the GPU
// was power- or heat-capped says so with the cause (docs/benchmarks.md, "Clock and power").
#pragma once

#include <cstdint>
#include <string>

namespace kerntime::bench {

/// NVML's nvmlClocksEventReason* bits.
namespace clock_event {
inline constexpr std::uint64_t kGpuIdle = 0x1;
inline constexpr std::uint64_t kApplicationsClocksSetting = 0x2;
inline constexpr std::uint64_t kSwPowerCap = 0x4;
inline constexpr std::uint64_t kHwSlowdown = 0x8;
inline constexpr std::uint64_t kSyncBoost = 0x10;
inline constexpr std::uint64_t kSwThermalSlowdown = 0x20;
inline constexpr std::uint64_t kHwThermalSlowdown = 0x40;
inline constexpr std::uint64_t kHwPowerBrakeSlowdown = 0x80;
inline constexpr std::uint64_t kDisplayClockSetting = 0x100;
}  // namespace clock_event

/// The reasons that hold a busy GPU below the clock it would otherwise run at: power and
/// thermal caps and hardware slowdowns. Idle, a user's locked application clocks, sync boost and
/// display clocks are not: they say nothing about a kernel running slower than it can.
inline constexpr std::uint64_t kSlowingClockEvents =
    clock_event::kSwPowerCap | clock_event::kHwSlowdown | clock_event::kSwThermalSlowdown |
    clock_event::kHwThermalSlowdown | clock_event::kHwPowerBrakeSlowdown;

/// The slowing reasons in `mask` as stable tokens, comma-separated in bit order
/// ("sw-power-cap,hw-thermal"); "" when none. What the report keeps.
std::string slowing_clock_event_names(std::uint64_t mask);

/// The same reasons in words for a warning ("the software power cap and hardware thermal
/// slowdown"); "" when none.
std::string slowing_clock_events_in_words(std::uint64_t mask);

}  // namespace kerntime::bench
