// SPDX-License-Identifier: Apache-2.0
// The seam between timed scopes and a tracer. A ScopedTimer tells the active listener (if any)
// when it opens and closes, on the opening thread, so that a tracer can tag every launch inside
// with the scope (CUPTI external correlation) without the timing core knowing about CUPTI.
#pragma once

#include <cstdint>
#include <string_view>

namespace kerntime::events {

class ScopeListener {
 public:
  virtual ~ScopeListener() = default;
  /// `scope_id` is unique per opened scope in the process (never 0); `name` outlives the
  /// listener's use of it (it is owned by the Session's region table).
  virtual void scope_begin(std::uint64_t scope_id, std::string_view name) noexcept = 0;
  virtual void scope_end(std::uint64_t scope_id) noexcept = 0;
};

/// Installs `listener` for the whole process (nullptr removes it). Returns the previous one.
/// The caller keeps the listener alive until it is removed.
ScopeListener* set_scope_listener(ScopeListener* listener) noexcept;

/// The active listener, or nullptr: one relaxed atomic load, cheap on the launch path.
ScopeListener* scope_listener() noexcept;

/// A new process-wide unique scope id (never 0).
std::uint64_t next_scope_id() noexcept;

}  // namespace kerntime::events
