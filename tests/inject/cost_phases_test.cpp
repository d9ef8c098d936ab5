// SPDX-License-Identifier: Apache-2.0
// KERNTIME_RUN_COST_PHASES: its setting, and the phases' rows, each with the launches counted
// while it lasted and kerntime's work switched as its name says.
#include "inject/cost_phases.hpp"

#include <atomic>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>

namespace kerntime::inject {
namespace {

TEST(CostPhases, TheSettingIsAPhaseLengthInMilliseconds) {
  EXPECT_FALSE(parse_cost_phases(nullptr));
  EXPECT_FALSE(parse_cost_phases(""));
  const std::optional<CostPhaseSettings> settings = parse_cost_phases("100");
  ASSERT_TRUE(settings);
  EXPECT_DOUBLE_EQ(settings->phase_ms, 100.0);
  EXPECT_DOUBLE_EQ(parse_cost_phases("2.5")->phase_ms, 2.5);
  for (const char* bad : {"0", "0.5", "20000", "100ms", "ten", "-5", "nan"}) {
    try {
      parse_cost_phases(bad);
      ADD_FAILURE() << bad << " was taken";
    } catch (const Error& error) {
      EXPECT_NE(std::string{error.what()}.find("KERNTIME_RUN_COST_PHASES=\"" + std::string{bad}),
                std::string::npos)
          << error.what();
      EXPECT_NE(std::string{error.what()}.find("milliseconds"), std::string::npos);
    }
  }
}

// The fake program launches 10 times per count while kerntime is idle and 3 times while it
// works, so each row's launches show which switch position the phase had.
TEST(CostPhases, EachPhaseCountsTheLaunchesMadeWhileItLasted) {
  bool idle = false;
  std::uint64_t total = 0;
  std::vector<bool> switches;
  std::vector<nlohmann::json> rows;
  CostPhaseHooks hooks;
  hooks.launches = [&] { return total += idle ? 10 : 3; };
  hooks.set_idle = [&](bool value) {
    idle = value;
    switches.push_back(value);
  };
  hooks.write_row = [&](const std::string& row) { rows.push_back(nlohmann::json::parse(row)); };
  CostPhaseSettings settings;
  settings.phase_ms = 5.0;
  settings.cycles = 3;
  const std::atomic<bool> stop{false};
  run_cost_phases(settings, hooks, stop);

  ASSERT_EQ(rows.size(), 6u);
  double seconds = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const bool idle_phase = i % 2 == 0;
    EXPECT_EQ(rows[i]["cycle"], i / 2);
    EXPECT_EQ(rows[i]["phase"], idle_phase ? "idle" : "kerntime");
    EXPECT_EQ(rows[i]["launches"], idle_phase ? 10 : 3) << rows[i].dump();
    EXPECT_EQ(rows[i]["kernels"], rows[i]["launches"]);
    // Phases end on a fixed grid: a late wake-up shortens the next phase, so on a loaded
    // machine one phase may be far under 5 ms, but each has a length and the first i + 1
    // together span at least (i + 1) * 5 ms (less the rows' rounding to nanoseconds).
    EXPECT_GT(rows[i]["seconds"].get<double>(), 0.0) << rows[i].dump();
    seconds += rows[i]["seconds"].get<double>();
    EXPECT_GE(seconds, 0.005 * static_cast<double>(i + 1) - 1e-8) << rows[i].dump();
  }
  ASSERT_FALSE(switches.empty());
  EXPECT_FALSE(switches.back()) << "left idle";
  EXPECT_FALSE(idle);
}

TEST(CostPhases, AStopEndsThePhasesWithKerntimesWorkOn) {
  bool idle = false;
  std::atomic<bool> stop{false};
  std::size_t rows = 0;
  CostPhaseHooks hooks;
  hooks.launches = [] { return std::uint64_t{0}; };
  hooks.set_idle = [&](bool value) { idle = value; };
  hooks.write_row = [&](const std::string&) {
    if (++rows == 3) stop.store(true);
  };
  CostPhaseSettings settings;
  settings.phase_ms = 1.0;  // cycles 0: until stopped
  run_cost_phases(settings, hooks, stop);
  EXPECT_EQ(rows, 3u);
  EXPECT_FALSE(idle);
}

}  // namespace
}  // namespace kerntime::inject
