// SPDX-License-Identifier: Apache-2.0
// Axis declaration, --axis values, expansion into configurations and --filter selection.
#include "bench/axes.hpp"

#include <gtest/gtest.h>

#include <kerntime/benchmark.hpp>
#include <kerntime/error.hpp>

struct Pixel {};
KERNTIME_TYPE_NAME(Pixel, "pixel");

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

// --- NVBench's spellings -----------------------------------------------------------------

std::vector<AxisValue> nvbench(const Axis& axis, const std::string& option) {
  return parse_axis_values(axis, parse_axis_option(option));
}

TEST(AxisOption, NvbenchListsRangesAndThePow2Flag) {
  AxisOverride o = parse_axis_option("n=[1,2]");
  EXPECT_EQ(o.name, "n");
  EXPECT_EQ(o.values, "1,2");
  EXPECT_FALSE(o.exponents);
  o = parse_axis_option(" n [ pow2 ] = [ 20 : 24 ] ");  // whitespace is ignored
  EXPECT_EQ(o.name, "n");
  EXPECT_EQ(o.values, "20 : 24");
  EXPECT_TRUE(o.exponents);
  EXPECT_THROW(parse_axis_option("n[log]=1"), Error);
  EXPECT_THROW(parse_axis_option("n=[1,2"), Error);
  EXPECT_THROW(parse_axis_option("[pow2]=1"), Error);
  EXPECT_THROW(parse_axis_option("n=[]"), Error);
}

TEST(AxisValues, NvbenchExamplesGiveNvbenchsValues) {
  // The examples of NVBench's docs/cli_help_axis.md, on kerntime's axis kinds.
  const Axis integer = axis_of(AxisKind::integer);
  EXPECT_EQ(ints(nvbench(integer, "n=12345")), (std::vector<std::int64_t>{12345}));
  EXPECT_EQ(ints(nvbench(integer, "n=[1,2,3,4,5]")), (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(ints(nvbench(integer, "n=[2:10:2]")), (std::vector<std::int64_t>{2, 4, 6, 8, 10}));
  EXPECT_EQ(ints(nvbench(integer, "n[pow2]=8")), (std::vector<std::int64_t>{256}));
  const Axis pow2 = axis_of(AxisKind::power_of_two);
  EXPECT_EQ(ints(nvbench(pow2, "n[pow2]=[4,6,8,10]")),
            (std::vector<std::int64_t>{16, 64, 256, 1024}));
  EXPECT_EQ(ints(nvbench(pow2, "n[pow2]=[2:10:2]")),
            (std::vector<std::int64_t>{4, 16, 64, 256, 1024}));
  EXPECT_EQ(ints(nvbench(pow2, "n[pow2]=[20:24]")),
            (std::vector<std::int64_t>{1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24}));
  EXPECT_EQ(ints(nvbench(pow2, "n=[16:64]")), (std::vector<std::int64_t>{16, 32, 64}));
  EXPECT_THROW(nvbench(pow2, "n[pow2]=63"), Error);
  const auto floats = nvbench(axis_of(AxisKind::floating), "n=[.5:1:.1]");
  ASSERT_EQ(floats.size(), 6u);
  std::string names;
  for (const AxisValue& v : floats)
    names += format_axis_value(v) + " ";
  EXPECT_EQ(names, "0.5 0.6 0.7 0.8 0.9 1 ");
  const auto strings = nvbench(axis_of(AxisKind::string), "n=[Uniform, Gaussian]");
  ASSERT_EQ(strings.size(), 2u);
  EXPECT_EQ(std::get<std::string>(strings[1]), "Gaussian");
}

TEST(AxisValues, ExponentsOnAPow2AxisWithoutTheFlagPointToIt) {
  try {
    nvbench(axis_of(AxisKind::power_of_two), "n=[20:24]");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string{e.what()}.find("n[pow2]=[a:b]"), std::string::npos) << e.what();
  }
  EXPECT_THROW(nvbench(axis_of(AxisKind::floating), "n[pow2]=3"), Error);
  EXPECT_THROW(nvbench(axis_of(AxisKind::floating), "n=[1:0.5]"), Error);
}

TEST(AxisValues, TypesAreChosenAmongThoseCompiledIncludingNvbenchNames) {
  const Axis t{"T", AxisKind::type, {AxisValue{"float"}, AxisValue{"int8"}, AxisValue{"double"}}};
  const auto chosen = nvbench(t, "T=[F64,int8]");
  ASSERT_EQ(chosen.size(), 2u);
  EXPECT_EQ(std::get<std::string>(chosen[0]), "double");
  EXPECT_EQ(std::get<std::string>(chosen[1]), "int8");
  try {
    nvbench(t, "T=half");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string{e.what()}.find("compiled for: float, int8, double"), std::string::npos)
        << e.what();
  }
}

