// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/string_store.hpp"

namespace kerntime::trace {

/// The demangled form of a C++ symbol; empty when `mangled` is not a mangled C++ name, cannot
/// be demangled, or is too long to be worth it (kineto skips names over 8 KiB too).
std::optional<std::string> demangle(std::string_view mangled);

/// CUPTI's API function name without its version suffix: "cudaLaunchKernel_v7000" becomes
/// "cudaLaunchKernel". Other names are returned unchanged.
std::string_view strip_version_suffix(std::string_view name);

/// Kernel names, interned once each with their demangled form.
///
/// CUPTI gives every record of one kernel the same name pointer, so the pointer is the cache
/// key; the text behind a cached pointer is compared on each hit, because a pointer can be
/// reused for another kernel after its module is unloaded. A caller that knows when modules are
/// unloaded says so with trust_pointers(), and a hit then costs no comparison (PyTorch's names
/// run to thousands of characters). Not thread-safe.
class KernelNames {
 public:
  explicit KernelNames(StringStore& store) : store_(store) {}

  /// The id of `name` (nullptr is the unknown kernel).
  std::uint32_t intern(const char* name);

  /// From now on a pointer seen before is taken for the same name without reading it, while
  /// `unloads` stays what it is now: the count of module unloads (and context destructions)
  /// before the records about to be interned were made. A new count forgets every pointer, so
  /// each is read once more.
  void trust_pointers(std::uint64_t unloads);

  std::string_view demangled(std::uint32_t id) const { return entries_[id].demangled; }
  std::string_view mangled(std::uint32_t id) const { return entries_[id].mangled; }
  /// Names that look mangled but did not demangle.
  std::size_t demangle_failures() const { return demangle_failures_; }

 private:
  struct Entry {
    std::string_view mangled;
    std::string_view demangled;
  };
  std::uint32_t intern_text(std::string_view text);

  StringStore& store_;
  std::vector<Entry> entries_;
  std::unordered_map<const char*, std::uint32_t> by_pointer_;
  std::unordered_map<std::string_view, std::uint32_t> by_text_;
  std::size_t demangle_failures_ = 0;
  bool trusted_ = false;
  std::uint64_t unloads_ = 0;
};

}  // namespace kerntime::trace
