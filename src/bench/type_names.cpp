// SPDX-License-Identifier: Apache-2.0
// Names of types on type axes (include/kerntime/type_axes.hpp).
#include <cctype>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>
#include <string>
#include <typeinfo>

#include <kerntime/type_axes.hpp>

namespace kerntime::detail {
namespace {

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// "std::pair<int, float>" -> "std::pair<int,float>", "unsigned int" stays: a space survives
// only between two parts of one name.
std::string without_punctuation_spaces(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != ' ') {
      out += text[i];
      continue;
    }
    const bool between_words = !out.empty() && is_identifier_char(out.back()) &&
                               i + 1 < text.size() && is_identifier_char(text[i + 1]);
    if (between_words) out += ' ';
  }
  return out;
}

}  // namespace

std::string demangled_type_name(const std::type_info& type) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> demangled{
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free};
  return without_punctuation_spaces(status == 0 && demangled ? demangled.get() : type.name());
}

std::string integer_type_name(bool is_signed, std::size_t bytes) {
  return (is_signed ? "int" : "uint") + std::to_string(8 * bytes);
}

}  // namespace kerntime::detail
