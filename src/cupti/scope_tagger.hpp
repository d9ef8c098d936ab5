// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "cupti/cupti_api.hpp"
#include "trace/scope_table.hpp"

namespace kerntime::cupti {

/// Tags every launch inside a kerntime scope with the scope: pushes the scope id as a CUPTI
/// external correlation id when the scope opens and pops it when it closes, on the scope's own
/// thread (CUPTI keeps one stack per thread), and records which scope encloses which.
/// CUPTI then writes the innermost id in front of every API record inside the scope.
class ScopeTagger {
 public:
  ScopeTagger(CuptiApi& api, trace::ScopeTable& table);

  void begin(std::uint64_t scope_id, std::string_view name) noexcept;
  void end(std::uint64_t scope_id) noexcept;

  /// Scopes that closed out of order, or whose popped id was not theirs.
  std::uint64_t mismatches() const { return mismatches_.load(std::memory_order_relaxed); }
  /// Pushes CUPTI refused: launches inside those scopes are not attributed.
  std::uint64_t failed_pushes() const { return failed_pushes_.load(std::memory_order_relaxed); }

 private:
  CuptiApi& api_;
  trace::ScopeTable& table_;
  const std::uint64_t generation_;
  std::atomic<std::uint64_t> mismatches_{0};
  std::atomic<std::uint64_t> failed_pushes_{0};
};

/// Routes the process-wide scope listener (core/scope_listener.hpp) to `tagger`; nullptr
/// detaches and returns once no thread is still inside the previous tagger, so it can be
/// destroyed. A ScopedTimer may read the listener pointer just before it is removed: the
/// object it reads is a forwarder that lives as long as the process, never the tagger itself.
void route_scopes_to(ScopeTagger* tagger) noexcept;

}  // namespace kerntime::cupti
