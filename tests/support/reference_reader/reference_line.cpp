// SPDX-License-Identifier: Apache-2.0
#include "reference_line.hpp"

#include <charconv>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>

namespace reference_reader {

std::string demangle(const char* name) {
  if (name == nullptr) return "<unnamed>";
  std::string result = name;
  // Only function symbols: __cxa_demangle also decodes type encodings ("i" would read "int").
  if (result.rfind("_Z", 0) == 0) {
    int status = 0;
    const std::unique_ptr<char, void (*)(void*)> demangled{
        abi::__cxa_demangle(name, nullptr, nullptr, &status), &std::free};
    if (status == 0 && demangled != nullptr) result = demangled.get();
  }
  for (char& c : result) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return result;
}

namespace {

void append_number(std::string& out, std::uint64_t value, char separator) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, result.ptr);
  out.push_back(separator);
}

}  // namespace

void append_line(std::string& out, const KernelLine& line, std::string_view name) {
  append_number(out, line.start_ns, '\t');
  append_number(out, line.end_ns, '\t');
  append_number(out, line.device_id, '\t');
  append_number(out, line.stream_id, '\t');
  append_number(out, line.correlation_id, '\t');
  append_number(out, line.graph_id, '\t');
  out.append(name);
  out.push_back('\n');
}

}  // namespace reference_reader