// --- type axes and names that are not one token ---------------------------------------------

std::vector<std::string>& calls() {
  static std::vector<std::string> names;
  return names;
}

template <class T, class U>
void typed(State& state, type_list<T, U>) {
  calls().push_back(state.get_string("T") + "/" + type_name<T>::get() + "+" + type_name<U>::get());
}

template <class T, int Width>
void widened(State&) {
  calls().push_back("widened " + type_name<T>::get() + " " + std::to_string(Width));
}

TEST(TypeAxes, NamesOfTypes) {
  EXPECT_EQ(type_name<float>::get(), "float");
  EXPECT_EQ(type_name<double>::get(), "double");
  EXPECT_EQ(type_name<std::int8_t>::get(), "int8");
  EXPECT_EQ(type_name<std::uint16_t>::get(), "uint16");
  EXPECT_EQ(type_name<std::int64_t>::get(), "int64");
  EXPECT_EQ(type_name<bool>::get(), "bool");
  EXPECT_EQ((type_name<std::integral_constant<int, 128>>::get()), "128");
  EXPECT_EQ((type_name<std::pair<int, float>>::get()), "std::pair<int,float>");
  EXPECT_EQ(type_name<Pixel>::get(), "pixel");
}

TEST(TypeAxes, EveryCombinationOfTypesIsAConfigurationThatRunsItsInstance) {
  BenchmarkRegistry r;
  Benchmark& b = detail::register_typed_benchmark<type_list<float, std::int8_t>, value_list<4, 8>>(
      r, "sort", [](State& s, auto types) { typed(s, types); });
  b.set_type_axes_names({"T", "Width"}).add_pow2_axis("n", {10});
  ASSERT_EQ(b.axes().size(), 3u);
  EXPECT_EQ(b.axes()[0].kind, AxisKind::type);
  EXPECT_EQ(b.axes()[1].name, "Width");
  const auto all = expand(b, {});
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].name(), "sort/T=float/Width=4/n=1024");
  EXPECT_EQ(all[3].name(), "sort/T=int8/Width=8/n=1024");
  Engine engine;  // never measures here: creating it touches no GPU
  calls().clear();
  for (const Configuration& c : all) {
    State state{c, engine, MeasureOptions{}};
    b.run(state);
  }
  EXPECT_EQ(calls(), (std::vector<std::string>{"float/float+4", "float/float+8", "int8/int8+4",
                                               "int8/int8+8"}));
  // -a T=I8 keeps only the int8 instances.
  const auto int8 = expand(b, {parse_axis_option("T=I8")});
  ASSERT_EQ(int8.size(), 2u);
  calls().clear();
  State state{int8[1], engine, MeasureOptions{}};
  b.run(state);
  EXPECT_EQ(calls(), (std::vector<std::string>{"int8/int8+8"}));
}

TEST(TypeAxes, OneTypeAxisIsCalledTAndSeveralT1T2) {
  BenchmarkRegistry r;
  const auto body = [](State&, auto) {};
  EXPECT_EQ(detail::register_typed_benchmark<type_list<float>>(r, "a", body).axes()[0].name, "T");
  Benchmark& two = detail::register_typed_benchmark<type_list<float>, type_list<int>>(r, "b", body);
  EXPECT_EQ(two.axes()[0].name, "T1");
  EXPECT_EQ(two.axes()[1].name, "T2");
  Benchmark& three = detail::register_typed_benchmark<type_list<float>>(r, "c", body);
  EXPECT_THROW(three.set_type_axes_names({"A", "B"}), Error);
  three.add_int_axis("n", {1});
  EXPECT_THROW(three.set_type_axes_names({"n"}), Error);  // names stay unique
  // Two types with one name could not be told apart on the command line.
  EXPECT_THROW((detail::register_typed_benchmark<type_list<long, long long>>(r, "d", body)), Error);
}

