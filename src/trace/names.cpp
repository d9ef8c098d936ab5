// SPDX-License-Identifier: Apache-2.0
#include "trace/names.hpp"

#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <memory>

namespace kerntime::trace {
namespace {

constexpr std::size_t kMaxDemangledInput = 8192;
constexpr std::string_view kUnknownKernel = "<unknown kernel>";

bool looks_mangled(std::string_view name) {
  return name.size() > 2 && name.substr(0, 2) == "_Z";
}

}  // namespace

std::optional<std::string> demangle(std::string_view mangled) {
  if (!looks_mangled(mangled) || mangled.size() > kMaxDemangledInput) return std::nullopt;
  const std::string input{mangled};
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> result{
      abi::__cxa_demangle(input.c_str(), nullptr, nullptr, &status), std::free};
  if (status != 0 || result == nullptr) return std::nullopt;
  return std::string{result.get()};
}

std::string_view strip_version_suffix(std::string_view name) {
  const std::size_t mark = name.rfind("_v");
  if (mark == std::string_view::npos || mark + 2 == name.size()) return name;
  for (std::size_t i = mark + 2; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  return name.substr(0, mark);
}

std::uint32_t KernelNames::intern(const char* name) {
  if (name == nullptr) return intern_text(kUnknownKernel);
  if (auto it = by_pointer_.find(name); it != by_pointer_.end()) {
    if (trusted_) return it->second;
    const std::string_view known = entries_[it->second].mangled;
    if (std::strncmp(name, known.data(), known.size()) == 0 && name[known.size()] == '\0') {
      return it->second;
    }
  }
  const std::uint32_t id = intern_text(name);
  by_pointer_[name] = id;
  return id;
}

void KernelNames::trust_pointers(std::uint64_t unloads) {
  if (trusted_ && unloads == unloads_) return;
  // Pointers cached before (while not trusted, or before an unload) are read once more.
  by_pointer_.clear();
  trusted_ = true;
  unloads_ = unloads;
}

std::uint32_t KernelNames::intern_text(std::string_view text) {
  if (auto it = by_text_.find(text); it != by_text_.end()) return it->second;
  Entry entry;
  entry.mangled = store_.add(std::string{text});
  if (std::optional<std::string> readable = demangle(text)) {
    entry.demangled = store_.add(std::move(*readable));
  } else {
    if (looks_mangled(text)) ++demangle_failures_;
    entry.demangled = entry.mangled;
  }
  const auto id = static_cast<std::uint32_t>(entries_.size());
  entries_.push_back(entry);
  by_text_.emplace(entry.mangled, id);
  return id;
}

}  // namespace kerntime::trace
