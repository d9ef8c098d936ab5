// SPDX-License-Identifier: Apache-2.0
#include "inject/cost_switches.hpp"

#include <cstdlib>
#include <string>

namespace kerntime::inject {

bool listed(const char* list, const char* part) {
  if (list == nullptr) return false;
  return (std::string{","} + list + ",").find(std::string{","} + part + ",") != std::string::npos;
}

CostSwitches parse_cost_switches(const char* record_off, const char* as_before) {
  CostSwitches s;
  s.api_off = listed(record_off, "api");
  s.scopes_off = listed(record_off, "scopes");
  s.copies_off = listed(record_off, "copies");
  s.sync_flush_off = listed(record_off, "sync-flush");
  s.tags_as_before = listed(as_before, "tags");
  s.api_as_before = listed(as_before, "api");
  s.zeroing_as_before = listed(as_before, "zeroing");
  return s;
}

CostSwitches cost_switches_from_environment() {
  return parse_cost_switches(std::getenv("KERNTIME_RUN_RECORD_OFF"),
                             std::getenv("KERNTIME_RUN_AS_BEFORE"));
}

bool wants_api_records(const RunSettings& settings, const CostSwitches& switches) {
  const bool ranges_through_cupti =
      !switches.scopes_off && (!settings.last_launch || switches.tags_as_before);
  return settings.all_api_calls || settings.launch_calls || switches.api_as_before ||
         ranges_through_cupti;
}

void apply_api_records(bool wanted, TracerOptions& options) {
  if (wanted) return;
  options.runtime_api = options.driver_api = false;
  options.scopes = false;
}

void apply_record_off(const CostSwitches& switches, TracerOptions& options) {
  if (switches.api_off) options.runtime_api = options.driver_api = false;
  if (switches.scopes_off) options.scopes = false;
  if (switches.copies_off) options.memcpy = options.memset = false;
}

}  // namespace kerntime::inject
