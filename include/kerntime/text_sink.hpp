// SPDX-License-Identifier: Apache-2.0
// Where a rendering goes when it is too large to return as one string.
#pragma once

#include <functional>
#include <string_view>

namespace kerntime {

/// Receives text piece by piece, in order (standard output, a file being written, a string).
/// Renderers hand it pieces of about a megabyte; it may throw kerntime::Error to stop them.
using TextSink = std::function<void(std::string_view)>;

}  // namespace kerntime
