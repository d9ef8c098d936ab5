// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kerntime::trace {

/// One scope opening: which scope, inside which, on which thread.
struct ScopeRecord {
  std::uint64_t id = 0;
  std::uint64_t parent = 0;
  std::uint32_t name = 0;  ///< index into ScopeSnapshot::names
  std::uint64_t thread = 0;
};

struct ScopeSnapshot {
  std::vector<ScopeRecord> scopes;
  std::vector<std::string> names;
};

/// Every scope opened while tracing. Thread-safe; record() runs on the thread that opens a
/// scope, so it only takes a short lock and copies a name the first time it is seen.
class ScopeTable {
 public:
  void record(std::uint64_t id, std::uint64_t parent, std::string_view name, std::uint64_t thread);
  ScopeSnapshot snapshot() const;
  std::size_t size() const;

 private:
  std::uint32_t name_index(std::string_view name);

  mutable std::mutex mutex_;
  std::vector<ScopeRecord> scopes_;
  std::vector<std::string> names_;
  // The caller's name storage usually stays put (a Session's region table), so its address is
  // a cheap first key; the text is compared on each hit, since addresses can be reused.
  std::unordered_map<const char*, std::uint32_t> by_address_;
  std::unordered_map<std::string, std::uint32_t> by_text_;
};

}  // namespace kerntime::trace
