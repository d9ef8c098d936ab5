// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <deque>
#include <string>
#include <string_view>

namespace kerntime::trace {

/// Owns the text that trace records refer to by std::string_view. A deque never moves its
/// elements when it grows, so views handed out stay valid while more strings are added (the
/// builder keeps adding while earlier Traces still read theirs).
class StringStore {
 public:
  std::string_view add(std::string text) {
    strings_.push_back(std::move(text));
    return strings_.back();
  }
  std::size_t size() const { return strings_.size(); }

 private:
  std::deque<std::string> strings_;
};

}  // namespace kerntime::trace
