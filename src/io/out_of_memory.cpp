// SPDX-License-Identifier: Apache-2.0
#include "io/out_of_memory.hpp"

#include <kerntime/error.hpp>

namespace kerntime::io {

void throw_out_of_memory(const std::string& name, const std::string& what, std::uint64_t bytes,
                         OutOfMemoryWhile stage) {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  const std::string amount =
      bytes >= kMiB ? std::to_string(bytes / kMiB) + " MiB" : std::to_string(bytes) + " bytes";
  const std::string where = stage == OutOfMemoryWhile::reading
                                ? "ran out after " + amount
                                : "ran out while parsing its " + amount;
  throw Error(name + ": not enough memory to read " + what + " (" + where +
              "); free memory or raise the memory limit (ulimit -v, ulimit -d), or check that "
              "it is the right input");
}

}  // namespace kerntime::io
