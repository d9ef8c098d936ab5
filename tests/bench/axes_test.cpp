// SPDX-License-Identifier: Apache-2.0
// Axis declaration, --axis values, expansion into configurations and --filter selection.
#include "bench/axes.hpp"

#include <gtest/gtest.h>

#include <kerntime/benchmark.hpp>
#include <kerntime/error.hpp>

namespace kerntime::bench {
namespace {

void body(State&) {}

Axis axis_of(AxisKind kind) {
  return Axis{"n", kind, {}};
}

std::vector<std::int64_t> ints(const std::vector<AxisValue>& values) {
  std::vector<std::int64_t> out;
  for (const AxisValue& v : values)
    out.push_back(std::get<std::int64_t>(v));
  return out;
}

TEST(AxisValues, IntegersPowersAndRanges) {
  const Axis a = axis_of(AxisKind::integer);
  EXPECT_EQ(ints(parse_axis_values(a, "3,2^4,-2")), (std::vector<std::int64_t>{3, 16, -2}));
  EXPECT_EQ(ints(parse_axis_values(a, "1:4")), (std::vector<std::int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(ints(parse_axis_values(a, "0:10:5,7")), (std::vector<std::int64_t>{0, 5, 10, 7}));
}

TEST(AxisValues, PowersOfTwo) {
  const Axis a = axis_of(AxisKind::power_of_two);
  EXPECT_EQ(ints(parse_axis_values(a, "1024,2^20")), (std::vector<std::int64_t>{1024, 1 << 20}));
  EXPECT_EQ(ints(parse_axis_values(a, "2^3:2^6")), (std::vector<std::int64_t>{8, 16, 32, 64}));
  EXPECT_THROW(parse_axis_values(a, "1000"), Error);
  EXPECT_THROW(parse_axis_values(a, "2^3:2^6:2"), Error);
}

TEST(AxisValues, FloatsAndStrings) {
  const auto floats = parse_axis_values(axis_of(AxisKind::floating), "0.5,1e-3");
  ASSERT_EQ(floats.size(), 2u);
  EXPECT_DOUBLE_EQ(std::get<double>(floats[1]), 1e-3);
  const auto strings = parse_axis_values(axis_of(AxisKind::string), "naive,tiled");
  ASSERT_EQ(strings.size(), 2u);
  EXPECT_EQ(std::get<std::string>(strings[1]), "tiled");
}

TEST(AxisValues, BadValuesNameTheAxisAndTheValue) {
  try {
    parse_axis_values(axis_of(AxisKind::integer), "12,x7");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string{e.what()}.find("--axis n: cannot read 'x7'"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_axis_values(axis_of(AxisKind::integer), "5:1"), Error);
  EXPECT_THROW(parse_axis_values(axis_of(AxisKind::integer), "1,,2"), Error);
  EXPECT_THROW(parse_axis_values(axis_of(AxisKind::floating), "nan"), Error);
  EXPECT_THROW(parse_axis_values(axis_of(AxisKind::integer), "99999999999999999999"), Error);
}

TEST(AxisOption, SplitsNameAndValues) {
  const AxisOverride o = parse_axis_option("n=1,2=3");
  EXPECT_EQ(o.name, "n");
  EXPECT_EQ(o.values, "1,2=3");
  EXPECT_THROW(parse_axis_option("n"), Error);
  EXPECT_THROW(parse_axis_option("=4"), Error);
  EXPECT_THROW(parse_axis_option("n="), Error);
}

TEST(Expand, EveryCombinationLastAxisFastest) {
  Benchmark b{"gemm", body};
  b.add_string_axis("variant", {"naive", "tiled"}).add_pow2_axis("n", {9, 10, 11});
  const std::vector<Configuration> all = expand(b, {});
  ASSERT_EQ(all.size(), 6u);
  EXPECT_EQ(all[0].name(), "gemm/variant=naive/n=512");
  EXPECT_EQ(all[1].name(), "gemm/variant=naive/n=1024");
  EXPECT_EQ(all[3].name(), "gemm/variant=tiled/n=512");
  EXPECT_EQ(all[5].name(), "gemm/variant=tiled/n=2048");
}

TEST(Expand, NoAxesIsOneConfiguration) {
  Benchmark b{"empty", body};
  const auto all = expand(b, {});
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].name(), "empty");
}

TEST(Expand, OverridesReplaceAnAxisValues) {
  Benchmark b{"saxpy", body};
  b.add_pow2_axis("n", {20, 24}).add_float_axis("a", {2.0});
  const auto all = expand(b, {{"n", "2^10"}, {"a", "0.5,1.5"}});
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name(), "saxpy/n=1024/a=0.5");
  EXPECT_EQ(all[1].name(), "saxpy/n=1024/a=1.5");
}

TEST(Select, FilterIsARegexSearchOverNames) {
  BenchmarkRegistry r;
  r.add("spin", body).add_int_axis("ns", {2000, 10000});
  r.add("copy", body).add_pow2_axis("bytes", {20, 30});
  EXPECT_EQ(select_configurations(r, "", {}).size(), 4u);
  const auto spins = select_configurations(r, "^spin", {});
  ASSERT_EQ(spins.size(), 2u);
  const auto one = select_configurations(r, "bytes=1073741824$", {});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].name(), "copy/bytes=1073741824");
  EXPECT_TRUE(select_configurations(r, "nothing", {}).empty());
  EXPECT_THROW(select_configurations(r, "(", {}), Error);
}

TEST(Select, AnAxisNoSelectedBenchmarkHasIsAnError) {
  BenchmarkRegistry r;
  r.add("spin", body).add_int_axis("ns", {2000});
  r.add("copy", body).add_pow2_axis("bytes", {20});
  EXPECT_EQ(select_configurations(r, "", {{"ns", "5,6"}}).size(), 3u);
  try {
    select_configurations(r, "copy", {{"ns", "5"}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string{e.what()}.find("none of the selected benchmarks has an axis 'ns'"),
              std::string::npos)
        << e.what();
  }
}

TEST(Declare, RejectsDuplicatesAndBadNames) {
  BenchmarkRegistry r;
  Benchmark& b = r.add("spin", body);
  b.add_int_axis("ns", {1});
  EXPECT_THROW(b.add_int_axis("ns", {2}), Error);
  EXPECT_THROW(b.add_int_axis("x", {}), Error);
  EXPECT_THROW(b.add_int_axis("a/b", {1}), Error);
  EXPECT_THROW(b.add_pow2_axis("p", {63}), Error);
  EXPECT_THROW(r.add("spin", body), Error);
  EXPECT_THROW(r.add("a/b", body), Error);
}

TEST(StateGetters, ReadTheConfigurationAndNameTheAxesOtherwise) {
  Benchmark b{"mix", body};
  b.add_int_axis("n", {7}).add_float_axis("f", {0.25}).add_string_axis("s", {"x"});
  const auto all = expand(b, {});
  ASSERT_EQ(all.size(), 1u);
  Engine engine;  // never measures here: creating it touches no GPU
  State state{all[0], engine, MeasureOptions{}};
  EXPECT_EQ(state.get_int("n"), 7);
  EXPECT_DOUBLE_EQ(state.get_float("f"), 0.25);
  EXPECT_EQ(state.get_string("s"), "x");
  EXPECT_THROW(state.get_float("n"), Error);
  try {
    state.get_int("m");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string{e.what()}.find("(its axes: n, f, s)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kerntime::bench
