// SPDX-License-Identifier: Apache-2.0
// libFuzzer entry point: the input is one report's JSON text, or a baseline and a candidate
// separated by kerntime::fuzz::kSeparator. docs/hardening.md says how to build and run it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "report_oracle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    kerntime::fuzz::check_input(data, size);
  } catch (const kerntime::fuzz::OracleFailure& failure) {
    // libFuzzer saves the input that crashed; the message says which oracle did not hold.
    std::fprintf(stderr, "oracle failed: %s\n", failure.what());
    std::abort();
  }
  return 0;
}
