// SPDX-License-Identifier: Apache-2.0
// The reference reader's output line, apart from CUPTI so that a CPU test can check it. Shares
// nothing with kerntime: the reader is the independent check of `kerntime run`'s figures.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace reference_reader {

/// One kernel record, as the reader writes it.
struct KernelLine {
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint32_t device_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  std::uint32_t graph_id = 0;
};

/// The demangled name (abi::__cxa_demangle of a name that starts with _Z), or `name` itself
/// when it is not a mangled C++ function name (extern "C" kernels, Triton's), with tabs, carriage
/// returns and newlines replaced by spaces so that a name is always one TSV field. A null name
/// reads "<unnamed>".
std::string demangle(const char* name);

/// Appends `start\tend\tdevice\tstream\tcorrelation\tgraph\tname\n` to `out`; `name` must
/// already be clean (demangle()'s result).
void append_line(std::string& out, const KernelLine& line, std::string_view name);

}  // namespace reference_reader