TEST(TypeAxes, TheMacrosRegisterTemplateIdsLambdasAndTypedBodies) {
  // Registered at the end of this file, in the process-wide registry.
  const auto& all = benchmark_registry().benchmarks();
  std::vector<std::string> names;
  for (const auto& b : all)
    names.push_back(b->name());
  EXPECT_EQ(names, (std::vector<std::string>{"widened<float,4>", "wide_double", "lambda", "typed",
                                             "pairs"}));
  calls().clear();
  Engine engine;
  for (const auto& b : all) {
    for (const Configuration& c : expand(*b, {})) {
      State state{c, engine, MeasureOptions{}};
      b->run(state);
    }
  }
  EXPECT_EQ(calls(), (std::vector<std::string>{"widened float 4", "widened double 2", "lambda 7",
                                               "float/float+float", "float/float+int16",
                                               "double/double+float", "double/double+int16",
                                               "uint8/uint8+bool"}));
  EXPECT_EQ(all[3]->axes()[1].name, "U");
  EXPECT_EQ(all[4]->axes()[0].name, "T");
  EXPECT_EQ(all[4]->axes()[1].name, "T2");  // renamed in part
}

// --- selection --------------------------------------------------------------------------------

TEST(Select, ANameCopiedFromAReportMatches) {
  BenchmarkRegistry r;
  r.add("saxpy", body).add_pow2_axis("n", {20, 24});
  Selection s;
  s.filter = "saxpy/n=1048576/cold";
  s.name_suffixes = {"/cold"};
  const auto one = select_configurations(r, s);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].name(), "saxpy/n=1048576");
  s.filter = "saxpy/n=1048576$";  // anchored at the configuration's own name still works
  EXPECT_EQ(select_configurations(r, s).size(), 1u);
  s.filter = "saxpy/n=16777216/cold/device=1";
  EXPECT_TRUE(select_configurations(r, s).empty());
  s.name_suffixes = {"/cold", "/cold/device=0", "/cold/device=1"};
  EXPECT_EQ(select_configurations(r, s).size(), 1u);
  s.filter = "saxpy/n=1048576/hot";
  EXPECT_TRUE(select_configurations(r, s).empty());
}

TEST(Select, BenchmarksByNameOrIndexEachWithItsOwnAxes) {
  BenchmarkRegistry r;
  r.add("spin", body).add_int_axis("ns", {2000, 10000});
  r.add("copy", body).add_pow2_axis("bytes", {20, 30});
  Selection s;
  s.benchmarks = {{"1", {parse_axis_option("bytes[pow2]=10")}},
                  {"spin", {parse_axis_option("ns=5")}},
                  {"spin", {parse_axis_option("ns=[5,6]")}}};
  const auto chosen = select_configurations(r, s);
  std::vector<std::string> names;
  for (const Configuration& c : chosen)
    names.push_back(c.name());
  // In the order given; spin/ns=5 once although both choices have it.
  EXPECT_EQ(names, (std::vector<std::string>{"copy/bytes=1024", "spin/ns=5", "spin/ns=6"}));
  s.benchmarks = {{"copy", {parse_axis_option("ns=5")}}};
  try {
    select_configurations(r, s);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string{e.what()}.find("benchmark 'copy' has no axis 'ns' (its axes: bytes)"),
              std::string::npos)
        << e.what();
  }
  for (const char* which : {"2", "sp", "-1", "99999999999999"}) {
    s.benchmarks = {{which, {}}};
    try {
      select_configurations(r, s);
      FAIL() << which;
    } catch (const Error& e) {
      EXPECT_NE(std::string{e.what()}.find("--list shows 0 spin, 1 copy"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace kerntime::bench

// Registrations for TheMacrosRegisterTemplateIdsLambdasAndTypedBodies, with the macros a user
// writes: a template-id with a comma (named by its spelling), the same under a name of its own,
// a lambda, and type axes.
namespace {
using kerntime::bench::calls;
using kerntime::bench::typed;
using kerntime::bench::widened;
}  // namespace
KERNTIME_BENCHMARK(widened<float, 4>);
KERNTIME_BENCHMARK_NAMED("wide_double", widened<double, 2>);
KERNTIME_BENCHMARK_NAMED("lambda", [](kerntime::State& state) {
  calls().push_back("lambda " + std::to_string(state.get_int("k")));
}).add_int_axis("k", {7});
KERNTIME_BENCHMARK_TYPES(typed, kerntime::type_list<float, double>,
                         kerntime::type_list<float, std::int16_t>)
    .set_type_axes_names({"T", "U"});
KERNTIME_BENCHMARK_TYPES_NAMED("pairs", typed, kerntime::type_list<std::uint8_t>,
                               kerntime::type_list<bool>)
    .set_type_axes_names({"T"});
