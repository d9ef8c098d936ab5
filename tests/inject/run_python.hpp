// SPDX-License-Identifier: Apache-2.0
// Python programs under `kerntime run` in the GPU tests. Each program exits 77 without the package
// it needs (PyTorch, CuPy, JAX) and 78 when that package sees no GPU. The device machine has both,
// so there (KERNTIME_REQUIRE_GPU=1) that fails the test; elsewhere it skips. KERNTIME_TEST_PYTHON
// names the interpreter (python3).
#pragma once

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "support/gpu_test.hpp"
#include "support/run_command.hpp"

namespace kerntime::testing {

inline std::string python_interpreter() {
  const char* chosen = std::getenv("KERNTIME_TEST_PYTHON");
  return chosen != nullptr && *chosen != '\0' ? chosen : "python3";
}

/// Why the program could not run its part that needs `package` ("" when it could).
inline std::string package_missing(const CommandResult& result, const std::string& package) {
  if (result.exit_status == 77) return "no " + package + " in " + python_interpreter();
  if (result.exit_status == 78) return package + " in " + python_interpreter() + " sees no GPU";
  return {};
}

/// Why the program could not run its PyTorch part ("" when it could).
inline std::string torch_missing(const CommandResult& result) {
  return package_missing(result, "PyTorch");
}

/// The value after "KEY " on a line of `out` ("" when no line has it).
inline std::string printed(const std::string& out, const std::string& key) {
  const auto at = out.find(key + " ");
  if (at == std::string::npos) return {};
  const auto start = at + key.size() + 1;
  return out.substr(start, out.find('\n', start) - start);
}

}  // namespace kerntime::testing

/// Fails (KERNTIME_REQUIRE_GPU=1) or skips the test when `result` says `package` (its name in
/// messages) was missing or saw no GPU.
#define KERNTIME_NEED_PACKAGE(result, package)                                          \
  do {                                                                                  \
    if (const std::string why_ = ::kerntime::testing::package_missing(result, package); \
        !why_.empty()) {                                                                \
      if (::kerntime::testing::gpu_required()) FAIL() << why_;                          \
      GTEST_SKIP() << why_;                                                             \
    }                                                                                   \
  } while (0)

/// Fails (KERNTIME_REQUIRE_GPU=1) or skips the test when `result` says PyTorch was missing.
#define KERNTIME_NEED_TORCH(result) KERNTIME_NEED_PACKAGE(result, "PyTorch")
