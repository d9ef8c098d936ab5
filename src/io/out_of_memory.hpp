// SPDX-License-Identifier: Apache-2.0
// An allocation that fails while an input is read or parsed: std::bad_alloc says neither which
// input nor what to do, so every reader turns it into one message that does.
#pragma once

#include <cstdint>
#include <string>

namespace kerntime::io {

/// Where the memory ran out: while the text was read (`bytes` of it so far), or while the
/// whole text (`bytes` long) was parsed.
enum class OutOfMemoryWhile { reading, parsing };

/// Throws kerntime::Error for an allocation that failed on the input `name` (as messages show
/// it), a `what` ("report"): "<stdin>: not enough memory to read report (ran out after 512 MiB);
/// free memory or raise the memory limit (ulimit -v, ulimit -d), or check that it is the right
/// input".
[[noreturn]] void throw_out_of_memory(const std::string& name, const std::string& what,
                                      std::uint64_t bytes, OutOfMemoryWhile stage);

}  // namespace kerntime::io
