// SPDX-License-Identifier: Apache-2.0
// Type axes: a templated benchmark swept over C++ types, as NVBench's NVBENCH_BENCH_TYPES and
// Google Benchmark's BENCHMARK_TEMPLATE do, with readable type names in configuration names:
//
//     template <class T>
//     void sort(kerntime::State& state, kerntime::type_list<T>) { ... }
//     KERNTIME_BENCHMARK_TYPES(sort, kerntime::type_list<float, double, std::int8_t>)
//         .add_pow2_axis("n", {20, 24});          // sort/T=float/n=1048576, ...
//
// benchmark.hpp has the registration macros; this header has the type lists and type names.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include <kerntime/axes.hpp>
#include <kerntime/export.hpp>

namespace kerntime {

/// A list of types. As an argument of KERNTIME_BENCHMARK_TYPES it is one type axis; as the
/// second parameter of a templated benchmark's body it carries one type per axis, so that the
/// body's template parameters are deduced (and overloads can reject combinations).
template <class... Ts>
struct type_list {};

/// Compile-time values as a type axis (NVBench's enum_type_list): value_list<64, 128> is
/// type_list<std::integral_constant<int, 64>, std::integral_constant<int, 128>>, named 64, 128.
template <auto... Values>
using value_list = type_list<std::integral_constant<decltype(Values), Values>...>;

namespace detail {
/// The demangled name of `type`, without the spaces C++ puts after commas and between '>'s:
/// "std::pair<int,float>".
KERNTIME_API std::string demangled_type_name(const std::type_info& type);
KERNTIME_API std::string integer_type_name(bool is_signed, std::size_t bytes);
}  // namespace detail

/// The name of T in configuration names and on the command line (-a T=float,int8). The
/// arithmetic types are named float, double, bool, char, int8 ... int64, uint8 ... uint64;
/// std::integral_constant<T, v> by its value; CUDA's half types in cuda_type_names.hpp. Any
/// other type is named by its demangled C++ name; give it a shorter one with
/// KERNTIME_TYPE_NAME(my::pixel, "pixel") at global scope (a specialization of this).
template <class T, class = void>
struct type_name {
  static std::string get() {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>) {
      return detail::integer_type_name(std::is_signed_v<T>, sizeof(T));
    } else {
      return detail::demangled_type_name(typeid(T));
    }
  }
};

template <class V, V value>
struct type_name<std::integral_constant<V, value>, std::enable_if_t<std::is_integral_v<V>>> {
  static std::string get() {
    if constexpr (std::is_same_v<V, bool>) {
      return value ? "true" : "false";
    } else {
      return std::to_string(value);
    }
  }
};

namespace detail {

template <class... Ts>
std::vector<AxisValue> type_names(type_list<Ts...>) {
  static_assert(sizeof...(Ts) > 0, "a type axis needs at least one type");
  return {AxisValue{type_name<Ts>::get()}...};
}

// Calls f(type_list<T1, ..., Tk>{}) for every combination of one type from each list, the
// last list varying fastest (the order of configurations).
template <class Chosen, class... Lists>
struct type_product;

template <class... Chosen>
struct type_product<type_list<Chosen...>> {
  template <class F>
  static void each(F& f) {
    f(type_list<Chosen...>{});
  }
};

template <class... Chosen, class... Heads, class... Rest>
struct type_product<type_list<Chosen...>, type_list<Heads...>, Rest...> {
  template <class F>
  static void each(F& f) {
    (type_product<type_list<Chosen..., Heads>, Rest...>::each(f), ...);
  }
};

}  // namespace detail
}  // namespace kerntime

/// Names `type` `name` on type axes (NVBench's NVBENCH_DECLARE_TYPE_STRINGS); at global scope
/// (it specializes kerntime::type_name), once per type.
#define KERNTIME_TYPE_NAME(type, name)        \
  template <>                                 \
  struct kerntime::type_name<type> {          \
    static std::string get() { return name; } \
  }

KERNTIME_TYPE_NAME(float, "float");
KERNTIME_TYPE_NAME(double, "double");
KERNTIME_TYPE_NAME(bool, "bool");
KERNTIME_TYPE_NAME(char, "char");
