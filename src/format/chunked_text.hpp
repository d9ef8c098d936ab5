// SPDX-License-Identifier: Apache-2.0
// The text of a rendering collected in pieces and handed to a sink about a megabyte at a time,
// so a view of a million rows is never one string, and standard output or a file gets few
// large writes rather than one per row.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include <kerntime/text_sink.hpp>

namespace kerntime::format {

class ChunkedText {
 public:
  explicit ChunkedText(TextSink sink) : sink_(std::move(sink)) {}

  ChunkedText& operator+=(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kPieceBytes) flush();
    return *this;
  }

  /// Hands what is collected to the sink; call once more at the end.
  void flush() {
    if (buffer_.empty()) return;
    sink_(buffer_);
    buffer_.clear();
  }

 private:
  static constexpr std::size_t kPieceBytes = std::size_t{1} << 20;
  TextSink sink_;
  std::string buffer_;
};

/// Runs `write` (which renders into a ChunkedText) and returns the whole text as one string.
template <class Write>
std::string collect_text(Write&& write) {
  std::string text;
  ChunkedText out([&text](std::string_view piece) { text.append(piece); });
  write(out);
  out.flush();
  return text;
}

}  // namespace kerntime::format
