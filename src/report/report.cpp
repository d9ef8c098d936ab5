// SPDX-License-Identifier: Apache-2.0
#include <algorithm>

#include <kerntime/report.hpp>

namespace kerntime {

// A linear search: reports hold tens of entries, and an index would have to be kept in sync
// with a public vector that callers may edit.
const Entry* Report::find(const std::string& name) const {
  const auto it = std::find_if(entries.begin(), entries.end(),
                               [&](const Entry& entry) { return entry.name == name; });
  return it == entries.end() ? nullptr : &*it;
}

}  // namespace kerntime
