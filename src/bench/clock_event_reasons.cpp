// SPDX-License-Identifier: Apache-2.0
#include "bench/clock_event_reasons.hpp"

#include <cstddef>
#include <vector>

namespace kerntime::bench {
namespace {

struct Named {
  std::uint64_t bit;
  const char* token;
  const char* words;
};

constexpr Named kNamed[] = {
    {clock_event::kSwPowerCap, "sw-power-cap", "the software power cap"},
    {clock_event::kHwSlowdown, "hw-slowdown", "a hardware slowdown"},
    {clock_event::kSwThermalSlowdown, "sw-thermal", "software thermal slowdown"},
    {clock_event::kHwThermalSlowdown, "hw-thermal", "hardware thermal slowdown"},
    {clock_event::kHwPowerBrakeSlowdown, "hw-power-brake", "the hardware power brake"},
};

std::vector<const Named*> present(std::uint64_t mask) {
  std::vector<const Named*> found;
  for (const Named& n : kNamed) {
    if ((mask & n.bit) != 0) found.push_back(&n);
  }
  return found;
}

}  // namespace

std::string slowing_clock_event_names(std::uint64_t mask) {
  std::string names;
  for (const Named* n : present(mask)) {
    if (!names.empty()) names += ',';
    names += n->token;
  }
  return names;
}

std::string slowing_clock_events_in_words(std::uint64_t mask) {
  const std::vector<const Named*> found = present(mask);
  std::string words;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (i > 0) words += i + 1 == found.size() ? " and " : ", ";
    words += found[i]->words;
  }
  return words;
}

}  // namespace kerntime::bench
