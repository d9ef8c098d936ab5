// SPDX-License-Identifier: Apache-2.0
// The statistical quality bar of the within-run rule, measured on seeded synthetic GPU noise: at
// most 1 % of same-vs-same comparisons regress, a 10 % slowdown is caught in at least 99 % at 30
// samples per side. The detection rates of 3 % and 5 % slowdowns are printed for docs/ci.md. This
// measures the within-run statistic alone (Mann-Whitney U and the Hodges-Lehmann interval):
// compare() adds to it, with one run per side, an allowance for the shift between processes that
// one run cannot show, whose effect the per-process simulation (runs_simulation_test.cpp) measures.
// Reproduce with
//   ctest --test-dir build -R CompareSimulation -V
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include <kerntime/compare.hpp>

#include "compare/runs_rule.hpp"
#include "samples.hpp"
#include "verdict_rates.hpp"

namespace kerntime {
namespace {

constexpr int kSimulations = 1000;
constexpr std::size_t kSamples = 30;
constexpr std::uint64_t kSeed = 20261129;

using Rates = testing::VerdictRates;

// One row of the table: kSimulations independent baseline/candidate pairs.
Rates simulate(double slowdown, const std::string& threshold, const testing::NoiseModel& noise,
               std::size_t samples = kSamples) {
  std::mt19937_64 rng(kSeed);
  Thresholds thresholds;
  thresholds.add(threshold);
  // The statistical rule alone, without the allowance for a process shift that compare() adds
  // with one run per side (400 ns or 1.5 %): some simulated medians are a few microseconds,
  // where it would turn a planted change into "inconclusive" and hide what the rank test and
  // interval decide.
  compare_detail::RunsRuleOptions rule;
  rule.threshold = thresholds.default_fraction;
  rule.one_run_shift_ns = 0.0;
  rule.one_run_shift_fraction = 0.0;
  const Rates rates = testing::verdict_rates(kSimulations, [&](int) {
    // A median around 50 us, varied per simulation like different kernels.
    const double median = 50000.0 * std::exp(std::normal_distribution<double>(0.0, 1.0)(rng));
    const auto a = testing::simulate_run(rng, samples, median, 1.0, noise);
    const auto b = testing::simulate_run(rng, samples, median, slowdown, noise);
    return compare_detail::compare_runs({a}, {b}, rule).verdict;
  });
  std::printf("| %5.0f%% | %9s | %7zu | %8.1f%% | %6.1f%% | %12.1f%% | %8.1f%% |\n",
              (slowdown - 1.0) * 100.0, threshold.c_str(), samples, rates.regressed * 100.0,
              rates.same * 100.0, rates.inconclusive * 100.0, rates.improved * 100.0);
  return rates;
}

void print_header(const char* title) {
  std::printf("\n%s: %d simulations per row, seed %llu\n", title, kSimulations,
              static_cast<unsigned long long>(kSeed));
  std::printf("| slower | threshold | samples | regressed |   same | inconclusive | improved |\n");
  std::printf("|-------:|----------:|--------:|----------:|-------:|-------------:|---------:|\n");
}

TEST(CompareSimulation, RealisticNoise) {
  // Lognormal 3 % spread, 2 % outliers slower by 10-50 %, per-run offset 0.5 %.
  const testing::NoiseModel noise;
  print_header("Realistic GPU noise (3% lognormal, 2% outliers +10..50%, 0.5% run offset)");
  const Rates null = simulate(1.00, "5%", noise);
  const Rates three = simulate(1.03, "5%", noise);
  const Rates five = simulate(1.05, "5%", noise);
  const Rates ten = simulate(1.10, "5%", noise);
  simulate(1.10, "5%", noise, 10);
  simulate(1.00, "5%", noise, 100);
  simulate(1.03, "5%", noise, 100);
  simulate(1.05, "5%", noise, 100);
  simulate(1.00, "2%", noise);
  const Rates three_at_two = simulate(1.03, "2%", noise);
  simulate(1.04, "2%", noise);
  simulate(1.05, "2%", noise);
  simulate(1.00, "2%", noise, 100);
  simulate(1.03, "2%", noise, 100);
  std::fflush(stdout);

  EXPECT_LE(null.regressed, 0.01);
  EXPECT_LE(null.improved, 0.01);
  EXPECT_GE(null.same, 0.90);  // unchanged code is positively shown unchanged, not shrugged at
  EXPECT_GE(ten.regressed, 0.99);
  EXPECT_EQ(ten.same, 0.0);
  // Sanity only: bigger slowdowns are caught at least as often, none is "improved".
  EXPECT_LE(three.regressed, five.regressed);
  EXPECT_LE(five.regressed, ten.regressed);
  EXPECT_LE(three.regressed, three_at_two.regressed);
  EXPECT_EQ(ten.improved, 0.0);
}

TEST(CompareSimulation, NoisierMachine) {
  // A busier GPU: 5 % spread, 5 % outliers slower by 10-100 %, 1 % run offset.
  const testing::NoiseModel noise{0.05, 0.05, 0.10, 1.00, 0.01};
  print_header("Noisier GPU (5% lognormal, 5% outliers +10..100%, 1% run offset)");
  const Rates null = simulate(1.00, "5%", noise);
  const Rates ten = simulate(1.10, "5%", noise);
  simulate(1.05, "5%", noise);
  simulate(1.03, "5%", noise);
  std::fflush(stdout);
  EXPECT_LE(null.regressed, 0.01);
  // Noise costs detection, but a real slowdown is never called "same": what is not caught is
  // inconclusive, which asks for more samples.
  EXPECT_GE(ten.regressed, 0.90);
  EXPECT_EQ(ten.same, 0.0);
}

}  // namespace
}  // namespace kerntime
