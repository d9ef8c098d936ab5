// SPDX-License-Identifier: Apache-2.0
// The per-process rule (compare_runs) on seeded synthetic GPU noise with a spread between
// processes, modelled on eight same-build processes on an H200 (docs/ci.md, "Several processes
// per side"). Asserts: same vs same at most 0.5 % `regressed` for every noise class; a 10 %
// slowdown of a stable kernel `regressed` in at least 99 % at 5 runs per side and threshold 5 %;
// a 4 % slowdown at threshold 2 % caught for kernels whose processes spread under 1 %. Prints
// Markdown tables for docs/ci.md. Reproduce with
//   ctest --preset default -R RunsSimulation -V
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "compare/runs_rule.hpp"
#include "verdict_rates.hpp"

namespace kerntime::compare_detail {
namespace {

constexpr int kPairs = 1000;
// The runner's default minimum (MeasureOptions::min_samples): the fewest a run has.
constexpr std::size_t kSamplesPerRun = 20;
constexpr double kQuantumNs = 32.0;  // CUPTI timestamps
constexpr std::uint64_t kSeed = 20261201;

// How a kernel's level moves from one process to the next.
enum class NoiseClass {
  stable,    // compute-bound: per-process medians within 0.5 ns of each other
  medium,    // continuous shift, standard deviation 0.5-1 % per kernel
  unstable,  // memory-bound: two levels 2-8 % apart, random mixing probability per kernel
  // The unstable kernels that were measured: 2-7 us (saxpy, transpose), so that the shift is
  // at most 8 % of 7 us = 560 ns. The one-run allowance is judged against these.
  unstable_short,
};

const char* name_of(NoiseClass c) {
  switch (c) {
    case NoiseClass::stable:
      return "stable";
    case NoiseClass::medium:
      return "medium (0.5-1%)";
    case NoiseClass::unstable:
      return "unstable (bimodal 2-8%)";
    default:
      return "unstable, 2-7 us kernels";
  }
}

struct Kernel {
  NoiseClass noise = NoiseClass::stable;
  double base_ns = 0.0;       // log-uniform in [2 us, 1 ms]
  double within_sigma = 0.0;  // lognormal sigma of one process's samples, 0.5-3 %
  double shift_sd = 0.0;      // medium: standard deviation of the process shift
  double level = 0.0;         // unstable: the upper level, relative
  double mix = 0.0;           // unstable: probability that a process lands on it
};

using Rng = std::mt19937_64;

double uniform(Rng& rng, double low, double high) {
  return std::uniform_real_distribution<double>(low, high)(rng);
}

Kernel draw_kernel(Rng& rng, NoiseClass noise) {
  Kernel k;
  k.noise = noise;
  const double longest = noise == NoiseClass::unstable_short ? 7000.0 : 1e6;
  k.base_ns = std::exp(uniform(rng, std::log(2000.0), std::log(longest)));
  k.within_sigma = uniform(rng, 0.005, 0.03);
  k.shift_sd = uniform(rng, 0.005, 0.01);
  k.level = uniform(rng, 0.02, 0.08);
  k.mix = uniform(rng, 0.1, 0.9);
  return k;
}

// One process: its own level, then right-skewed samples with 2 % outliers slower by 10-50 %,
// rounded to the timer quantum.
std::vector<double> simulate_run(Rng& rng, const Kernel& k, double slowdown) {
  double level = 1.0;
  if (k.noise == NoiseClass::medium) {
    level = std::exp(std::normal_distribution<double>(0.0, k.shift_sd)(rng));
  } else if (k.noise == NoiseClass::unstable || k.noise == NoiseClass::unstable_short) {
    level = std::bernoulli_distribution(k.mix)(rng) ? 1.0 + k.level : 1.0;
  }
  std::lognormal_distribution<double> within(0.0, k.within_sigma);
  std::bernoulli_distribution outlier(0.02);
  std::vector<double> samples(kSamplesPerRun);
  for (double& s : samples) {
    double t = k.base_ns * slowdown * level * within(rng);
    if (outlier(rng)) t *= 1.0 + uniform(rng, 0.1, 0.5);
    s = std::max(kQuantumNs, std::round(t / kQuantumNs) * kQuantumNs);
  }
  return samples;
}

Runs simulate_side(Rng& rng, const Kernel& k, double slowdown, std::size_t runs) {
  Runs side;
  for (std::size_t i = 0; i < runs; ++i)
    side.push_back(simulate_run(rng, k, slowdown));
  return side;
}

using Rates = testing::VerdictRates;

// One row: kPairs kernels of one class, each measured in `runs` processes per side. The seed
// depends on the class only, so rows of one class see the same kernels (common random numbers).
Rates simulate(NoiseClass noise, double slowdown, double threshold, std::size_t runs) {
  Rng rng(kSeed + static_cast<std::uint64_t>(noise));
  RunsRuleOptions options;
  options.threshold = threshold;
  options.resolution_ns = kQuantumNs;
  const Rates rates = testing::verdict_rates(kPairs, [&](int) {
    const Kernel k = draw_kernel(rng, noise);
    const Runs a = simulate_side(rng, k, 1.0, runs);
    const Runs b = simulate_side(rng, k, slowdown, runs);
    return compare_runs(a, b, options).verdict;
  });
  std::printf("| %s | %.0f%% | %.0f%% | %zu | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n",
              name_of(noise), (slowdown - 1.0) * 100.0, threshold * 100.0, runs,
              rates.regressed * 100.0, rates.same * 100.0, rates.inconclusive * 100.0,
              rates.improved * 100.0);
  return rates;
}

void print_header(const char* title) {
  std::printf("\n**%s** (%d kernels per row, %zu samples per run, seed %llu)\n\n", title, kPairs,
              kSamplesPerRun, static_cast<unsigned long long>(kSeed));
  std::printf(
      "| noise between processes | slower | threshold | runs per side | regressed | same "
      "| inconclusive | improved |\n");
  std::printf("|---|--:|--:|--:|--:|--:|--:|--:|\n");
}

constexpr NoiseClass kClasses[] = {NoiseClass::stable, NoiseClass::medium, NoiseClass::unstable};

TEST(RunsSimulation, DefaultThreshold) {
  print_header("Threshold 5 %, alpha 0.01");
  std::vector<double> unstable_share;
  for (std::size_t runs : {3u, 5u, 8u}) {
    for (NoiseClass noise : kClasses) {
      const Rates null = simulate(noise, 1.00, 0.05, runs);
      const Rates three = simulate(noise, 1.03, 0.05, runs);
      const Rates five = simulate(noise, 1.05, 0.05, runs);
      const Rates ten = simulate(noise, 1.10, 0.05, runs);
      // Never a false alarm, in either direction, from the default of 5 runs per side up. With
      // 3, a bimodal kernel lands all baseline runs on one level and all candidate runs on the
      // other in about 1 of 140 pairs (the Beta(4, 4) integral of mix^3 (1 - mix)^3), which no
      // statistic can tell from a change: the table shows it.
      if (runs >= 5) {
        EXPECT_LE(null.regressed, 0.005) << name_of(noise) << ", " << runs << " runs";
        EXPECT_LE(null.improved, 0.005) << name_of(noise) << ", " << runs << " runs";
      }
      // A slowdown is never shown as an improvement; more slowdown is caught at least as often.
      EXPECT_EQ(ten.improved, 0.0);
      EXPECT_LE(three.regressed, five.regressed);
      EXPECT_LE(five.regressed, ten.regressed);
      if (noise != NoiseClass::unstable) {
        EXPECT_EQ(ten.same, 0.0) << name_of(noise);
      }
      if (noise == NoiseClass::stable && runs == 5) {
        EXPECT_GE(ten.regressed, 0.99);
      }
      if (noise == NoiseClass::unstable) {
        unstable_share.push_back(null.inconclusive / (null.inconclusive + null.same));
      }
    }
  }
  std::printf(
      "\nUnstable kernels, same vs same: share that ends `inconclusive` rather than "
      "`same`\n\n| runs per side | inconclusive / (inconclusive + same) |\n|--:|--:|\n");
  const std::size_t run_counts[] = {3, 5, 8};
  for (std::size_t i = 0; i < unstable_share.size(); ++i) {
    std::printf("| %zu | %.1f%% |\n", run_counts[i], unstable_share[i] * 100.0);
  }
  std::fflush(stdout);
}

TEST(RunsSimulation, TightThreshold) {
  print_header("Threshold 2 %, alpha 0.01");
  for (std::size_t runs : {3u, 5u, 8u}) {
    for (NoiseClass noise : kClasses) {
      const Rates null = simulate(noise, 1.00, 0.02, runs);
      const Rates four = simulate(noise, 1.04, 0.02, runs);
      if (runs >= 5) {  // see DefaultThreshold for 3 runs
        EXPECT_LE(null.regressed, 0.005) << name_of(noise) << ", " << runs << " runs";
        EXPECT_LE(null.improved, 0.005) << name_of(noise) << ", " << runs << " runs";
      }
      // Kernels whose processes spread under 1 %: a 4 % slowdown is caught at 5 runs.
      if (noise == NoiseClass::stable && runs == 5) {
        EXPECT_GE(four.regressed, 0.99);
      }
      if (noise == NoiseClass::medium && runs == 5) {
        EXPECT_GE(four.regressed, 0.85);
      }
    }
  }
  std::fflush(stdout);
}

TEST(RunsSimulation, OneRunPerSide) {
  print_header("One run per side (within-run rule + allowance max(400 ns, 1.5 %)), threshold 5 %");
  for (NoiseClass noise :
       {NoiseClass::stable, NoiseClass::medium, NoiseClass::unstable, NoiseClass::unstable_short}) {
    const Rates null = simulate(noise, 1.00, 0.05, 1);
    simulate(noise, 1.03, 0.05, 1);
    simulate(noise, 1.05, 0.05, 1);
    simulate(noise, 1.10, 0.05, 1);
    if (noise != NoiseClass::unstable) {
      EXPECT_LE(null.regressed, 0.005) << name_of(noise);
    }
  }
  std::fflush(stdout);
}

}  // namespace
}  // namespace kerntime::compare_detail
