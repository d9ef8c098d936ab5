// SPDX-License-Identifier: Apache-2.0
// The one helper for tests of kerntime's errors: the message a call throws, so a test asserts
// the words a user would read.
#pragma once

#include <string>
#include <utility>

#include <kerntime/error.hpp>

namespace kerntime::testing {

/// The sentinel error_message() returns when `action` throws nothing.
inline const std::string kNoError = "(no error)";

/// The message of the kerntime::Error that `action` throws; kNoError when it throws none.
template <class Action>
std::string error_message(Action&& action) {
  try {
    std::forward<Action>(action)();
  } catch (const Error& e) {
    return e.what();
  }
  return kNoError;
}

}  // namespace kerntime::testing
