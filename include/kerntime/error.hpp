// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <string>

#include <kerntime/export.hpp>

namespace kerntime {

/// The one exception type kerntime throws.
///
/// The message is a complete sentence for a person: it names what failed (the CUDA call, the
/// file and field, the option), why, and what to do about it. kerntime never prints raw error
/// codes, never calls exit() or abort(); callers decide what to do with the error.
class KERNTIME_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kerntime
