// SPDX-License-Identifier: Apache-2.0
// How the benchmarks' own CUPTI injections (bench/run) report a failed CUPTI call: one line on
// standard error, named by the injection, and the program runs on untraced.
#pragma once

#include <cstdio>

#include <cupti.h>

namespace kerntime_bench {

/// True for CUPTI_SUCCESS; otherwise prints "WHO: WHAT: CUPTI's text" and returns false.
inline bool cupti_ok(CUptiResult result, const char* who, const char* what) {
  if (result == CUPTI_SUCCESS) return true;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "%s: %s: %s\n", who, what, text != nullptr ? text : "?");
  return false;
}

}  // namespace kerntime_bench
