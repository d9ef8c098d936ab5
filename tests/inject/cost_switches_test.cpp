// SPDX-License-Identifier: Apache-2.0
// kerntime run's cost switches (KERNTIME_RUN_RECORD_OFF, KERNTIME_RUN_AS_BEFORE) without a GPU:
// which parts each list names, and what they turn off in the tracer's options.
#include "inject/cost_switches.hpp"

#include <gtest/gtest.h>

namespace kerntime::inject {
namespace {

TEST(CostSwitches, AListNamesWholePartsOnly) {
  EXPECT_TRUE(listed("api", "api"));
  EXPECT_TRUE(listed("scopes,api", "api"));
  EXPECT_TRUE(listed("api,copies", "copies"));
  EXPECT_FALSE(listed("apis", "api"));
  EXPECT_FALSE(listed("copies-api", "api"));
  EXPECT_FALSE(listed("", "api"));
  EXPECT_FALSE(listed(nullptr, "api"));
}

// `s` leaves every record kind of the tracer's options as it was.
void expect_every_record_kind_kept(const CostSwitches& s) {
  TracerOptions options;
  const TracerOptions before = options;
  apply_record_off(s, options);
  EXPECT_EQ(options.runtime_api, before.runtime_api);
  EXPECT_EQ(options.driver_api, before.driver_api);
  EXPECT_EQ(options.memcpy, before.memcpy);
  EXPECT_EQ(options.memset, before.memset);
  EXPECT_EQ(options.scopes, before.scopes);
}

TEST(CostSwitches, UnsetTurnsNothingOff) {
  const CostSwitches s = parse_cost_switches(nullptr, nullptr);
  expect_every_record_kind_kept(s);
  EXPECT_FALSE(s.sync_flush_off);
  EXPECT_FALSE(s.tags_as_before);
  EXPECT_FALSE(s.api_as_before);
  EXPECT_FALSE(s.zeroing_as_before);
}

TEST(CostSwitches, EachPartTurnsOffItsRecordsAndNoOther) {
  TracerOptions api;
  apply_record_off(parse_cost_switches("api", nullptr), api);
  EXPECT_FALSE(api.runtime_api);
  EXPECT_FALSE(api.driver_api);
  EXPECT_TRUE(api.memcpy);
  EXPECT_TRUE(api.scopes);

  TracerOptions copies;
  apply_record_off(parse_cost_switches("copies", nullptr), copies);
  EXPECT_FALSE(copies.memcpy);
  EXPECT_FALSE(copies.memset);
  EXPECT_TRUE(copies.runtime_api);
  EXPECT_TRUE(copies.scopes);

  TracerOptions all;
  apply_record_off(parse_cost_switches("api,scopes,copies", nullptr), all);
  EXPECT_FALSE(all.runtime_api || all.driver_api || all.memcpy || all.memset || all.scopes);
  EXPECT_FALSE(parse_cost_switches("api,scopes,copies", nullptr).sync_flush_off);
}

TEST(CostSwitches, TheFlushAtASynchronizationIsAPartOfItsOwnAndRecordsNothing) {
  const CostSwitches s = parse_cost_switches("sync-flush", nullptr);
  EXPECT_TRUE(s.sync_flush_off);
  EXPECT_FALSE(s.api_off || s.scopes_off || s.copies_off);
  expect_every_record_kind_kept(s);
  EXPECT_FALSE(parse_cost_switches("sync", nullptr).sync_flush_off);
}

TEST(CostSwitches, AsBeforeNamesTagsAndApiApart) {
  const CostSwitches tags = parse_cost_switches(nullptr, "tags");
  EXPECT_TRUE(tags.tags_as_before);
  EXPECT_FALSE(tags.api_as_before);
  const CostSwitches both = parse_cost_switches(nullptr, "tags,api");
  EXPECT_TRUE(both.tags_as_before);
  EXPECT_TRUE(both.api_as_before);
  EXPECT_FALSE(both.scopes_off);
  EXPECT_FALSE(both.zeroing_as_before);
  const CostSwitches zeroing = parse_cost_switches(nullptr, "zeroing");
  EXPECT_TRUE(zeroing.zeroing_as_before);
  EXPECT_FALSE(zeroing.api_as_before);
  expect_every_record_kind_kept(zeroing);
}

// API records cost the program's later launches even once switched off (docs/run.md): asked for
// only where something needs them.
TEST(CostSwitches, ApiRecordsOnlyWhereATimelineAllCallsOrCuptisRangeTagsNeedThem) {
  const CostSwitches none = parse_cost_switches(nullptr, nullptr);
  RunSettings settings;  // the default run: launch callback on, no timeline
  EXPECT_FALSE(wants_api_records(settings, none));
  RunSettings timeline;
  timeline.launch_calls = true;
  EXPECT_TRUE(wants_api_records(timeline, none));
  RunSettings all;
  all.all_api_calls = true;
  EXPECT_TRUE(wants_api_records(all, none));
  EXPECT_TRUE(wants_api_records(settings, parse_cost_switches(nullptr, "api")));
  // Without the launch callback, kernels find their NVTX ranges through CUPTI's external
  // correlation records, which come only beside API records; with ranges off they need none.
  RunSettings no_callback;
  no_callback.last_launch = false;
  EXPECT_TRUE(wants_api_records(no_callback, none));
  EXPECT_FALSE(wants_api_records(no_callback, parse_cost_switches("scopes", nullptr)));
  EXPECT_TRUE(wants_api_records(settings, parse_cost_switches(nullptr, "tags")));
}

// CUPTI tags only API records: without them its external correlation kind would write nothing,
// so it goes with them.
TEST(CostSwitches, WithoutApiRecordsNoExternalCorrelationKind) {
  TracerOptions off;
  apply_api_records(false, off);
  EXPECT_FALSE(off.runtime_api);
  EXPECT_FALSE(off.driver_api);
  EXPECT_FALSE(off.scopes);
  EXPECT_TRUE(off.memcpy);
  EXPECT_TRUE(off.memset);
  TracerOptions on;
  apply_api_records(true, on);
  EXPECT_TRUE(on.runtime_api);
  EXPECT_TRUE(on.driver_api);
  EXPECT_TRUE(on.scopes);
  // What the diagnostics turned off stays off.
  TracerOptions no_scopes;
  apply_record_off(parse_cost_switches("scopes", nullptr), no_scopes);
  apply_api_records(true, no_scopes);
  EXPECT_FALSE(no_scopes.scopes);
}

}  // namespace
}  // namespace kerntime::inject
